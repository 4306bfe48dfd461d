"""The pit's projections as plain functions: a typed event (and the rows they are given) in,
changes out. No database: a handler that reads is given a writer holding the rows it reads."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal as D
from typing import Any

from eventstore.changes import Column, Insert, Update
from eventstore.events import Event
from eventstore.records import RecordedEvent
from eventstore.writer import Reader, Writer
from games import events as ev
from games.models import Bet, Round, RoundStatus, SessionStatus, TableSession
from games.projections import (
    RoundProjection,
    TableSessionProjection,
    close_figures,
)

AT = dt.datetime(2026, 12, 1, 21, 0, tzinfo=dt.UTC)
ROUND, SESSION = str(uuid.uuid4()), str(uuid.uuid4())


def recorded(event: Event, *, stream: str, version: int) -> RecordedEvent:
    return RecordedEvent(
        position=1, stream=stream, version=version, event_type=event.event_type,
        schema_version=event.schema_version, data=event.to_data(),
        metadata={"actor": "ana", "casino": "lisboa", "role": "pit_boss"}, recorded_at=AT,
        prev_hash="0" * 64, hash="1" * 64)


def changes_of(projection: Any, event: Event, *, stream: str, version: int,
               writer: Writer | None = None) -> list[Any]:
    return list(projection.changes(recorded(event, stream=stream, version=version),
                                   Reader(writer or Writer())))


def test_a_round_opened_is_a_new_round_row_and_one_more_round_for_its_session() -> None:
    event = ev.RoundOpened(round_id=ROUND, session_id=SESSION, casino="lisboa", table="r1",
                           game="french_roulette", options={}, number=7)
    (row,) = changes_of(RoundProjection(), event, stream=f"round/{ROUND}", version=1)
    assert row == Insert(Round, {
        "round_id": ROUND, "session_id": SESSION, "casino_id": "lisboa", "table": "r1",
        "game": "french_roulette", "options": {}, "number": 7, "status": RoundStatus.BETTING,
        "point": None, "opened_at": AT, "opened_by": "ana", "version": 1})
    (session,) = changes_of(TableSessionProjection(), event, stream=f"round/{ROUND}", version=1)
    assert session == Update(TableSession, {"session_id": SESSION}, add={"rounds": 1},
                             set={"current_round_id": ROUND})


def test_a_bet_settled_sets_its_bet_whatever_the_order_of_the_round_settled() -> None:
    event = ev.BetSettled(round_id=ROUND, bet_id="b1", seat=1, player="P-b001", bet_type="straight",
                          status="won", stake=D("5.00"), win=D("175.00"), returned=D("180.00"))
    (change,) = changes_of(RoundProjection(), event, stream=f"round/{ROUND}", version=9)
    assert change == Update(Bet, {"round_id": ROUND, "bet_id": "b1"}, set={
        "status": "won", "win": D("175.00"), "returned": D("180.00"), "point": None,
        "capped_win": None, "settled_version": 9})


def test_a_round_settled_moves_the_round_and_its_session() -> None:
    event = ev.RoundSettled(round_id=ROUND, session_id=SESSION, handle=D("25.00"),
                            result=D("-155.00"), prizes=D("180.00"),
                            pending=[{"bet_id": "p1"}], point_after=None)
    (the_round,) = changes_of(RoundProjection(), event, stream=f"round/{ROUND}", version=10)
    assert the_round == Update(Round, {"round_id": ROUND}, set={
        "status": RoundStatus.SETTLED, "result": D("-155.00"), "prizes": D("180.00"),
        "version": 10, "settled_outcome": Column("outcome"), "handle": D("25.00"),
        "stakes": {}})
    (session,) = changes_of(TableSessionProjection(), event, stream=f"round/{ROUND}", version=10)
    assert session == Update(TableSession, {"session_id": SESSION},
                             add={"handle": D("25.00"), "round_result": D("-155.00")},
                             extend={"pending_bets": [{"bet_id": "p1"}]},
                             set={"craps_point": None, "current_round_id": None})


def _open_session(writer: Writer, **figures: Any) -> None:
    writer.add([Insert(TableSession, {
        "session_id": SESSION, "casino_id": "lisboa", "table": "r1", "game": "french_roulette",
        "status": SessionStatus.OPEN, "opening_amount": D("2600.00"),
        "float_chips": {"100.00": 20, "25.00": 24}, **figures})])


def test_a_credit_request_takes_its_chips_off_the_float_of_the_session_it_reads() -> None:
    writer = Writer()
    _open_session(writer)
    event = ev.CreditRequested(session_id=SESSION, table="r1", slip="C-1",
                               chips={"100.00": 5}, amount=D("500.00"))
    (change,) = changes_of(TableSessionProjection(), event, stream=f"table_session/{SESSION}",
                           version=2, writer=writer)
    assert change.set["float_chips"] == {"100.00": 15, "25.00": 24}
    assert change.set["credits_amount"] == D("500.00")
    assert change.set["version"] == 2
    assert "table_win" not in change.set  # an open session has no closing figures


def test_closing_a_session_works_out_its_win_hold_and_variance() -> None:
    # drop 1,000 counted; closing 2,400, opening 2,600, credits 500, fills 100:
    # win = 1000 + 2400 - 2600 + 500 - 100 = 1,200; rounds' result 1,150: variance 50;
    # hold 1200 / 1000 = 120 %; handle 4,000: win / handle 30 %.
    writer = Writer()
    _open_session(writer, drop_counted=D("1000.00"), credits_amount=D("500.00"),
                  fills_amount=D("100.00"), round_result=D("1150.00"), handle=D("4000.00"))
    event = ev.TableSessionClosed(session_id=SESSION, table="r1", closing={"100.00": 24},
                                  closing_amount=D("2400.00"), drop_basis="counted",
                                  drop_definition_version=1)
    (change,) = changes_of(TableSessionProjection(), event, stream=f"table_session/{SESSION}",
                           version=5, writer=writer)
    assert change.set["status"] == SessionStatus.CLOSED
    assert (change.set["drop"], change.set["table_win"], change.set["variance"]) == (
        D("1000.00"), D("1200.00"), D("50.00"))
    assert change.set["hold_percent"] == D("120.0000")
    assert change.set["win_handle_percent"] == D("30.0000")


def test_an_open_session_has_no_closing_figures() -> None:
    assert close_figures({"status": SessionStatus.OPEN, "closing_amount": None}) == {}


def test_a_decision_plays_on_the_round_as_the_writer_holds_it() -> None:
    # The deal is still pending (same batch): the hit is added to the hand held in memory.
    writer = Writer()
    writer.add([Insert(Round, {"round_id": ROUND, "play": {}}),
                Update(Round, {"round_id": ROUND}, set={"play": {
                    "upcard": "9C", "decisions": {}, "seats": {"1": [
                        {"key": "1", "cards": ["8S", "3D"], "split": False, "double": False,
                         "surrender": False, "done": False}]}}})])
    event = ev.DecisionRecorded(round_id=ROUND, seat=1, hand=1, decision="hit", cards=["KH"])
    (change,) = changes_of(RoundProjection(), event, stream=f"round/{ROUND}", version=6,
                           writer=writer)
    assert change.key == {"round_id": ROUND}
    assert change.set["version"] == 6
    assert change.set["play"]["seats"]["1"][0]["cards"] == ["8S", "3D", "KH"]
    assert change.set["play"]["decisions"] == {"1": [{"hand": 1, "decision": "hit",
                                                       "cards": ["KH"]}]}


def test_a_table_configured_is_a_new_table_and_its_limits_change_by_its_key() -> None:
    from games.models import Table
    from games.projections import TableProjection

    limits = {"straight": {"min": "5.00", "max": "150.00"}}
    configured = ev.TableConfigured(casino="lisboa", code="r1", name="R1", game="french_roulette",
                                    options={}, seats=8, chip_set="main", limits=limits)
    assert changes_of(TableProjection(), configured, stream="table/lisboa.r1", version=1) == [
        Insert(Table, {"casino_id": "lisboa", "code": "r1", "name": "R1",
                       "game": "french_roulette", "options": {}, "seats": 8,
                       "chip_set": "main", "limits": limits, "max_prize_per_coup": None,
                       "version": 1})]
    wider = {"straight": {"min": "5.00", "max": "200.00"}}
    changed = ev.TableLimitsChanged(limits=wider, reason="high limit evening")
    assert changes_of(TableProjection(), changed, stream="table/lisboa.r1", version=2) == [
        Update(Table, {"casino_id": "lisboa", "code": "r1"},
               set={"limits": wider, "max_prize_per_coup": None, "version": 2})]


def test_a_fill_requested_is_a_slip_and_the_cage_issuing_it_marks_it_issued() -> None:
    from cage import events as cage_events
    from games.models import Slip, SlipStatus
    from games.projections import SlipProjection

    requested = ev.FillRequested(session_id=SESSION, table="r1", slip="F-7",
                                 chips={"25.00": 20}, amount=D("500.00"), chip_set="main")
    (slip,) = changes_of(SlipProjection(), requested, stream=f"table_session/{SESSION}",
                         version=3)
    assert slip == Insert(Slip, {
        "casino_id": "lisboa", "kind": "fill", "number": "F-7", "session_id": SESSION,
        "table": "r1", "chip_set": "main", "chips": {"25.00": 20}, "amount": D("500.00"),
        "status": SlipStatus.REQUESTED, "requested_at": AT, "requested_by": "ana"})
    shift = str(uuid.uuid4())
    issued = cage_events.FillIssued(slip="F-7", shift_id=shift, window="w1", session_id=SESSION,
                                    table="r1", chip_set="main", chips={"25.00": 20},
                                    amount=D("500.00"))
    assert changes_of(SlipProjection(), issued, stream=f"shift/{shift}", version=9) == [
        Update(Slip, {"casino_id": "lisboa", "kind": "fill", "number": "F-7"},
               set={"status": SlipStatus.ISSUED, "shift_id": shift, "window": "w1"})]


def test_a_drop_definition_is_a_new_version_with_who_set_it() -> None:
    from games.models import DropDefinition
    from games.projections import DropDefinitionProjection

    event = ev.DropDefinitionSet(casino="lisboa", basis="counted", reason="as counted")
    assert changes_of(DropDefinitionProjection(), event, stream="drop_definition/lisboa",
                      version=2) == [
        Insert(DropDefinition, {"casino_id": "lisboa", "version": 2, "basis": "counted",
                                "reason": "as counted", "set_by": "ana", "set_at": AT})]


def test_a_session_closing_adds_its_figures_to_its_day_and_a_late_credit_what_it_moves() -> None:
    from eventstore.changes import Upsert
    from games.models import GamingDayResult
    from games.projections import GamingDayProjection

    day = dt.date(2026, 12, 1)
    writer = Writer()
    _open_session(writer, gaming_day=day, drop_counted=D("1000.00"),
                  credits_amount=D("500.00"), fills_amount=D("100.00"),
                  round_result=D("1150.00"), handle=D("4000.00"), rounds=12, rounds_voided=2)
    close = ev.TableSessionClosed(session_id=SESSION, table="r1", closing={"100.00": 24},
                                  closing_amount=D("2400.00"), drop_basis="counted",
                                  drop_definition_version=1)
    stream = f"table_session/{SESSION}"
    (change,) = changes_of(GamingDayProjection(), close, stream=stream, version=5, writer=writer)
    key = {"casino_id": "lisboa", "gaming_day": day, "table": "r1"}
    game = {"game": "french_roulette"}
    # win = 1000 + 2400 - 2600 + 500 - 100 = 1,200, as the session's own close works it out
    assert change == Upsert(GamingDayResult, key, values=game, set=game, add={
        "sessions": 1, "rounds": 10, "opening_amount": D("2600.00"),
        "closing_amount": D("2400.00"), "fills": D("100.00"), "credits": D("500.00"),
        "drop": D("1000.00"), "handle": D("4000.00"), "round_result": D("1150.00"),
        "table_win": D("1200.00")})
    writer.add(changes_of(TableSessionProjection(), close, stream=stream, version=5,
                          writer=writer))
    late = ev.CreditRequested(session_id=SESSION, table="r1", slip="C-9", chips={"100.00": 1},
                              amount=D("100.00"), approval_id="A-1", after_close=True)
    (change,) = changes_of(GamingDayProjection(), late, stream=stream, version=6, writer=writer)
    assert change == Upsert(GamingDayResult, key, values=game, set=game, add={
        "credits": D("100.00"), "table_win": D("100.00"), "late_amount": D("100.00")})
