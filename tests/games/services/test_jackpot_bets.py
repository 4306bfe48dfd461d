
"""Jackpot chips at the pit: placed before the deal, recorded on the round, outside the handle,
decided by the pool's coup in the transaction that settles (or voids) the round, paid by the cage.

Every figure is computed by hand here from ``docs/jackpots.md`` and the games' rules; the worked
examples C (blackjack), A (stud poker) and D (blackjack, a whole round) are played as real rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from decimal import Decimal as D
from typing import Any

import pytest

from casino.context import person_metadata
from casino.errors import Conflict, DomainError, InvalidCommand
from casino.models import Role
from eventstore import read_stream
from eventstore.answers import as_data
from eventstore.models import CommandRecord, StoredEvent
from eventstore.records import Metadata
from games.answers import RoundJackpot, RoundJackpotPrize, RoundSettleAnswer
from games.models import JackpotBet, Round, TableSession
from games.services import (
    deal_record,
    decision_record,
    jackpot_bet_place,
    outcome_record,
    round_close_betting,
    round_correct,
    round_open,
    round_record,
    round_settle,
    round_void,
    table_change_options,
    table_configure,
    table_session_open,
)
from jackpots.models import JackpotCoup, JackpotPool, JackpotPrize

from ..conftest import CASINO, events_count, pit, rebuild_differences

pytestmark = pytest.mark.django_db

BLACKJACK_PAYTABLE = [
    {"combination": "four_aces_suited", "pays": "jackpot"},
    {"combination": "four_aces", "pays": "10%"},
    {"combination": "three_aces", "pays": "250x"},
    {"combination": "two_aces_suited", "pays": "100x"},
    {"combination": "two_aces", "pays": "25x"},
]
STUD_PAYTABLE = [
    {"combination": "royal_flush", "pays": "jackpot"},
    {"combination": "straight_flush", "pays": "10%"},
    {"combination": "four_of_a_kind", "pays": "500x"},
    {"combination": "full_house", "pays": "100x"},
    {"combination": "flush", "pays": "50x"},
]
GAME = {"blackjack": ("80", BLACKJACK_PAYTABLE), "stud_poker": ("70", STUD_PAYTABLE)}


def admin() -> Metadata:
    return person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino=CASINO)


def cashier(key: str = "") -> Metadata:
    return person_metadata(username="caixa", role=Role.CASHIER, casino=CASINO,
                           idempotency_key=key)


@pytest.fixture
def pool_table(make_table) -> Callable[..., str]:
    """``make(game, code, meter)``: a table feeding a new pool (the configuration of
    docs/jackpots.md: bet 1.00, start 10,000.00), its meter brought to ``meter`` by an approved
    correction; returns an open session of the table."""
    from jackpots.services import jackpot_pool_create

    from ...jackpots.meters import meter_correct

    def make(game: str, code: str, meter: str | None = None) -> str:
        make_table(game, code, minimum="10")
        increment, paytable = GAME[game]
        jackpot_pool_create(casino=CASINO, pool_id=f"pool-{code}", name=f"Pool {code}",
                            game=game, tables=[code], bet=Decimal("1.00"), increment_percent=increment,
                            start=Decimal("10000.00"), paytable=paytable, approved_on="2024-03-01",
                            approval_reference="IGJ 123/2024", metadata=admin())
        if meter is not None:
            meter_correct(f"pool-{code}", direction="up",
                          amount=str(D(meter) - D("10000.00")))
        session: str = table_session_open(casino=CASINO, table=code,
                                          opening={"1000.00": 20, "100.00": 50, "25.00": 40},
                                          metadata=pit()).session_id
        return session

    return make


def refused(kind: type[DomainError], code: str, call: Callable[[], Any]) -> DomainError:
    before = events_count()
    with pytest.raises(kind) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    assert events_count() == before, "a refusal recorded something"
    return caught.value


def chip(seat: int, player: str | None = None, amount: str = "1.00") -> dict[str, Any]:
    return {"seat": seat, "amount": amount, **({"player": player} if player else {})}


def pool(code: str) -> JackpotPool:
    return JackpotPool.objects.get(pool_id=f"pool-{code}")


def ledger_balance(key: str, pool_id: str) -> D:
    """Credit less debit of the pool's ledger account ``key``."""
    from django.db.models import Sum

    from ledger.chart import account
    from ledger.models import JournalLine

    sums = JournalLine.objects.filter(casino_code=CASINO,
                                      account_code=account(key, pool_id).code).aggregate(
        debit=Sum("debit"), credit=Sum("credit"))
    return ((sums["credit"] or D(0)) - (sums["debit"] or D(0))).quantize(D("0.01"))


