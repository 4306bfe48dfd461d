"""A coup from a round the pit recorded (blackjack with split aces, stud poker with a fold),
settled in the round's own transaction; the prizes paid through the cage; the ledger's jackpot
accounts following the meters."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import transaction

from casino.errors import Conflict, InvalidCommand
from eventstore import read_stream
from games.services import (
    deal_record,
    decision_record,
    outcome_record,
    round_close_betting,
    round_open,
    round_settle,
    table_session_open,
)
from jackpots.answers import PrizePayAnswer
from jackpots.models import JackpotPool, JackpotPrize
from jackpots.services import jackpot_prize_pay, jackpot_round_settle
from jackpots.services.rounds import blackjack_first_cards, hands_first_cards

from .conftest import CASINO, EXAMPLES, cashier, pit
from .ledger import ledger_balance

pytestmark = pytest.mark.django_db
D = Decimal


def open_round(table: str, bets: list[dict[str, Any]]) -> str:
    session = table_session_open(casino=CASINO, table=table,
                                 opening={"1000.00": 20, "100.00": 50, "25.00": 40},
                                 metadata=pit()).session_id
    rid: str = round_open(session_id=session, bets=bets, metadata=pit()).round_id
    round_close_betting(round_id=rid, metadata=pit())
    return rid


def chips(seats: list[int]) -> list[dict[str, Any]]:
    return [{"seat": s, "player": f"seat-{s}", "amount": "1.00"} for s in seats]


@pytest.fixture
def blackjack_example_c(make_pool) -> tuple[str, str]:
    """Example C played at a blackjack table: seat 1 splits its aces, seat 5 splits suited
    aces, seat 2 hits two aces."""
    pool_id = make_pool("blackjack", amount=EXAMPLES["C"]["pool"])
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    seats = [1, 2, 3, 5, 6]
    rid = open_round(table, [{"seat": s, "player": f"seat-{s}", "type": "main", "amount": "10"}
                             for s in seats])
    deal_record(round_id=rid, upcard="9S", seats={"1": ["AS", "AS"], "2": ["AD", "AC"],
                                                  "3": ["AC", "AH"], "5": ["AH", "AH"],
                                                  "6": ["KD", "AD"]}, metadata=pit())
    decision_record(round_id=rid, seat=1, hand=1, decision="split", cards=["AH", "9D"],
                    metadata=pit())
    decision_record(round_id=rid, seat=2, hand=1, decision="hit", cards=["7S"], metadata=pit())
    decision_record(round_id=rid, seat=2, hand=1, decision="stand", metadata=pit())
    decision_record(round_id=rid, seat=3, hand=1, decision="stand", metadata=pit())
    decision_record(round_id=rid, seat=5, hand=1, decision="split", cards=["AH", "AH"],
                    metadata=pit())
    # (each split ace has its one card: nothing more to decide, n.º 26)
    outcome_record(round_id=rid, outcome={"dealer": {"cards": ["9S", "8C"]}}, metadata=pit())
    return pool_id, rid


def test_example_c_from_a_blackjack_round_settled_in_the_same_transaction(
        blackjack_example_c: tuple[str, str]) -> None:
    pool_id, rid = blackjack_example_c
    with transaction.atomic():
        round_settle(round_id=rid, metadata=pit())
        answer = jackpot_round_settle(round_id=rid, bets=chips([1, 2, 3, 5, 6]), metadata=pit())
    assert answer.result == EXAMPLES["C"]["result"]
    coup = next(r for r in read_stream(f"jackpot/{CASINO}.{pool_id}")
                if r.event_type == "JackpotCoupSettled")
    assert coup.data["request"]["bets"][0]["cards"] == ["AS", "AS", "AH", "9D"]
    assert coup.data["request"]["bets"][3]["cards"] == ["AH", "AH", "AH", "AH"]
    assert coup.data["request"]["bets"][1]["cards"] == ["AD", "AC", "7S"]


def test_a_jackpot_bet_needs_a_bet_in_the_main_game(blackjack_example_c: tuple[str, str]
                                                    ) -> None:
    _, rid = blackjack_example_c
    with pytest.raises(InvalidCommand) as refused:
        jackpot_round_settle(round_id=rid, bets=[{"seat": 1, "player": "P-a009",
                                                  "amount": "1.00"}], metadata=pit())
    assert refused.value.code == "no_main_bet"
    assert "n.º 45" in refused.value.extra["article"]


def test_example_a_from_a_stud_poker_round_with_a_fold(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount=EXAMPLES["A"]["pool"])
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    seats = EXAMPLES["A"]["seats"]
    rid = open_round(table, [{"seat": s, "player": f"seat-{s}", "type": "ante", "amount": "10"}
                             for s in seats])
    for seat, (_, folded) in seats.items():
        decision_record(round_id=rid, seat=seat, decision="fold" if folded else "call",
                        metadata=pit())
    outcome_record(round_id=rid, outcome={
        "dealer": {"cards": ["2S", "4D", "6S", "8S", "3D"]},  # the bank does not qualify
        "seats": [{"seat": s, "cards": list(cards)} for s, (cards, _) in seats.items()]},
        metadata=pit())
    with transaction.atomic():
        round_settle(round_id=rid, metadata=pit())
        answer = jackpot_round_settle(round_id=rid, bets=chips(list(seats)), metadata=pit())
    assert answer.result == EXAMPLES["A"]["result"]


def test_a_round_without_its_outcome_is_not_paid_yet(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    rid = open_round(table, [{"seat": 1, "type": "ante", "amount": "10"}])
    with pytest.raises(Conflict) as refused:
        jackpot_round_settle(round_id=rid, bets=chips([1]), metadata=pit())
    assert refused.value.code == "no_outcome"


def test_a_round_of_a_game_without_a_jackpot_is_refused_in_words(make_pool, make_table) -> None:
    """A roulette round named for a pool: refused naming its table and the games that have a
    jackpot, never the game's code; nothing recorded on the pool."""
    pool_id = make_pool("stud_poker")
    table = make_table("french_roulette", "r9")
    rid = open_round(table, [{"seat": 1, "type": "red", "amount": "10"}])
    outcome_record(round_id=rid, outcome={"number": 1}, metadata=pit())
    before = len(read_stream(f"jackpot/{CASINO}.{pool_id}"))
    assert before > 0  # the pool's stream, created
    with pytest.raises(InvalidCommand) as refused:
        jackpot_round_settle(round_id=rid, bets=chips([1]), metadata=pit(), pool_id=pool_id)
    said = refused.value.message.format(**refused.value.params)
    assert said == ("table r9 plays a game with no jackpot: only blackjack and stud poker have "
                    "one")
    assert "french_roulette" not in said
    assert len(read_stream(f"jackpot/{CASINO}.{pool_id}")) == before


