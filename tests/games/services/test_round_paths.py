"""Paths beside the scripted sessions: a void with bets carried into it, taking a carried bet
down, a whole blackjack round with its later stakes, the trays the cage counts."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.errors import Conflict
from games import selectors
from games.models import Bet, TableSession
from games.services import (
    bet_withdraw,
    outcome_record,
    round_close_betting,
    round_open,
    round_record,
    round_settle,
    round_void,
    table_session_open,
)

from ..conftest import CASINO, count_box, events_count, pit, rebuild_differences

pytestmark = pytest.mark.django_db


def _roll(sid: str, bets: list[dict], dice: list[int]) -> str:
    rid = round_open(session_id=sid, bets=bets, metadata=pit()).round_id
    round_close_betting(round_id=rid, metadata=pit())
    outcome_record(round_id=rid, outcome={"dice": dice}, metadata=pit())
    round_settle(round_id=rid, metadata=pit())
    return rid


def test_a_void_roll_leaves_the_working_bets_as_they_were(make_table) -> None:
    table = make_table("craps", minimum="5", seats=12)
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    _roll(sid, [{"id": "p", "seat": 1, "type": "pass", "amount": "10"}], [5, 5])  # point 10
    rid = round_open(session_id=sid, bets=[{"seat": 2, "type": "field", "amount": "5"}],
                     metadata=pit()).round_id
    assert TableSession.objects.get(session_id=sid).pending_bets == []  # carried into the roll
    round_void(round_id=rid, reason="a die left the table", metadata=pit())
    s = TableSession.objects.get(session_id=sid)
    assert [p["bet_id"] for p in s.pending_bets] == ["p"]
    assert s.handle == D("10.00")  # the void roll's field bet staked nothing
    assert rebuild_differences() == []


def test_a_carried_place_bet_may_be_taken_down_a_pass_bet_may_not(make_table) -> None:
    table = make_table("craps", minimum="5", seats=12)
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    _roll(sid, [{"id": "p", "seat": 1, "type": "pass", "amount": "10"},
                {"id": "pl", "seat": 2, "type": "place", "number": 8, "amount": "12"}], [2, 2])
    rid = round_open(session_id=sid, metadata=pit()).round_id
    before = events_count()
    with pytest.raises(Conflict, match=r"n\.º 10\.9"):
        bet_withdraw(round_id=rid, bet_id="p", metadata=pit())
    assert events_count() == before
    bet_withdraw(round_id=rid, bet_id="pl", reason="player leaves", metadata=pit())
    round_close_betting(round_id=rid, metadata=pit())
    outcome_record(round_id=rid, outcome={"dice": [4, 4]}, metadata=pit())  # an 8
    round_settle(round_id=rid, metadata=pit())
    assert Bet.objects.get(round_id=rid, bet_id="pl").status == ""  # taken down: not settled
    assert [p["bet_id"] for p in TableSession.objects.get(session_id=sid).pending_bets] == ["p"]
    assert rebuild_differences() == []


def test_a_whole_blackjack_round_with_its_later_stakes(make_table) -> None:
    table = make_table("blackjack", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    done = round_record(session_id=sid, bets=[
        {"id": "m1", "seat": 1, "type": "main", "amount": "20"},
        {"id": "d1", "seat": 1, "type": "double", "bet": "m1", "amount": "20"},
        {"id": "m2", "seat": 2, "type": "main", "amount": "10"}],
        outcome={"dealer": {"cards": ["TS", "7H"]},
                 "seats": [{"seat": 1, "hands": [{"cards": ["6S", "5D", "KH"], "double": True}]},
                           {"seat": 2, "hands": [{"cards": ["TC", "6D", "5C"]}]}]},
        metadata=pit())
    # seat 1: 21 doubled beats 17: 20 + 20 paid; seat 2: 21 beats 17: 10 paid.
    assert done.result == "-50.00"
    assert {b.bet_id: b.stage for b in Bet.objects.filter(session_id=sid)} == {
        "m1": "initial", "d1": "decision", "m2": "initial"}


def test_the_trays_the_cage_counts(make_table) -> None:
    first = make_table("french_roulette", "t1")
    second = make_table("punto_banco", "t2")
    table_session_open(casino=CASINO, table=first, opening={"100.00": 10, "5.00": 20},
                       metadata=pit())
    table_session_open(casino=CASINO, table=second, opening={"100.00": 5, "25.00": 4},
                       metadata=pit())
    assert selectors.table_tray_totals(casino=CASINO) == {
        D("100.00"): 15, D("25.00"): 4, D("5.00"): 20}


def test_a_credit_voided_after_the_close_comes_back_into_the_win_and_the_day(make_table
                                                                            ) -> None:
    from games.models import GamingDayResult
    from games.services import credit_request, table_session_close

    table = make_table("french_roulette", "t3")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    credit_request(session_id=sid, slip="C9", chips={"100.00": 2}, metadata=pit())
    table_session_close(session_id=sid, closing={"100.00": 8}, metadata=pit())
    count_box(sid, {})
    assert GamingDayResult.objects.get(table=table).table_win == D("0.00")  # 800 - 1000 + 200
    # The session is closed: the void is asked for and approved by the cage (docs/approvals.md)
    from casino.context import person_metadata
    from casino.models import Role
    from casino.services.approvals import approval_grant, approval_request

    asked = approval_request(kind="slip_void", subject="credit/C9", reason="never_left",
                             explanation="never left the table", metadata=pit())
    approval_grant(approval_id=asked.approval_id, metadata=person_metadata(
        username="rita", role=Role.CAGE_SUPERVISOR, casino=CASINO))
    assert TableSession.objects.get(session_id=sid).table_win == D("-200.00")
    assert GamingDayResult.objects.get(table=table).table_win == D("-200.00")
    assert rebuild_differences() == []