@pytest.fixture
def window(casino: str) -> str:
    """A cashier window open and stocked from the vault (the cage's own services)."""
    from cage import services as cage

    boss = person_metadata(username="carla", role=Role.CAGE_SUPERVISOR, casino=CASINO)
    cage.cage_configure(code="w1", name="Window 1", kind="window", minimum_cash=Decimal("0.00"),
                        metadata=boss)
    cage.cage_configure(code="vault", name="Vault", kind="vault", minimum_cash=Decimal("0.00"),
                        metadata=boss)
    vault = cage.shift_open(cage="vault", cash={"500.00": 40, "100.00": 300},
                            metadata=boss).shift_id
    cage.chips_put_into_service(shift_id=vault, chip_set="main",
                                chips={"100.00": 500, "25.00": 800, "1.00": 2000},
                                reference="delivery note 1", metadata=boss)
    shift = cage.shift_open(cage="w1", cash={}, metadata=cashier()).shift_id
    cage.transfer_send(shift_id=vault, to_cage="w1", cash={"500.00": 40, "100.00": 100},
                       chips={"main": {"100.00": 50, "25.00": 100, "1.00": 100}},
                       metadata=boss)
    return str(shift)


# --- worked example C, a live blackjack round -------------------------------------------------

C_SEATS = [1, 2, 3, 5, 6]


def play_example_c(session: str) -> str:
    """Example C at the table: seat 1 splits its aces and keeps the second (n.º 27: a resplit
    is optional), seat 5 splits suited aces and keeps both, seat 2 hits two aces, seat 6 has
    blackjack. The bank shows 9S and stands on 17."""
    rid: str = round_open(session_id=session, metadata=pit(), bets=[
        {"seat": s, "player": f"seat-{s}", "type": "main", "amount": "10"}
        for s in C_SEATS]).round_id
    placed = jackpot_bet_place(round_id=rid, bets=[chip(s) for s in C_SEATS], metadata=pit())
    assert placed.jackpot_bets == ["j1", "j2", "j3", "j4", "j5"]
    round_close_betting(round_id=rid, metadata=pit())
    deal_record(round_id=rid, upcard="9S", seats={"1": ["AS", "AS"], "2": ["AD", "AC"],
                                                  "3": ["AC", "AH"], "5": ["AH", "AH"],
                                                  "6": ["KD", "AD"]}, metadata=pit())
    decide = [(1, 1, "split", ["AH", "9D"]), (1, 1, "stand", []), (2, 1, "hit", ["7S"]),
              (2, 1, "stand", []), (3, 1, "stand", []), (5, 1, "split", ["AH", "AH"]),
              (5, 1, "stand", []), (5, 2, "stand", [])]
    for seat, hand, decision, cards in decide:
        decision_record(round_id=rid, seat=seat, hand=hand, decision=decision, cards=cards,
                        metadata=pit())
    outcome_record(round_id=rid, outcome={"dealer": {"cards": ["9S", "8C"]}}, metadata=pit())
    return rid