def test_first_cards_in_dealing_order() -> None:
    assert blackjack_first_cards(["AS", "AS"], [
        {"hand": 1, "decision": "split", "cards": ["AH", "9D"]}]) == ["AS", "AS", "AH", "9D"]
    assert blackjack_first_cards(["AS", "AH"], [
        {"hand": 1, "decision": "hit", "cards": ["AD"]},
        {"hand": 1, "decision": "hit", "cards": ["AC"]},
        {"hand": 1, "decision": "hit", "cards": ["5C"]}]) == ["AS", "AH", "AD", "AC"]
    assert blackjack_first_cards(["KD", "AD"], []) == ["KD", "AD"]
    assert hands_first_cards([{"cards": ["AS", "AH"]}, {"cards": ["AS", "9D"]}]) == [
        "AS", "AS", "AH", "9D"]
    # After a resplit the hands do not say which hand was split again: the table must say.
    assert hands_first_cards([{"cards": ["AS", "5D"]}, {"cards": ["AD", "9S"]},
                              {"cards": ["AH", "KC"]}]) is None


# --- payment through the cage -------------------------------------------------------------------


@pytest.fixture
def window(casino: str) -> str:
    """A cashier window open and stocked from the vault (the cage's own services)."""
    from cage import services as cage
    from casino.context import person_metadata
    from casino.models import Role

    boss = person_metadata(username="carla", role=Role.CAGE_SUPERVISOR, casino=CASINO)
    cage.cage_configure(code="w1", name="Window 1", kind="window", minimum_cash=Decimal("0.00"),
                        metadata=boss)
    cage.cage_configure(code="vault", name="Vault", kind="vault", minimum_cash=Decimal("0.00"),
                        metadata=boss)
    vault = cage.shift_open(cage="vault", cash={"500.00": 40, "100.00": 300, "50.00": 200},
                            metadata=boss).shift_id
    cage.chips_put_into_service(shift_id=vault, chip_set="main",
                                chips={"100.00": 500, "25.00": 800, "1.00": 2000},
                                reference="delivery note 1", metadata=boss)
    shift = cage.shift_open(cage="w1", cash={}, metadata=cashier()).shift_id
    cage.transfer_send(shift_id=vault, to_cage="w1",
                       cash={"500.00": 40, "100.00": 100, "50.00": 40},
                       chips={"main": {"100.00": 50, "25.00": 100, "1.00": 100}},
                       metadata=boss)
    return str(shift)


