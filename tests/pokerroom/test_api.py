"""The poker room's API: a dealer's hands recorded, a refusal naming its rule with nothing
recorded (never a 500), a tournament's detail with its payouts, a prize paid, the regulator's
reads (figures by hand)."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from access.models import RegulatorAccount
from casino.models import Membership, Role
from pokerroom.models import PokerHand
from pokerroom.services.tables import (
    poker_chips_buy,
    poker_player_seat,
    poker_table_open,
)
from pokerroom.services.tournaments import (
    tournament_announce,
    tournament_eliminate,
    tournament_register,
    tournament_start,
)

from .conftest import CASINO, floor


def _client(role: str) -> APIClient:
    user = get_user_model().objects.create_user(role)
    Membership.objects.create(user=user, casino_id=CASINO, role=role)
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def room(casino: str) -> None:
    poker_table_open(casino=CASINO, table="nl2", game="holdem", seats=6, min_buy_in=D("40.00"),
                     max_buy_in=D("200.00"), rake_percent="5", rake_cap=D("3.00"),
                     minimum_pot=D("1.00"), approval_reference="SRIJ 5/2026", metadata=floor())
    for seat in (1, 2):
        poker_player_seat(casino=CASINO, table="nl2", seat=seat, metadata=floor())
        poker_chips_buy(casino=CASINO, table="nl2", seat=seat, amount=D("100.00"),
                        metadata=floor())
    tournament_announce(casino=CASINO, tournament="fri", game="holdem", buy_in=D("20.00"),
                        entry_fee=D("2.00"), payout_percents=["70", "30"],
                        approval_reference="SRIJ 6/2026", metadata=floor())
    for patron in ("P-1", "P-2", "P-3"):
        tournament_register(casino=CASINO, tournament="fri", patron=patron, metadata=floor())
    tournament_start(casino=CASINO, tournament="fri", metadata=floor())
    tournament_eliminate(casino=CASINO, tournament="fri", entry=1, metadata=floor())
    tournament_eliminate(casino=CASINO, tournament="fri", entry=2, metadata=floor())


HANDS = "/api/v1/poker-room/lisboa/tables/nl2/hands/"


def test_the_dealer_records_a_hand(room: None) -> None:
    # 10 + 10 = 20.00; 5 % = 1.00; 19.00 to seat 2
    response = _client(Role.PIT_BOSS).post(HANDS, {"hands": [
        {"contributions": {"1": "10.00", "2": "10.00"}, "awards": {"2": "19.00"},
         "rake": "1.00", "flop_dealt": True}]}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["rake"] == "1.00"
    table = _client(Role.ACCOUNTANT).get("/api/v1/poker-room/lisboa/tables/nl2/").json()
    assert table["table"]["players_money"] == "199.00"  # 200.00 - 1.00
    assert [h["pot"] for h in table["hands"]] == ["20.00"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"hands": [{"contributions": {"1": "10.00", "2": "10.00"}, "awards": {"2": "16.00"},
                     "rake": "4.00"}]}, "rake_above_cap"),  # 4.00 > cap 3.00
        ({"hands": [{"contributions": {"1": "10.00"}, "awards": {"1": "9.00"},
                     "rake": "1.00", "flop_dealt": "maybe"}]}, "invalid"),
        ({"hands": [{"contributions": {"9": "10.00"}, "awards": {"9": "9.50"},
                     "rake": "0.50"}]}, "invalid"),  # seat 9 of a 6-seat table
        ({"hands": [{"contributions": {"1": 10.5}, "awards": {"1": "10.00"},
                     "rake": "0.50"}]}, "invalid"),  # a float is not an amount
        ({"hands": "all of them"}, "invalid"),
    ],
)
def test_a_bad_hand_is_refused_by_name_and_nothing_recorded(room: None, body: dict[str, Any],
                                                            code: str) -> None:
    response = _client(Role.PIT_BOSS).post(HANDS, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code
    assert not PokerHand.objects.exists()


def test_a_cashier_may_not_record_hands(room: None) -> None:
    response = _client(Role.CASHIER).post(HANDS, {"hands": [{}]}, format="json")
    assert response.status_code == 403


def test_a_tournament_its_payouts_and_a_prize_paid(room: None) -> None:
    detail = _client(Role.PIT_BOSS).get("/api/v1/poker-room/lisboa/tournaments/fri/").json()
    # 3 × 20.00 = 60.00: 70 % = 42.00 to entry 3, 30 % = 18.00 to entry 2
    assert detail["tournament"]["pool"] == "60.00"
    assert [(e["entry"], e["place"], e["prize"]) for e in detail["entries"]] == [
        (3, 1, "42.00"), (2, 2, "18.00"), (1, 3, "0.00")]
    cashier = _client(Role.CASHIER)
    paid = cashier.post("/api/v1/poker-room/lisboa/tournaments/fri/prizes/3/payment/", {},
                        format="json")
    assert paid.status_code == 201, paid.content
    assert paid.json()["amount"] == "42.00"
    again = cashier.post("/api/v1/poker-room/lisboa/tournaments/fri/prizes/3/payment/", {},
                         format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "prize_paid")
    out = cashier.post("/api/v1/poker-room/lisboa/tournaments/fri/prizes/1/payment/", {},
                       format="json")
    assert (out.status_code, out.json()["error"]["code"]) == (409, "no_prize")


def test_the_regulator_reads_the_poker_room(room: None) -> None:
    user = get_user_model().objects.create_user("srij-inspector")
    RegulatorAccount.objects.create(user=user, jurisdiction="PT")
    client = APIClient()
    client.force_authenticate(user)
    base = "/api/regulator/v1/casinos/lisboa/poker-room/"
    tables = client.get(base + "tables/")
    assert tables.status_code == 200, tables.content
    assert [(t["code"], t["approval_reference"]) for t in tables.json()["results"]] == [
        ("nl2", "SRIJ 5/2026")]
    entries = client.get(base + "tournaments/fri/entries/").json()["results"]
    assert [(e["entry"], e["place"]) for e in entries] == [(1, 3), (2, 2), (3, 1)]
    assert client.post(base + "tables/", {}).status_code == 405


def test_a_chemin_de_fer_coup_through_the_api(casino: str) -> None:
    poker_table_open(casino=CASINO, table="cf9", game="chemin_de_fer", seats=6,
                     min_buy_in=D("100.00"), max_buy_in=D("1000.00"), commission_percent="5",
                     approval_reference="SRIJ 11/2026", metadata=floor())
    for seat in (1, 2):
        poker_player_seat(casino=CASINO, table="cf9", seat=seat, metadata=floor())
    pit = _client(Role.PIT_BOSS)
    url = "/api/v1/poker-room/lisboa/tables/cf9/coups/"
    # 6 against 7, both stand: the banker wins 40.00; 5 % = 2.00; bank 100 + 40 - 2 = 138.00
    won = pit.post(url, {"banker_seat": 1, "bank": "100.00", "stakes": {"2": "40.00"},
                         "punter_cards": ["6S", "KH"], "banker_cards": ["7D", "KC"]},
                   format="json")
    assert won.status_code == 201, won.content
    assert (won.json()["commission"], won.json()["bank_after"]) == ("2.00", "138.00")
    # 2 + 2 = 4: the punter must draw (CF-2); standing breaks the rule
    broken = pit.post(url, {"banker_seat": 1, "bank": "100.00", "stakes": {"2": "40.00"},
                            "punter_cards": ["2S", "2H"], "banker_cards": ["7D", "KC"]},
                      format="json")
    assert broken.status_code == 400
    assert broken.json()["error"]["code"] == "punter_draw"
    assert "CF-2" in broken.json()["error"]["message"]
    too_much = pit.post(url, {"banker_seat": 1, "bank": "10.00", "stakes": {"2": "40.00"},
                              "punter_cards": ["6S", "KH"], "banker_cards": ["7D", "KC"]},
                        format="json")
    assert too_much.json()["error"]["code"] == "stakes_above_bank"  # 40.00 > 10.00 (CF-5)