def test_example_c_played_at_the_pit_pays_the_jackpot_with_the_round(pool_table, window,
                                                                     identified_patron
                                                                     ) -> None:
    session = pool_table("blackjack", "bj1", meter="20000.00")
    rid = play_example_c(session)
    settled = round_settle(round_id=rid, metadata=pit())

    # The main game, by hand (bank 17): seat 1 A-A kept = 12 lost 10, split A-9 = 20 won 10;
    # seat 2 A-A-7 = 19 won 10; seat 3 A-A = 12 lost 10; seat 5 two hands A-A = 12 lost 20;
    # seat 6 blackjack won 15.00 (3:2). Handle: 5 mains + 2 splits = 70.00, the five jackpot
    # chips not in it. Result: lost 40.00 - prizes 35.00 = 5.00.
    assert (settled.handle, settled.result, settled.prizes) == ("70.00", "5.00",
                                                                         "35.00")
    # The jackpot, by hand: 20,000.00 + 5 x 1.00 x 80% = 20,004.00; two aces 25 x 1.00 to seat 2
    # and to seat 3 (JP-5) -> 19,954.00; three aces 250.00 to seat 1 -> 19,704.00; four suited
    # aces take the rest, 19,704.00, to seat 5; the pool restarts at 10,000.00.
    jackpot = settled.jackpot
    assert (jackpot.contributions, jackpot.paid, jackpot.pool_after) == (
        "4.00", "20004.00", "10000.00")
    assert [(p.seat, p.combination, p.amount) for p in jackpot.prizes] == [
        (2, "two_aces", "25.00"), (3, "two_aces", "25.00"), (1, "three_aces", "250.00"),
        (5, "four_aces_suited", "19704.00")]

    the_round = Round.objects.get(round_id=rid)
    assert (the_round.handle, the_round.jackpot_amount, the_round.jackpot_prizes) == (
        D("70.00"), D("5.00"), D("20004.00"))
    assert TableSession.objects.get(session_id=session).handle == D("70.00")
    assert [(b.seat, b.status, b.combination, b.prize)
            for b in JackpotBet.objects.filter(round_id=rid).order_by("seat")] == [
        (1, "won", "three_aces", D("250.00")), (2, "won", "two_aces", D("25.00")),
        (3, "won", "two_aces", D("25.00")), (5, "won", "four_aces_suited", D("19704.00")),
        (6, "lost", "", D("0.00"))]

    meters = pool("bj1")
    assert (meters.amount, meters.bets_amount, meters.contributions, meters.retained,
            meters.wins, meters.prizes_unpaid) == (D("10000.00"), D("5.00"), D("4.00"),
                                                   D("1.00"), D("20004.00"), D("20004.00"))
    coup = JackpotCoup.objects.get(round_id=rid)
    assert [b["cards"] for b in coup.request["bets"]] == [
        ["AS", "AS", "AH", "9D"], ["AD", "AC", "7S"], ["AC", "AH"], ["AH", "AH", "AH", "AH"],
        ["KD", "AD"]]
    # Recorded in the round's own transaction, right after its settlement.
    events = list(StoredEvent.objects.order_by("-position")[:9])[::-1]
    assert [e.event_type for e in events[-8:]] == [
        "RoundSettled", "JackpotContributed", "JackpotHit", "JackpotHit", "JackpotHit",
        "JackpotHit", "JackpotReset", "JackpotCoupSettled"]

    # The cage pays the top prize: 39 x 500 + 2 x 100 in cash and 4 chips of 1.00.
    from jackpots.services import jackpot_prize_pay

    top = JackpotPrize.objects.get(round_id=rid, seat=5)
    paid = jackpot_prize_pay(prize_id=top.prize_id, shift_id=window,
                             cash={"500.00": 39, "100.00": 2}, chips={"1.00": 4},
                             chip_set="main", patron=identified_patron("lisboa"),
                             metadata=cashier(key="pay-bj1-top"))
    assert paid.amount == "19704.00"
    payouts = [r for r in read_stream(f"shift/{window}") if r.event_type == "JackpotPaid"]
    assert [(r.data["amount"], r.data["round_id"]) for r in payouts] == [("19704.00", rid)]
    assert pool("bj1").prizes_unpaid == D("300.00")  # 250 + 25 + 25 still owed
    assert ledger_balance("jackpot_liability", "pool-bj1") == D("10000.00")
    assert ledger_balance("jackpot_payable", "pool-bj1") == D("300.00")
    assert rebuild_differences() == []


def test_a_split_ace_dealt_an_ace_may_stand_or_split_again_never_hit(pool_table) -> None:
    from games.services import round_open as open_

    session = pool_table("blackjack", "bj1")
    rid = open_(session_id=session, bets=[{"seat": 1, "type": "main", "amount": "10"}],
                metadata=pit()).round_id
    round_close_betting(round_id=rid, metadata=pit())
    deal_record(round_id=rid, upcard="9S", seats={"1": ["AS", "AD"]}, metadata=pit())
    decision_record(round_id=rid, seat=1, decision="split", cards=["AH", "AC"], metadata=pit())
    error = refused(Conflict, "decision_not_allowed", lambda: decision_record(
        round_id=rid, seat=1, hand=1, decision="hit", cards=["5C"], metadata=pit()))
    assert error.extra["allowed"] == ["split", "stand"]  # n.º 26: one card; n.º 27: may resplit
    decision_record(round_id=rid, seat=1, hand=1, decision="stand", metadata=pit())
    decision_record(round_id=rid, seat=1, hand=2, decision="split", cards=["5D", "9C"],
                    metadata=pit())
    play = Round.objects.get(round_id=rid).play["seats"]["1"]
    assert [(h["cards"], h["done"]) for h in play] == [
        (["AS", "AH"], True), (["AD", "5D"], True), (["AC", "9C"], True)]


