"""The pit tablet: every decision of a hand recorded from the round's page (blackjack's deal,
double, split, insurance, even money, surrender; stud poker's call and fold), card games'
outcomes card by card, and each bet's settlement in words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from casino.models import Role
from games.models import Bet, Round
from games.services import bet_place, round_close_betting, round_open, table_session_open

from .conftest import CASINO, pit
from .test_web import key, person

pytestmark = pytest.mark.django_db


def _round(make_table: Any, game: str, bets: list[dict[str, Any]], seats: int = 7) -> str:
    table = make_table(game, minimum="10", seats=seats)
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    rid = round_open(session_id=sid, metadata=pit()).round_id
    bet_place(round_id=rid, bets=bets, metadata=pit())
    round_close_betting(round_id=rid, metadata=pit())
    return str(rid)


def _post(client: Client, rid: str, form: str, **data: Any) -> str:
    page = client.get(f"/pit/rounds/{rid}/")
    done = client.post(f"/pit/rounds/{rid}/", {"idempotency_key": key(page, form), **data},
                       follow=True)
    assert done.status_code == 200
    return done.content.decode()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_blackjack_deal_double_split_insurance_and_settlement_in_words(make_table: Any) -> None:
    rid = _round(make_table, "blackjack", [
        {"seat": 1, "type": "main", "amount": "20"},
        {"seat": 2, "type": "main", "amount": "10"},
        {"seat": 3, "type": "main", "amount": "10"}])
    fiscal = person("fiscal", Role.PIT_BOSS)
    page = _post(fiscal, rid, "deal", action="deal", upcard="as", **{
        "seat-1": "8S 8D", "seat-2": "6H 5C", "seat-3": "TC 9D"})
    assert "Deal recorded: play the hands." in page
    # the bank shows an ace: seat 1 insures b1 for half its 20.00, seat 3 surrenders? not
    # against an ace (n.º 36): it stands
    page = _post(fiscal, rid, "i:b1", action="decision", decision="insurance", seat="1",
                 hand="1", bet_id="b1", amount="10")
    assert "Seat 1: Insurance recorded. Its stake: bet b4." in _text(page)
    page = _post(fiscal, rid, "d:1:1", action="decision", decision="split", seat="1", hand="1",
                 cards="3H KD")
    assert "Its stake: bet b5." in _text(page)
    # 8 3 is 11: the rules let it take a card, not stand (n.º 18)
    refused = _text(_post(fiscal, rid, "d:1:1", action="decision", decision="stand", seat="1",
                          hand="1"))
    assert "Stand is not allowed on this hand now (8S 3H against AS)" in refused
    _post(fiscal, rid, "d:1:1", action="decision", decision="hit", seat="1", hand="1",
          cards="9C")
    _post(fiscal, rid, "d:1:1", action="decision", decision="stand", seat="1", hand="1")
    _post(fiscal, rid, "d:1:2", action="decision", decision="stand", seat="1", hand="2")
    page = _post(fiscal, rid, "d:2:1", action="decision", decision="double", seat="2", hand="1",
                 cards="KS")
    assert "Seat 2: Double recorded. Its stake: bet b6." in _text(page)
    # a card missing: refused beside the form, nothing recorded
    refused = _post(fiscal, rid, "d:3:1", action="decision", decision="hit", seat="3", hand="1")
    assert "Card drawn: write the cards" in _text(refused)
    _post(fiscal, rid, "d:3:1", action="decision", decision="stand", seat="3", hand="1")
    stakes = {b.bet_id: (b.bet_type, str(b.amount)) for b in Bet.objects.filter(round_id=rid)}
    assert stakes == {"b1": ("main", "20.00"), "b2": ("main", "10.00"), "b3": ("main", "10.00"),
                      "b4": ("insurance", "10.00"), "b5": ("split", "20.00"),
                      "b6": ("double", "10.00")}

    # the bank: A, 6 in the hole: 17, it stands (n.º 6 a)
    page = _post(fiscal, rid, "outcome", action="outcome", dealer="AS 6C")
    assert "Outcome recorded" in page, re.findall(r'class="alert">([^<]*)', page)
    page = _text(_post(fiscal, rid, "settle", action="settle"))
    # by hand, against the bank's 17: b1 (8 3 9 = 20) wins 20; b5 (8 K = 18) wins 20;
    # insurance b4 loses 10 (no bank blackjack); b2 + b6 (6 5 K = 21) win 10 + 10; b3 (19)
    # wins 10. Prizes 70, result 10 - 70 = -60.
    assert "Round settled: prizes 70.00, result -60.00." in page
    assert "won: pays 1 to 1, a prize of 20.00; 40.00 to the player with the stake" in page
    assert "lost: the stake of 10.00 stays with the bank" in page
    assert "Bank AS 6C" in page
    assert "seat 1: 8S 3H 9C / 8D KD · seat 2: 6H 5C KS (doubled)" in page
    assert "dealer:" not in page
    assert "{" not in page.split("Bets and settlements")[1][:4000]
    assert Round.objects.get(round_id=rid).result == -60


def test_blackjack_even_money_and_surrender(make_table: Any) -> None:
    rid = _round(make_table, "blackjack", [{"seat": 1, "type": "main", "amount": "10"},
                                           {"seat": 2, "type": "main", "amount": "10"}])
    fiscal = person("fiscal", Role.PIT_BOSS)
    _post(fiscal, rid, "deal", action="deal", upcard="AH", **{"seat-1": "AS KD",
                                                               "seat-2": "TC 6D"})
    page = _text(_post(fiscal, rid, "i:b1", action="decision", decision="even_money", seat="1",
                       hand="1", bet_id="b1"))
    assert "Seat 1: Even money recorded." in page
    # surrender is not offered against an ace (n.º 36): the rules refuse it, said beside the form
    refused = _text(_post(fiscal, rid, "d:2:1", action="decision", decision="surrender",
                          seat="2", hand="1"))
    assert "The rules do not allow this decision now" in refused


def test_stud_poker_call_and_fold_from_the_boxes(make_table: Any) -> None:
    rid = _round(make_table, "stud_poker", [{"seat": 1, "type": "ante", "amount": "10"},
                                            {"seat": 2, "type": "ante", "amount": "10"}])
    fiscal = person("fiscal", Role.PIT_BOSS)
    page = _text(_post(fiscal, rid, "box:1", action="decision", decision="call", seat="1"))
    assert "Seat 1: Call recorded. Its stake: bet b3." in page
    _post(fiscal, rid, "box:2", action="decision", decision="fold", seat="2")
    assert Bet.objects.get(round_id=rid, bet_id="b3").amount == 20
    assert Round.objects.get(round_id=rid).play["decisions"] == {"1": "call", "2": "fold"}


def test_baccarat_outcome_card_by_card(make_table: Any) -> None:
    rid = _round(make_table, "punto_banco", [{"seat": 1, "type": "player", "amount": "20"}])
    fiscal = person("fiscal", Role.PIT_BOSS)
    # player 7 + K = 7 stands; banker 2 + 3 = 5 draws a third (the player stood): 2 -> 7: tie
    refused = _text(_post(fiscal, rid, "outcome", action="outcome", player1="7S", player2="KH",
                          banker1="2C", banker2="3D"))
    assert "The rules of the game refuse this outcome" in refused
    _post(fiscal, rid, "outcome", action="outcome", player1="7S", player2="KH", banker1="2C",
          banker2="3D", banker3="2H")
    page = _text(_post(fiscal, rid, "settle", action="settle"))
    assert "Player 7S KH · Banker 2C 3D 2H" in page
    assert "stands (push): the stake of 20.00 goes back to the player" in page


def test_football_poker_outcome_card_by_card_for_the_seats_with_a_bet(make_table: Any) -> None:
    rid = _round(make_table, "football_poker", [{"seat": 2, "type": "upper", "amount": "10"}],
                 seats=8)
    fiscal = person("fiscal", Role.PIT_BOSS)
    page = fiscal.get(f"/pit/rounds/{rid}/").content.decode()
    assert 'name="seat2-1"' in page
    assert 'name="seat1-1"' not in page  # no bet, no hand asked for
    # 4 + 5 is 9: a third card is due (terceira carta 1), so two are refused
    refused = _text(_post(fiscal, rid, "outcome", action="outcome", **{
        "seat2-1": "4S", "seat2-2": "5D"}))
    assert "The rules of the game refuse this outcome" in refused
    _post(fiscal, rid, "outcome", action="outcome", **{"seat2-1": "4S", "seat2-2": "5D",
                                                       "seat2-3": "3C"})
    page = _text(_post(fiscal, rid, "settle", action="settle"))
    # 4 + 5 + 3 = 12, counted 2: the upper range (1 to 4) wins 1 to 1
    assert "seat 2: 4S 5D 3C" in page
    assert "won: pays 1 to 1, a prize of 10.00; 20.00 to the player with the stake" in page