def test_prizes_are_paid_once_through_the_cage_and_the_ledger_follows(
        blackjack_example_c: tuple[str, str], window: str, identified_patron: Any) -> None:
    pool_id, rid = blackjack_example_c
    with transaction.atomic():
        round_settle(round_id=rid, metadata=pit())
        jackpot_round_settle(round_id=rid, bets=chips([1, 2, 3, 5, 6]), metadata=pit())
    prizes = {p.seat: p for p in JackpotPrize.objects.filter(pool_id=pool_id)}
    assert {s: p.amount for s, p in prizes.items()} == {
        1: D("250.00"), 2: D("25.00"), 3: D("25.00"), 5: D("19704.00")}
    assert ledger_balance("jackpot_payable", pool_id) == D("20004.00")
    assert ledger_balance("jackpot_liability", pool_id) == D("10000.00")

    # the top prize in cash and chips, a two-aces prize in chips (retried with its key)
    top = _pay(prizes[5], window, cash={"500.00": 39, "100.00": 2}, chips={"1.00": 4},
               chip_set="main", patron=identified_patron("lisboa"))  # 2,000.00 or more
    assert top.amount == "19704.00"
    first = jackpot_prize_pay(prize_id=prizes[2].prize_id, shift_id=window, chips={"25.00": 1},
                              chip_set="main", metadata=cashier(key="pay-seat-2"))
    retry = jackpot_prize_pay(prize_id=prizes[2].prize_id, shift_id=window, chips={"25.00": 1},
                              chip_set="main", metadata=cashier(key="pay-seat-2"))
    assert retry == first
    with pytest.raises(Conflict) as twice:
        _pay(prizes[2], window, chips={"25.00": 1}, chip_set="main")
    assert twice.value.code == "already_paid"

    paid_out = [r for r in read_stream(f"shift/{window}") if r.event_type == "JackpotPaid"]
    assert sorted(r.data["amount"] for r in paid_out) == ["19704.00", "25.00"]
    assert {r.data["pool_id"] for r in paid_out} == {pool_id}
    assert {r.data["round_id"] for r in paid_out} == {rid}
    pool = JackpotPool.objects.get(pool_id=pool_id)
    assert pool.prizes_unpaid == D("275.00")
    assert ledger_balance("jackpot_payable", pool_id) == D("275.00")
    assert ledger_balance("jackpot_liability", pool_id) == pool.amount
    paid = JackpotPrize.objects.get(prize_id=prizes[5].prize_id)
    assert paid.paid
    assert paid.payout_id == top.payout_id
    assert paid.shift_id == window


def test_a_prize_the_window_cannot_pay_records_nothing(blackjack_example_c: tuple[str, str],
                                                      window: str) -> None:
    pool_id, rid = blackjack_example_c
    with transaction.atomic():
        round_settle(round_id=rid, metadata=pit())
        jackpot_round_settle(round_id=rid, bets=chips([1, 2, 3, 5, 6]), metadata=pit())
    prize = JackpotPrize.objects.get(pool_id=pool_id, seat=1)
    with pytest.raises(InvalidCommand):
        _pay(prize, window, cash={"100.00": 2})  # 200.00 for a 250.00 prize
    prize.refresh_from_db()
    assert not prize.paid


def _pay(prize: JackpotPrize, window: str, **kwargs: Any) -> PrizePayAnswer:
    return jackpot_prize_pay(prize_id=prize.prize_id, shift_id=window, metadata=cashier(),
                             **kwargs)


def test_a_change_made_while_a_pit_round_is_open_waits_for_the_next_round(make_pool) -> None:
    from jackpots.services import jackpot_pool_change

    from .conftest import admin

    pool_id = make_pool("stud_poker", amount=EXAMPLES["B"]["pool"])
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    seats = EXAMPLES["B"]["seats"]
    rid = open_round(table, [{"seat": s, "player": f"seat-{s}", "type": "ante", "amount": "10"}
                             for s in seats])
    jackpot_pool_change(casino=CASINO, pool_id=pool_id, bet=Decimal("2.00"), start=Decimal("20000.00"),
                        approved_on="2024-06-01", approval_reference="IGJ 10/2024",
                        metadata=admin())
    for seat in seats:
        decision_record(round_id=rid, seat=seat, decision="call", metadata=pit())
    outcome_record(round_id=rid, outcome={
        "dealer": {"cards": ["AS", "KD", "2D", "3D", "4C"]},
        "seats": [{"seat": s, "cards": list(cards)} for s, (cards, _) in seats.items()]},
        metadata=pit())
    with transaction.atomic():
        round_settle(round_id=rid, metadata=pit())
        answer = jackpot_round_settle(round_id=rid, bets=chips(list(seats)), metadata=pit())
    assert answer.config_version == 1  # the 1.00 chips of the round already open
    assert answer.result == EXAMPLES["B"]["result"]