# --- worked example A, a live stud poker round ------------------------------------------------

A_CARDS = {1: ["AS", "KS", "QS", "JS", "TS"],  # royal flush
           2: ["2H", "5H", "9H", "JH", "KH"],  # flush
           3: ["2D", "5D", "9D", "JD", "KD"],  # flush
           4: ["7C", "7D", "7H", "7S", "3C"],  # four of a kind
           5: ["8C", "9C", "TC", "JC", "QC"]}  # straight flush, folded


def play_example_a(session: str) -> str:
    rid: str = round_open(session_id=session, metadata=pit(), bets=[
        {"seat": s, "player": f"seat-{s}", "type": "ante", "amount": "10"}
        for s in A_CARDS]).round_id
    jackpot_bet_place(round_id=rid, bets=[chip(s, f"seat-{s}") for s in A_CARDS],
                      metadata=pit())
    round_close_betting(round_id=rid, metadata=pit())
    for seat in A_CARDS:
        decision_record(round_id=rid, seat=seat, decision="fold" if seat == 5 else "call",
                        metadata=pit())
    outcome_record(round_id=rid, outcome={
        "dealer": {"cards": ["2S", "4D", "6S", "8S", "3D"]},  # no ace and king: not qualified
        "seats": [{"seat": s, "cards": cards} for s, cards in A_CARDS.items()]},
        metadata=pit())
    return rid


def test_example_a_played_at_a_stud_poker_table(pool_table) -> None:
    session = pool_table("stud_poker", "sp1", meter="52345.67")
    rid = play_example_a(session)
    settled = round_settle(round_id=rid, metadata=pit())
    # Main game: the bank does not qualify, so each caller's ante wins 1:1 (4 x 10.00) and the
    # calls (4 x 20.00) push; the fold loses its 10.00 ante. Handle 50 + 80 = 130.00, result
    # 10.00 - 40.00 = -30.00.
    assert (settled.handle, settled.result, settled.prizes) == ("130.00", "-30.00",
                                                                         "40.00")
    # Jackpot: 52,345.67 + 5 x 0.70 = 52,349.17; flush 50.00 divided by seats 2 and 3 (n.º 12 c)
    # 25.00 each -> 52,299.17; four of a kind 500.00 -> 51,799.17; the royal flush takes
    # 51,799.17; the folded straight flush wins nothing (JP-1); the pool restarts at 10,000.00.
    jackpot = settled.jackpot
    assert (jackpot.contributions, jackpot.paid, jackpot.pool_after) == (
        "3.50", "52349.17", "10000.00")
    assert [(p.seat, p.combination, p.amount) for p in jackpot.prizes] == [
        (2, "flush", "25.00"), (3, "flush", "25.00"), (4, "four_of_a_kind", "500.00"),
        (1, "royal_flush", "51799.17")]
    assert JackpotBet.objects.get(round_id=rid, seat=5).status == "lost"
    assert Round.objects.get(round_id=rid).jackpot_amount == D("5.00")
    assert pool("sp1").amount == D("10000.00")
    assert ledger_balance("jackpot_liability", "pool-sp1") == D("10000.00")
    assert rebuild_differences() == []


