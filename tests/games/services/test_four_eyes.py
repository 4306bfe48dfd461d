"""Four eyes at the pit (issue 13, findings 4 and 9; docs/approvals.md): a round voided after
its outcome, a slip voided or a fill issued after its session closed, a table variance of any
size. Each is asked for by the person logged in with a reason from the kind's list and words,
and recorded only when another person, in an approving role, approves it; a late slip moves the
pit's and the ledger's figures for its session alike.

Expected figures are worked out by hand in each test.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from typing import Any

import pytest

from cage.services import cage_configure, fill_issue, shift_open
from cage.services.slips import FILL_AFTER_CLOSE
from casino.context import person_metadata, system_metadata
from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Approval, Role
from casino.services.approvals import approval_grant, approval_refuse, approval_request
from eventstore.records import Metadata
from games import selectors
from games.models import GamingDayResult, Round, RoundStatus, Slip, TableSession
from games.services import (
    credit_request,
    fill_request,
    outcome_record,
    round_close_betting,
    round_open,
    round_settle,
    round_void,
    slip_void,
    table_session_open,
)
from games.services.rounds import VOID_NEEDS_APPROVAL
from ledger.models import JournalEntry
from ledger.reports import table_results
from ledger.services import period_close

from ..conftest import CASINO, close_and_count, events_count, pit, rebuild_differences

pytestmark = pytest.mark.django_db

ANA, RUI = "ana", "rui"  # two pit bosses


def person(name: str, role: str) -> Metadata:
    return person_metadata(username=name, role=role, casino=CASINO)


def cashier() -> Metadata:
    return person("caixa", Role.CASHIER)


def cage_supervisor() -> Metadata:
    return person("rita", Role.CAGE_SUPERVISOR)


def _round(sid: str, bets: list[dict[str, Any]], number: int) -> str:
    """A roulette round up to its recorded outcome (not settled)."""
    rid = round_open(session_id=sid, bets=bets, metadata=pit(ANA)).round_id
    round_close_betting(round_id=rid, metadata=pit(ANA))
    outcome_record(round_id=rid, outcome={"number": number}, metadata=pit(ANA))
    return rid


def _ledger_win(table: str, day: dt.date) -> D:
    """The ledger's table win (revenue + variance, accounts 7211 and 7212) of ``table`` on
    ``day``."""
    rows = [r for r in table_results(casino=CASINO, day_from=day, day_to=day) if r.table == table]
    return sum((r.win for r in rows), D("0.00"))


def _open(table: str, opening: dict[str, int]) -> str:
    return table_session_open(casino=CASINO, table=table, opening=opening,
                              metadata=pit(ANA)).session_id


def _open_shift() -> str:
    cage_configure(code="main", name="Main cage", kind="main",
                   metadata=person("gestor", Role.ADMINISTRATOR))
    return shift_open(cage="main", metadata=cashier(), cash={"500.00": 100},
                      chips={"main": {"100.00": 500, "25.00": 500, "5.00": 1000}}).shift_id


# --- finding 4: a round voided after its outcome ------------------------------------------------


def test_a_void_after_a_recorded_straight_up_win_is_only_a_request(make_table) -> None:
    table = make_table("french_roulette", "r1")
    sid = _open(table, {"100.00": 50})
    # 100.00 straight up on 17, and 17 came: the outcome pays 35 x 100.00 = 3,500.00.
    rid = _round(sid, [{"seat": 1, "type": "straight", "numbers": [17], "amount": "100"}], 17)
    before = events_count()

    with pytest.raises(Conflict) as alone:
        round_void(round_id=rid, reason="x", metadata=pit(ANA))
    assert (alone.value.code, alone.value.message) == ("approval_required", VOID_NEEDS_APPROVAL)
    with pytest.raises(InvalidCommand) as free_text:  # "x" is not a reason on the list
        approval_request(kind="round_void", subject=rid, reason="x", explanation="x",
                         metadata=pit(ANA))
    assert free_text.value.extra["field"] == "reason"
    assert events_count() == before
    assert Round.objects.get(round_id=rid).status == RoundStatus.OUTCOME

    asked = approval_request(kind="round_void", subject=rid, reason="foreign_object",
                             explanation="a chip fell on the wheel before the ball stopped",
                             metadata=pit(ANA))
    approval = Approval.objects.get(id=asked.approval_id)
    assert approval.amount == D("3500.00")
    assert "pays 3500.00 in prizes" in approval.summary
    assert Round.objects.get(round_id=rid).status == RoundStatus.OUTCOME  # nothing moved yet

    with pytest.raises(NotAllowed) as own:
        approval_grant(approval_id=asked.approval_id, metadata=pit(ANA))
    assert own.value.code == "four_eyes"
    with pytest.raises(NotAllowed, match="Pit boss"):
        approval_grant(approval_id=asked.approval_id, metadata=cashier())
    assert Round.objects.get(round_id=rid).status == RoundStatus.OUTCOME

    approval_grant(approval_id=asked.approval_id, note="seen on camera", metadata=pit(RUI))
    the_round = Round.objects.get(round_id=rid)
    assert (the_round.status, the_round.void_reason_code, the_round.void_reason,
            the_round.void_requested_by, the_round.voided_by) == (
        RoundStatus.VOIDED, "foreign_object", "a chip fell on the wheel before the ball stopped",
        ANA, RUI)
    assert str(the_round.void_approval_id) == asked.approval_id
    session = TableSession.objects.get(session_id=sid)
    assert (session.round_result, session.handle, session.rounds_voided) == (
        D("0.00"), D("0.00"), 1)
    assert rebuild_differences() == []


def test_before_the_outcome_a_pit_boss_voids_alone(make_table) -> None:
    table = make_table("french_roulette", "r2")
    sid = _open(table, {"100.00": 10})
    rid = round_open(session_id=sid, bets=[{"seat": 1, "type": "red", "amount": "10"}],
                     metadata=pit(ANA)).round_id
    with pytest.raises(Conflict) as needless:
        approval_request(kind="round_void", subject=rid, reason="foreign_object",
                         explanation="a chip fell", metadata=pit(ANA))
    assert needless.value.code == "approval_not_needed"
    round_void(round_id=rid, reason="a chip fell on the wheel", metadata=pit(ANA))
    assert Round.objects.get(round_id=rid).void_approval_id is None


def test_a_void_asked_for_holds_the_settlement_and_a_settled_round_is_not_voided(make_table
                                                                                ) -> None:
    table = make_table("french_roulette", "r3")
    sid = _open(table, {"100.00": 10})
    rid = _round(sid, [{"seat": 1, "type": "red", "amount": "10"}], 1)
    asked = approval_request(kind="round_void", subject=rid, reason="procedure",
                             explanation="bet placed after nada mais", metadata=pit(ANA))
    before = events_count()
    with pytest.raises(Conflict) as waiting:  # the void's decision comes first
        round_settle(round_id=rid, metadata=pit(RUI))
    assert waiting.value.code == "void_requested"
    assert "ana asked for this round to be void" in waiting.value.message
    assert events_count() == before
    approval_refuse(approval_id=asked.approval_id, note="the bet was placed in time",
                    metadata=pit(RUI))
    round_settle(round_id=rid, metadata=pit(RUI))
    with pytest.raises(Conflict) as settled:
        approval_request(kind="round_void", subject=rid, reason="procedure",
                         explanation="again", metadata=pit(ANA))
    assert settled.value.code == "already_settled"
    with pytest.raises(Conflict) as alone:
        round_void(round_id=rid, reason="again", metadata=pit(ANA))
    assert alone.value.code == "already_settled"


# --- finding 4: a credit slip voided after its session closed -----------------------------------


def test_a_credit_voided_after_the_close_moves_the_pit_and_the_ledger_alike(make_table
                                                                           ) -> None:
    table = make_table("french_roulette", "c1")
    sid = _open(table, {"100.00": 20})  # 2,000.00
    credit_request(session_id=sid, slip="C1", chips={"100.00": 10}, metadata=pit(ANA))
    rid = _round(sid, [{"seat": 1, "type": "red", "amount": "100"}], 2)  # black: house +100
    round_settle(round_id=rid, metadata=pit(ANA))
    # tray: 2,000 - 1,000 credited + 100 won = 1,100; win = 1,100 - 2,000 + 1,000 = 100
    closed = close_and_count(sid, {"100.00": 11}, pit(ANA))
    assert (closed["table_win"], closed["variance"], closed["variance_state"]) == (
        "100.00", "0.00", "none")
    day = TableSession.objects.get(session_id=sid).gaming_day
    assert _ledger_win(table, day) == D("100.00")

    before = events_count()
    with pytest.raises(Conflict) as alone:
        slip_void(casino=CASINO, kind="credit", slip="C1", reason="never left",
                  metadata=pit(ANA))
    assert alone.value.code == "approval_required"
    assert "needs another person's approval" in alone.value.message
    assert events_count() == before

    asked = approval_request(kind="slip_void", subject="credit/C1", reason="never_left",
                             explanation="the chips stayed in the tray", metadata=pit(ANA))
    assert Approval.objects.get(id=asked.approval_id).amount == D("-1000.00")
    with pytest.raises(NotAllowed, match="Cage supervisor"):  # the cage confirms, not the pit
        approval_grant(approval_id=asked.approval_id, metadata=pit(RUI))
    approval_grant(approval_id=asked.approval_id, metadata=cage_supervisor())

    # win = 1,100 - 2,000 + 0 = -900: moved by -1,000 in the pit and in the ledger
    session = TableSession.objects.get(session_id=sid)
    assert (session.table_win, session.variance, session.late_amount, session.late_changes) == (
        D("-900.00"), D("-1000.00"), D("-1000.00"), 1)
    day_row = GamingDayResult.objects.get(table=table, gaming_day=day)
    assert (day_row.table_win, day_row.late_amount) == (D("-900.00"), D("-1000.00"))
    assert _ledger_win(table, day) == D("-900.00")
    assert Slip.objects.get(kind="credit", number="C1").status == "voided"
    assert rebuild_differences() == []


# --- finding 4: a fill issued to a table after it closed ----------------------------------------


def _late_fill_table(make_table: Any, code: str) -> tuple[str, str, dt.date]:
    table = make_table("french_roulette", code)
    sid = _open(table, {"100.00": 20})  # 2,000.00
    fill_request(session_id=sid, slip="F1", chips={"100.00": 20}, metadata=pit(ANA))
    rid = _round(sid, [{"seat": 1, "type": "red", "amount": "125"}], 2)  # black: house +125
    round_settle(round_id=rid, metadata=pit(ANA))
    # the fill is not issued before the close: tray 2,125; win 2,125 - 2,000 = 125
    close_and_count(sid, {"100.00": 21, "25.00": 1}, pit(ANA))
    return table, sid, TableSession.objects.get(session_id=sid).gaming_day


def test_a_fill_issued_after_the_close_moves_the_pit_and_the_ledger_alike(make_table) -> None:
    table, sid, day = _late_fill_table(make_table, "f1")
    shift = _open_shift()
    assert _ledger_win(table, day) == D("125.00")

    before = events_count()
    with pytest.raises(Conflict) as alone:
        fill_issue(shift_id=shift, slip="F1", metadata=cashier())
    assert alone.value.code == "approval_required"
    assert alone.value.message == FILL_AFTER_CLOSE.format(table=table, number="F1")
    assert events_count() == before

    asked = approval_request(kind="late_fill", subject="F1", reason="issued_late",
                             explanation="the runner took the chips before the close",
                             details={"shift_id": shift}, metadata=cashier())
    with pytest.raises(NotAllowed, match="Pit boss"):
        approval_grant(approval_id=asked.approval_id, metadata=cage_supervisor())
    approval_grant(approval_id=asked.approval_id, metadata=pit(RUI))

    # win = 2,125 - 2,000 - 2,000 = -1,875, in the pit and in the ledger (it read 125.00)
    session = TableSession.objects.get(session_id=sid)
    assert (session.table_win, session.fills_amount, session.late_amount) == (
        D("-1875.00"), D("2000.00"), D("-2000.00"))
    assert GamingDayResult.objects.get(table=table, gaming_day=day).table_win == D("-1875.00")
    assert _ledger_win(table, day) == D("-1875.00")
    entry = JournalEntry.objects.get(event_type="FillIssued")
    assert (entry.event_day, entry.day) == (day, day)
    assert asked.approval_id in entry.description
    assert rebuild_differences() == []


def test_a_late_fill_on_a_day_the_ledger_closed_posts_in_the_next_open_day(make_table) -> None:
    table, _sid, day = _late_fill_table(make_table, "f2")
    shift = _open_shift()
    period_close(casino=CASINO, day=day, metadata=system_metadata(CASINO, job="test"),
                 now=dt.datetime.now(dt.UTC) + dt.timedelta(days=3))
    asked = approval_request(kind="late_fill", subject="F1", reason="system_down",
                             explanation="recorded when the system came back",
                             details={"shift_id": shift}, metadata=cashier())
    approval_grant(approval_id=asked.approval_id, metadata=pit(RUI))

    next_day = day + dt.timedelta(days=1)
    entry = JournalEntry.objects.get(event_type="FillIssued")
    assert (entry.event_day, entry.day) == (day, next_day)
    assert f"gaming day {day} was closed: posted in {next_day}" in entry.description
    # The pit's day says the figure moved late; the ledger's closed day keeps its 125.00 and
    # the next day carries the -2,000.00: together they are the pit's -1,875.00.
    day_row = GamingDayResult.objects.get(table=table, gaming_day=day)
    assert (day_row.table_win, day_row.late_amount) == (D("-1875.00"), D("-2000.00"))
    assert _ledger_win(table, day) == D("125.00")
    assert _ledger_win(table, next_day) == D("-2000.00")
    assert rebuild_differences() == []


def test_a_credit_received_after_the_close_needs_no_approval(make_table) -> None:
    from cage.services import credit_receive

    table = make_table("french_roulette", "c2")
    sid = _open(table, {"100.00": 20})
    credit_request(session_id=sid, slip="C2", chips={"100.00": 5}, metadata=pit(ANA))
    close_and_count(sid, {"100.00": 15}, pit(ANA))
    shift = _open_shift()
    credit_receive(shift_id=shift, slip="C2", metadata=cashier())  # the chips left at the close
    session = TableSession.objects.get(session_id=sid)
    assert (session.table_win, session.late_amount) == (D("0.00"), D("0.00"))
    assert _ledger_win(table, session.gaming_day) == D("0.00")


# --- finding 9: a table variance of any size -----------------------------------------------------


def test_a_variance_of_fifty_cents_waits_for_a_second_person(make_table) -> None:
    table = make_table("french_roulette", "v1")
    sid = _open(table, {"100.00": 10, "0.50": 10})  # 1,005.00
    # no round; the tray counts 1,004.50: win -0.50, rounds' result 0.00, variance -0.50
    closed = close_and_count(sid, {"100.00": 10, "0.50": 9}, pit(ANA))
    assert (closed["variance"], closed["variance_state"]) == ("-0.50", "awaiting_approval")
    other = make_table("french_roulette", "v2")
    close_and_count(_open(other, {"100.00": 10}), {"100.00": 10}, pit(ANA))
    day = TableSession.objects.get(session_id=sid).gaming_day

    def states() -> dict[str, tuple[D, str]]:
        return {v.table: (v.variance, v.state)
                for v in selectors.session_variances(casino=CASINO, gaming_day=day)}

    assert states() == {table: (D("-0.50"), "awaiting_approval"), other: (D("0.00"), "none")}

    asked = approval_request(kind="table_variance", subject=sid, reason="miscount",
                             explanation="a 0.50 chip was found under the tray",
                             metadata=pit(ANA))
    assert states()[table] == (D("-0.50"), "requested")
    with pytest.raises(NotAllowed) as own:
        approval_grant(approval_id=asked.approval_id, metadata=pit(ANA))
    assert own.value.code == "four_eyes"
    with pytest.raises(NotAllowed, match="Accountant, Pit boss"):
        approval_grant(approval_id=asked.approval_id, metadata=cashier())
    assert states()[table] == (D("-0.50"), "requested")

    approval_grant(approval_id=asked.approval_id,
                   metadata=person("contabilista", Role.ACCOUNTANT))
    row = next(v for v in selectors.session_variances(casino=CASINO, gaming_day=day)
               if v.table == table)
    assert (row.state, row.approved_by, row.approval_id) == (
        "approved", "contabilista", asked.approval_id)
    with pytest.raises(Conflict) as twice:
        approval_request(kind="table_variance", subject=sid, reason="miscount",
                         explanation="again", metadata=pit(ANA))
    assert twice.value.code == "variance_approved_already"
    with pytest.raises(Conflict) as none:
        approval_request(kind="table_variance",
                         subject=str(TableSession.objects.get(table=other).session_id),
                         reason="miscount", explanation="nothing", metadata=pit(ANA))
    assert none.value.code == "approval_not_needed"
    assert rebuild_differences() == []


def test_a_variance_that_moved_since_it_was_asked_for_is_asked_again(make_table) -> None:
    table = make_table("french_roulette", "v3")
    sid = _open(table, {"100.00": 20})
    credit_request(session_id=sid, slip="C3", chips={"100.00": 5}, metadata=pit(ANA))
    # the tray counts 1,600: win 1,600 - 2,000 + 500 = 100 against no round: variance 100
    close_and_count(sid, {"100.00": 16}, pit(ANA))
    asked = approval_request(kind="table_variance", subject=sid, reason="slip_error",
                             explanation="a credit seems missing", metadata=pit(ANA))
    voided = approval_request(kind="slip_void", subject="credit/C3", reason="never_left",
                              explanation="the credit never left", metadata=pit(ANA))
    approval_grant(approval_id=voided.approval_id, metadata=cage_supervisor())
    assert TableSession.objects.get(session_id=sid).variance == D("-400.00")
    with pytest.raises(Conflict) as moved:
        approval_grant(approval_id=asked.approval_id, metadata=pit(RUI))
    assert moved.value.code == "variance_moved"
    assert TableSession.objects.get(session_id=sid).variance_approved is None


# --- a slip the pit adds to a closed session -----------------------------------------------------


def test_a_credit_added_after_the_close_moves_the_pit_and_the_ledger_alike(make_table) -> None:
    table = make_table("french_roulette", "l1")
    sid = _open(table, {"100.00": 20})  # 2,000.00
    # 500.00 went to the cage during the session on slip C7, never recorded: the tray counts
    # 1,500: win 1,500 - 2,000 = -500 against no round, variance -500
    close_and_count(sid, {"100.00": 15}, pit(ANA))
    day = TableSession.objects.get(session_id=sid).gaming_day
    assert _ledger_win(table, day) == D("-500.00")
    before = events_count()
    with pytest.raises(Conflict) as alone:
        credit_request(session_id=sid, slip="C7", chips={"100.00": 5}, metadata=pit(ANA))
    assert alone.value.code == "approval_required"
    assert "a credit slip added now moves its figures" in alone.value.message
    assert events_count() == before

    asked = approval_request(kind="late_slip", subject="credit/C7", reason="not_recorded",
                             explanation="the slip was in the drawer",
                             details={"session_id": sid, "chips": {"100.00": 5}},
                             metadata=pit(ANA))
    assert Approval.objects.get(id=asked.approval_id).amount == D("500.00")
    approval_grant(approval_id=asked.approval_id, metadata=cage_supervisor())
    # win = 1,500 - 2,000 + 500 = 0, in the pit and the ledger; variance 0: nothing to approve
    session = TableSession.objects.get(session_id=sid)
    assert (session.table_win, session.variance, session.late_amount) == (
        D("0.00"), D("0.00"), D("500.00"))
    assert GamingDayResult.objects.get(table=table, gaming_day=day).table_win == D("0.00")
    assert _ledger_win(table, day) == D("0.00")
    assert Slip.objects.get(kind="credit", number="C7").status == "requested"  # the cage's now
    assert rebuild_differences() == []


def test_a_fill_added_after_the_close_is_issued_with_a_second_approval(make_table) -> None:
    table = make_table("french_roulette", "l2")
    sid = _open(table, {"100.00": 20})
    close_and_count(sid, {"100.00": 25}, pit(ANA))  # 500 more than the float: variance 500
    day = TableSession.objects.get(session_id=sid).gaming_day
    shift = _open_shift()
    added = approval_request(kind="late_slip", subject="fill/F7", reason="not_recorded",
                             explanation="the fill reached the table, the slip was not keyed",
                             details={"session_id": sid, "chips": {"100.00": 5}},
                             metadata=pit(ANA))
    approval_grant(approval_id=added.approval_id, metadata=cage_supervisor())
    assert TableSession.objects.get(session_id=sid).table_win == D("500.00")  # not issued yet
    issued = approval_request(kind="late_fill", subject="F7", reason="issued_late",
                              explanation="issued before the close, keyed now",
                              details={"shift_id": shift}, metadata=cashier())
    approval_grant(approval_id=issued.approval_id, metadata=pit(RUI))
    # win = 2,500 - 2,000 - 500 = 0 in the pit and the ledger
    assert TableSession.objects.get(session_id=sid).table_win == D("0.00")
    assert _ledger_win(table, day) == D("0.00")
    assert rebuild_differences() == []