def test_a_correction_may_not_change_the_cards_a_jackpot_was_paid_on(pool_table) -> None:
    session = pool_table("stud_poker", "sp1", meter="52345.67")
    rid = play_example_a(session)
    round_settle(round_id=rid, metadata=pit())
    outcome = Round.objects.get(round_id=rid).outcome
    swapped = {**outcome, "seats": [dict(s) for s in outcome["seats"]]}
    swapped["seats"][3]["cards"] = ["7C", "7D", "7H", "3S", "3C"]  # seat 4's four of a kind
    refused(Conflict, "jackpot_decided", lambda: round_correct(
        round_id=rid, outcome=swapped, reason="seat 4 misread", metadata=pit("chefe")))
    bank = {**outcome, "dealer": {"cards": ["AC", "KC", "6S", "8S", "3D"]}}  # now qualifies
    corrected = round_correct(round_id=rid, outcome=bank, reason="bank misread",
                              metadata=pit("chefe"))
    assert corrected.result != "-30.00"
    assert pool("sp1").amount == D("10000.00")  # the coup stands


# --- worked example D, a whole round (an electronic table) ------------------------------------


def test_example_d_recorded_as_a_whole_round(pool_table) -> None:
    session = pool_table("blackjack", "bj1", meter="20000.01")
    seats = {1: [["AS", "AS"], ["AS", "AS"]], 4: [["AH", "AH"], ["AH", "AH"]],
             5: [["AD", "AD"], ["AC", "AC"]]}
    bets: list[dict[str, Any]] = []
    for seat in seats:
        bets += [{"id": f"m{seat}", "seat": seat, "type": "main", "amount": "10"},
                 {"id": f"s{seat}", "seat": seat, "type": "split", "bet": f"m{seat}",
                  "hand": 2, "amount": "10"}]
    recorded = round_record(
        session_id=session, bets=bets, metadata=pit(),
        outcome={"dealer": {"cards": ["TC", "7D"]},
                 "seats": [{"seat": s, "hands": [{"cards": h} for h in hands]}
                           for s, hands in seats.items()]},
        jackpot_bets=[chip(1), chip(4), chip(5)])
    # Main game: six hands of A-A (12) against 17, all lost: handle 60.00, result 60.00.
    assert (recorded.handle, recorded.result) == ("60.00", "60.00")
    # Jackpot: 20,000.01 + 3 x 0.80 = 20,002.41; four aces (seat 5: AD AC AD AC) 10% =
    # 2,000.241 -> 2,000.24 -> 18,002.17; two top winners share it: 9,001.085 -> 9,001.08 each,
    # 0.01 left -> the pool restarts at 10,000.01.
    jackpot = recorded.jackpot
    assert [(p.seat, p.combination, p.amount) for p in jackpot.prizes] == [
        (5, "four_aces", "2000.24"), (1, "four_aces_suited", "9001.08"),
        (4, "four_aces_suited", "9001.08")]
    assert (jackpot.paid, jackpot.pool_after) == ("20002.40", "10000.01")
    stream = [r.event_type for r in read_stream(f"round/{recorded.round_id}")]
    assert stream.index("JackpotBetPlaced") < stream.index("BettingClosed")
    assert rebuild_differences() == []


def test_a_whole_round_with_a_resplit_seat_needs_its_dealing_order(pool_table) -> None:
    session = pool_table("blackjack", "bj1")
    hands = [["AS", "5D"], ["AD", "9S"], ["AH", "KC"]]  # aces split, then split again
    bets = [{"id": "m", "seat": 2, "type": "main", "amount": "10"},
            {"id": "s2", "seat": 2, "type": "split", "bet": "m", "hand": 2, "amount": "10"},
            {"id": "s3", "seat": 2, "type": "split", "bet": "m", "hand": 3, "amount": "10"}]
    outcome = {"dealer": {"cards": ["TC", "7S"]},
               "seats": [{"seat": 2, "hands": [{"cards": h} for h in hands]}]}

    def record(**chip_extra: Any) -> Any:
        return round_record(session_id=session, bets=bets, outcome=outcome, metadata=pit(),
                            jackpot_bets=[{**chip(2), **chip_extra}])

    refused(InvalidCommand, "dealing_order_needed", record)
    refused(InvalidCommand, "invalid_outcome", lambda: record(cards=["AS", "AH", "AD", "QC"]))
    # Dealt AS AH, split: AD and KC; the first hand split again: 5D and 9S.
    # 10,000.00 + 0.80; three aces 250 x 1.00 -> 9,750.80.
    answer = record(cards=["AS", "AH", "AD", "KC"])
    assert [(p.combination, p.amount) for p in answer.jackpot.prizes] == [
        ("three_aces", "250.00")]
    assert answer.jackpot.pool_after == "9750.80"


# --- void rounds ----------------------------------------------------------------------------


def test_a_round_void_before_no_more_bets_returns_the_jackpot_chips(pool_table) -> None:
    session = pool_table("blackjack", "bj1")
    rid = round_open(session_id=session, bets=[{"seat": 1, "type": "main", "amount": "10"}],
                     metadata=pit()).round_id
    jackpot_bet_place(round_id=rid, bets=[chip(1)], metadata=pit())
    answer = round_void(round_id=rid, reason="shoe dropped", metadata=pit())
    assert "jackpot" not in as_data(answer)
    assert JackpotBet.objects.get(round_id=rid).status == "returned"
    assert Round.objects.get(round_id=rid).jackpot_amount == D("0.00")
    assert pool("bj1").amount == D("10000.00")
    assert not JackpotCoup.objects.filter(round_id=rid).exists()
    assert rebuild_differences() == []


def test_a_round_void_after_the_chips_were_collected_keeps_them_in_the_pool(pool_table
                                                                              ) -> None:
    session = pool_table("stud_poker", "sp1")
    rid = round_open(session_id=session, metadata=pit(), bets=[
        {"seat": s, "type": "ante", "amount": "10"} for s in (1, 2)]).round_id
    jackpot_bet_place(round_id=rid, bets=[chip(1), chip(2)], metadata=pit())
    round_close_betting(round_id=rid, metadata=pit())  # chips collected, display incremented
    answer = round_void(round_id=rid, reason="a card dealt face up (n.º 19)", metadata=pit())
    # 2 x 1.00 x 70% = 1.40 in the pool; nothing won; the casino keeps 0.60.
    assert as_data(answer.jackpot) == {"pool_id": "pool-sp1", "contributions": "1.40",
                                 "paid": "0.00", "pool_after": "10001.40", "void": True,
                                 "prizes": []}
    assert [b.status for b in JackpotBet.objects.filter(round_id=rid)] == ["void", "void"]
    meters = pool("sp1")
    assert (meters.amount, meters.retained, meters.hits) == (D("10001.40"), D("0.60"), 0)
    assert JackpotCoup.objects.get(round_id=rid).request["void"] is True
    assert TableSession.objects.get(session_id=session).handle == D("0.00")
    assert ledger_balance("jackpot_liability", "pool-sp1") == D("10001.40")
    assert rebuild_differences() == []


def test_an_approved_void_after_the_outcome_keeps_the_chips_in_the_pool(pool_table) -> None:
    """After the outcome the void is asked for and approved by another pit boss
    (docs/approvals.md, round_void); the chips are then handled as any void after «nada
    mais»: in the pool, a void coup, no prize, although the recorded hands held jackpot
    combinations."""
    from casino.services.approvals import approval_grant, approval_request

    session = pool_table("blackjack", "bj1", meter="20000.00")
    rid = play_example_c(session)
    asked = approval_request(kind="round_void", subject=rid, reason="dealing_error",
                             explanation="cards dealt from a shoe not shuffled", metadata=pit())
    granted = approval_grant(approval_id=asked.approval_id, metadata=pit("rui"))
    coup = granted.applied["jackpot"]
    assert (coup["void"], coup["paid"], coup["prizes"]) == (True, "0.00", [])
    assert {b.status for b in JackpotBet.objects.filter(round_id=rid)} == {"void"}
    assert pool("bj1").hits == 0
    assert Round.objects.get(round_id=rid).status == "voided"
    assert rebuild_differences() == []


# --- the pool is the source of truth ---------------------------------------------------------


def test_a_round_opens_with_the_jackpot_in_force_in_the_pool(pool_table, make_table) -> None:
    from jackpots.services import jackpot_pool_change

    session = pool_table("stud_poker", "sp1")
    first = round_open(session_id=session, bets=[{"seat": 1, "type": "ante", "amount": "10"}],
                       metadata=pit()).round_id
    jackpot_pool_change(casino=CASINO, pool_id="pool-sp1", bet=Decimal("2.00"), start=Decimal("20000.00"),
                        approved_on="2024-06-01", approval_reference="IGJ 10/2024",
                        metadata=admin())
    options = Round.objects.get(round_id=first).options
    assert options["jackpot"]["bet"] == "1.00"  # a change never applies to a round already open
    refused(InvalidCommand, "wrong_amount", lambda: jackpot_bet_place(
        round_id=first, bets=[chip(1, amount="2.00")], metadata=pit()))
    jackpot_bet_place(round_id=first, bets=[chip(1)], metadata=pit())
    round_void(round_id=first, reason="test", metadata=pit())
    second = round_open(session_id=session, bets=[{"seat": 1, "type": "ante", "amount": "10"}],
                        metadata=pit()).round_id
    assert Round.objects.get(round_id=second).options["jackpot"] == {
        "bet": "2.00", "increment_percent": "70", "start": "20000.00",
        "paytable": STUD_PAYTABLE}
    make_table("stud_poker", "sp2", minimum="10")
    other = table_session_open(casino=CASINO, table="sp2", opening={"100.00": 10},
                               metadata=pit()).session_id
    alone = round_open(session_id=other, bets=[{"seat": 1, "type": "ante", "amount": "10"}],
                       metadata=pit()).round_id
    assert "jackpot" not in Round.objects.get(round_id=alone).options


def test_a_table_jackpot_is_never_typed_by_hand(make_table) -> None:
    config = {"bet": "1.00", "increment_percent": "70", "start": "10000.00",
              "paytable": STUD_PAYTABLE}
    refused(InvalidCommand, "jackpot_from_pool", lambda: table_configure(
        casino=CASINO, code="sp9", name="SP9", game="stud_poker", options={"jackpot": config},
        seats=7, chip_set="main", limits={"ante": {"min": "10", "max": "250"}},
        metadata=admin()))
    make_table("stud_poker", "sp9", minimum="10")
    refused(InvalidCommand, "jackpot_from_pool", lambda: table_change_options(
        casino=CASINO, code="sp9", options={"jackpot": config}, seats=7, metadata=admin()))


# --- refusals -------------------------------------------------------------------------------


@pytest.fixture
def bj_round(pool_table) -> str:
    session = pool_table("blackjack", "bj1")
    rid: str = round_open(session_id=session, metadata=pit(), bets=[
        {"seat": 1, "player": "P-a001", "type": "main", "amount": "10"},
        {"seat": 1, "player": "P-a004", "type": "back", "amount": "10"},
        {"seat": 2, "player": "P-a006", "type": "main", "amount": "20"}]).round_id
    return rid


def test_a_back_bettor_may_bet_the_jackpot_once_on_the_seat_he_backs(bj_round: str) -> None:
    placed = jackpot_bet_place(round_id=bj_round, bets=[chip(1), chip(1, "P-a004")],
                               metadata=pit())
    assert placed.jackpot_bets == ["j1", "j2"]
    assert [(b.seat, b.player) for b in JackpotBet.objects.filter(round_id=bj_round)] == [
        (1, "P-a001"), (1, "P-a004")]  # the holder when no player is named


def test_jackpot_refusals_leave_the_store_unchanged(bj_round: str) -> None:
    def place(*chips: dict[str, Any]) -> Any:
        return lambda: jackpot_bet_place(round_id=bj_round, bets=list(chips), metadata=pit())

    error = refused(InvalidCommand, "wrong_amount", place(chip(1, amount="5.00")))
    assert "n.os 40 and 47" in error.extra["article"]
    error = refused(InvalidCommand, "no_main_bet", place(chip(3)))  # nobody bet on seat 3
    assert "n.º 45" in error.extra["article"]
    refused(InvalidCommand, "no_main_bet", place(chip(2, "P-a004")))  # P-a004 backs seat 1 only
    error = refused(InvalidCommand, "one_chip_per_player", place(chip(2), chip(2)))
    assert "n.º 47" in error.extra["article"]
    jackpot_bet_place(round_id=bj_round, bets=[chip(2)], metadata=pit())
    refused(InvalidCommand, "one_chip_per_player", place(chip(2, "P-a006")))  # twice for P-a006
    refused(InvalidCommand, "no_such_seat", place(chip(8)))
    refused(InvalidCommand, "invalid", place({**chip(1), "cards": ["AS", "AH"]}))
    round_close_betting(round_id=bj_round, metadata=pit())
    error = refused(Conflict, "betting_closed", place(chip(1)))  # after «nada mais»
    assert "n.º 48" in error.extra["article"]
    deal_record(round_id=bj_round, upcard="9S", seats={"1": ["TS", "7D"], "2": ["8C", "9H"]},
                metadata=pit())
    refused(Conflict, "betting_closed", place(chip(1)))  # after the deal


def test_no_jackpot_bet_at_a_table_without_a_pool(make_table) -> None:
    make_table("blackjack", "bj9", minimum="10")
    session = table_session_open(casino=CASINO, table="bj9", opening={"100.00": 10},
                                 metadata=pit()).session_id
    rid = round_open(session_id=session, bets=[{"seat": 1, "type": "main", "amount": "10"}],
                     metadata=pit()).round_id
    refused(Conflict, "no_jackpot", lambda: jackpot_bet_place(
        round_id=rid, bets=[chip(1)], metadata=pit()))
    round_void(round_id=rid, reason="test", metadata=pit())
    refused(Conflict, "no_jackpot", lambda: round_record(
        session_id=session, bets=[{"seat": 1, "type": "main", "amount": "10"}],
        outcome={"dealer": {"cards": ["TS", "7D"]},
                 "seats": [{"seat": 1, "hands": [{"cards": ["TC", "8D"]}]}]},
        jackpot_bets=[chip(1)], metadata=pit()))


def test_one_chip_per_box_at_stud_poker(pool_table) -> None:
    session = pool_table("stud_poker", "sp1")
    rid = round_open(session_id=session, bets=[{"seat": 1, "player": "P-a001", "type": "ante",
                                                "amount": "10"}], metadata=pit()).round_id
    jackpot_bet_place(round_id=rid, bets=[chip(1)], metadata=pit())
    error = refused(InvalidCommand, "one_chip_per_player", lambda: jackpot_bet_place(
        round_id=rid, bets=[chip(1, "P-a001")], metadata=pit()))
    assert "n.os 5 and 16" in error.extra["article"]
    refused(InvalidCommand, "no_main_bet", lambda: jackpot_bet_place(
        round_id=rid, bets=[chip(1, "P-a004")], metadata=pit()))


def test_a_retried_jackpot_bet_records_nothing_twice(bj_round: str) -> None:
    first = jackpot_bet_place(round_id=bj_round, bets=[chip(1)],
                              metadata=pit(key="jp-chip-1"))
    before = events_count()
    assert jackpot_bet_place(round_id=bj_round, bets=[chip(1)],
                             metadata=pit(key="jp-chip-1")) == first
    assert events_count() == before


def test_a_retried_settlement_answers_the_same_coup_typed_as_the_first_time(pool_table
                                                                            ) -> None:
    """The round's answer and its pool's coup come back from the idempotency record as they
    were first answered: the same types, nested prizes included, and nothing recorded again."""
    session = pool_table("blackjack", "bj1", meter="20000.00")
    rid = play_example_c(session)
    first = round_settle(round_id=rid, metadata=pit(key="settle-c"))
    count = events_count()
    again = round_settle(round_id=rid, metadata=pit(key="settle-c"))
    assert events_count() == count
    assert type(again) is RoundSettleAnswer
    assert again == first
    assert type(again.jackpot) is RoundJackpot
    assert [type(p) for p in again.jackpot.prizes] == [RoundJackpotPrize] * 4


def test_a_round_without_jackpot_chips_keeps_no_jackpot_in_its_answer(pool_table) -> None:
    """The optional coup is left out of the recorded answer (its JSON as before answers were
    types), and a retry rebuilds it as absent."""
    session = pool_table("blackjack", "bj1")
    rid = round_open(session_id=session, bets=[{"seat": 1, "type": "main", "amount": "10"}],
                     metadata=pit()).round_id
    round_close_betting(round_id=rid, metadata=pit())
    deal_record(round_id=rid, upcard="9D", seats={"1": ["KS", "8H"]}, metadata=pit())
    decision_record(round_id=rid, seat=1, decision="stand", metadata=pit())
    outcome_record(round_id=rid, outcome={"dealer": {"cards": ["9D", "8C"]}}, metadata=pit())
    first = round_settle(round_id=rid, metadata=pit(key="settle-plain"))
    kept = CommandRecord.objects.get(idempotency_key="settle-plain").result
    assert "jackpot" not in kept
    assert kept == as_data(first)
    assert round_settle(round_id=rid, metadata=pit(key="settle-plain")) == first
