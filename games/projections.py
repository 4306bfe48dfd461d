"""Projections of the pit's events: tables, drop definitions, table sessions, slips, rounds and
bets, gaming days. Live (applied in the appending transaction) and rebuildable.

Each handler takes the typed event and returns changes (``eventstore.changes``); those that
read take a ``reader`` too. The writer merges the changes of one row, so a round opened, bet on,
closed, given its outcome and settled in one append is one INSERT of the round and one of its
bets, and the session's figures one UPDATE.

Cage events: ``FillIssued`` and ``CreditReceived`` (the cage's, on its own streams) move slips and
the table's float; their casino is the event's metadata casino. A fill counts in the table's float
when the cage issues it; a credit counts when the pit requests it (the chips leave the table
then), and comes back if the credit slip is voided. After a session's close such a slip (a late
slip, only with an approval: ``docs/approvals.md``) works the closed session's figures and its
gaming day out again and counts what it moved in ``late_amount``.

The session and gaming-day projections read ``Slip`` and ``TableSession`` rows for facts fixed
before the event they handle (a slip's session and chips; a closed session's figures), which a
replay in event order reproduces.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from cage import events as cage_events
from eventstore.changes import Change, Column, Insert, Sql, Update, Upsert
from eventstore.hashing import canonical_text
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent
from eventstore.writer import Reader
from jackpots import events as jackpot_events

from . import events as ev
from . import play
from .models import (
    Bet,
    CarriedCorrection,
    DropBox,
    DropBoxStatus,
    DropDefinition,
    GamingDayResult,
    JackpotBet,
    JackpotBetStatus,
    Round,
    RoundStatus,
    SessionStatus,
    Slip,
    SlipKind,
    SlipStatus,
    Table,
    TableCapital,
    TableSession,
    TableTaxClass,
)

ZERO = Decimal("0.00")
HUNDRED = Decimal(100)
Changes = Iterator[Change]


def _chips_add(a: dict[str, int], b: dict[str, int], sign: int = 1) -> dict[str, int]:
    out = dict(a)
    for denomination, pieces in b.items():
        out[denomination] = out.get(denomination, 0) + sign * pieces
    return {d: n for d, n in sorted(out.items(), key=lambda kv: Decimal(kv[0]), reverse=True)
            if n}


def _casino(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("casino", ""))


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


@register
class TableProjection(Projection):
    name = "tables"
    models = (Table,)

    @handles
    def configured(self, event: ev.TableConfigured, recorded: RecordedEvent) -> Changes:
        yield Insert(Table, dict(
            casino_id=event.casino, code=event.code, name=event.name, game=event.game,
            options=event.options, seats=event.seats, chip_set=event.chip_set,
            limits=event.limits, max_prize_per_coup=event.max_prize_per_coup,
            version=recorded.version))

    def _key(self, recorded: RecordedEvent) -> dict[str, str]:
        casino, _, code = recorded.stream_id.partition(".")
        return {"casino_id": casino, "code": code}

    @handles
    def limits_changed(self, event: ev.TableLimitsChanged, recorded: RecordedEvent) -> Changes:
        yield Update(Table, self._key(recorded), set={
            "limits": event.limits, "max_prize_per_coup": event.max_prize_per_coup,
            "version": recorded.version})

    @handles
    def options_changed(self, event: ev.TableOptionsChanged, recorded: RecordedEvent
                        ) -> Changes:
        yield Update(Table, self._key(recorded), set={
            "options": event.options, "seats": event.seats, "version": recorded.version})

    @handles
    def tax_class_changed(self, event: ev.TableTaxClassChanged, recorded: RecordedEvent
                          ) -> Changes:
        yield Update(Table, self._key(recorded), set={
            "bank": event.bank, "vip": event.vip, "version": recorded.version})

    @handles
    def capital_approved(self, event: ev.TableCapitalApproved, recorded: RecordedEvent
                         ) -> Changes:
        yield Update(Table, self._key(recorded), set={"version": recorded.version})

    @handles
    def currency_changed(self, event: ev.TableCurrencyChanged, recorded: RecordedEvent
                         ) -> Changes:
        yield Update(Table, self._key(recorded), set={
            "currency": event.currency, "chip_set": event.chip_set, "version": recorded.version})

    @handles
    def session_opened(self, event: ev.TableSessionOpened, recorded: RecordedEvent) -> Changes:
        yield Update(Table, {"casino_id": event.casino, "code": event.table},
                     set={"open_session_id": event.session_id})

    @handles
    def session_closed(self, event: ev.TableSessionClosed, recorded: RecordedEvent) -> Changes:
        yield Update(Table, {"casino_id": _casino(recorded), "code": event.table}, set={
            "open_session_id": None, "last_session_id": event.session_id,
            "last_closing": event.closing})


@register
class DropDefinitionProjection(Projection):
    name = "drop_definitions"
    models = (DropDefinition,)

    @handles
    def set(self, event: ev.DropDefinitionSet, recorded: RecordedEvent) -> Changes:
        yield Insert(DropDefinition, dict(
            casino_id=event.casino, version=recorded.version, basis=event.basis,
            reason=event.reason, set_by=_actor(recorded), set_at=recorded.recorded_at))


def close_figures(s: dict[str, Any]) -> dict[str, Any]:
    """A closed session's figures: table win = drop + closing − opening + credits − fills, the
    variance against the rounds' result, the hold and win/handle percentages. Nothing for a
    session still open."""
    if s["status"] != SessionStatus.CLOSED or s["closing_amount"] is None:
        return {}
    if s["drop_basis"] == "counted" and s["drop_counted"] is None:
        # The drop box is in the count room: no drop, win or hold until two counters count it.
        return {"drop": None, "table_win": None, "variance": None, "hold_percent": None,
                "win_handle_percent": None}
    drop = (s["drop_counted"] if s["drop_basis"] == "counted" else s["drop_recorded"]) or ZERO
    win = (drop + s["closing_amount"] - s["opening_amount"] + s["credits_amount"]
           - s["fills_amount"])
    return {
        "drop": drop, "table_win": win, "variance": win - s["round_result"],
        "hold_percent": (win / drop * HUNDRED).quantize(Decimal("0.0001")) if drop else None,
        "win_handle_percent": ((win / s["handle"] * HUNDRED).quantize(Decimal("0.0001"))
                               if s["handle"] else None),
    }


@register
class TableCapitalProjection(Projection):
    """Every capital em giro inicial approved for a table (``TableCapitalApproved``), with
    when it was recorded: what a day's register reads as of the day."""

    name = "table_capitals"
    models = (TableCapital,)

    @handles
    def approved(self, event: ev.TableCapitalApproved, recorded: RecordedEvent) -> Changes:
        yield Insert(TableCapital, dict(
            casino_id=_casino(recorded), table=recorded.stream_id.partition(".")[2],
            capital=event.capital, reference=event.reference,
            recorded_at=recorded.recorded_at, position=recorded.position))


@register
class TableTaxClassProjection(Projection):
    """Every tax class a table was given (``TableTaxClassChanged``), with when it was
    recorded: what a day's register reads as of the day (issue 34)."""

    name = "table_tax_classes"
    models = (TableTaxClass,)

    @handles
    def changed(self, event: ev.TableTaxClassChanged, recorded: RecordedEvent) -> Changes:
        yield Insert(TableTaxClass, dict(
            casino_id=_casino(recorded), table=recorded.stream_id.partition(".")[2],
            bank=event.bank, vip=event.vip, recorded_at=recorded.recorded_at,
            position=recorded.position))


@register
class GamingDayProjection(Projection):
    """Results by table and gaming day, summed over the table's closed sessions that day: a
    session adds its figures when it closes, and what moves them afterwards (a late fill, a
    credit or a void after the close, the drop box's count); a late change to a sealed day's
    session is carried into the day it is booked in (``CarriedCorrection``).

    What an event moves in a session is what the session's projection makes of it
    (``TableSessionProjection``, asked here, its own change left to it): this projection runs
    before it on each event (registered first), so the row it reads is the session before the
    event. Each change is an ``Upsert`` that adds to the day's row: no statement reads the
    sessions back, so nothing in a rebuild waits for them (the sum by SQL it replaces was a
    barrier: ADR 0014, superseded). Rebuilt or checked, it replays with the sessions
    (``replays_with``)."""

    name = "gaming_days"
    models = (GamingDayResult, CarriedCorrection)
    replays_with = ("table_sessions",)

    @handles
    def closed(self, event: ev.TableSessionClosed, recorded: RecordedEvent, *,
               reader: Reader) -> Changes:
        yield from _moved(_sessions().closed(event, recorded, reader=reader), reader)

    @handles
    def late_fill(self, event: cage_events.FillIssued, recorded: RecordedEvent, *,
                  reader: Reader) -> Changes:
        if _carried(event):
            yield from self._carry(event, recorded, reader, "fill", -event.amount)
            return
        yield from _moved(_sessions().fill_issued(event, recorded, reader=reader), reader)

    @handles
    def late_credit(self, event: ev.CreditRequested, recorded: RecordedEvent, *,
                    reader: Reader) -> Changes:
        if _carried(event):
            yield from self._carry(event, recorded, reader, "credit", event.amount)
        elif event.after_close:  # a late slip, approved: the closed session's figures move
            yield from _moved(_sessions().credit_requested(event, recorded, reader=reader),
                              reader)

    @handles
    def late_void(self, event: ev.SlipVoided, recorded: RecordedEvent, *,
                  reader: Reader) -> Changes:
        if not _carried(event):
            yield from _moved(_sessions().slip_voided(event, recorded, reader=reader), reader)
        elif event.kind == SlipKind.CREDIT:
            yield from self._carry(event, recorded, reader, "credit", -event.amount)
        else:  # a fill voided was never issued: listed, nothing moves
            yield from self._carry(event, recorded, reader, "fill", ZERO)

    @handles
    def late_fill_requested(self, event: ev.FillRequested, recorded: RecordedEvent, *,
                            reader: Reader) -> Changes:
        if _carried(event):  # listed; the win moves when the cage issues it (a late fill)
            yield from self._carry(event, recorded, reader, "fill", ZERO)

    def _carry(self, event: CarriedEvent, recorded: RecordedEvent, reader: Reader, kind: str,
               win_change: Decimal) -> Changes:
        """A late change to a session of a sealed day, booked in ``event.booked_day``: that
        day's table win takes it, listed with what it corrects; the sealed day stays as
        signed."""
        session = reader.row(TableSession, session_id=event.session_id)
        assert session is not None
        assert event.booked_day is not None
        casino = _casino(recorded)
        if win_change:
            yield Upsert(GamingDayResult, {"casino_id": casino,
                                           "gaming_day": event.booked_day,
                                           "table": event.table},
                         values={"game": session["game"]},
                         add={"table_win": win_change, "carried_win": win_change})
        yield Insert(CarriedCorrection, dict(
            casino_id=casino, booked_day=event.booked_day, table=event.table,
            corrects_day=event.gaming_day, session_id=event.session_id,
            event_type=recorded.event_type, kind=kind, slip=event.slip, win_change=win_change,
            approval_id=event.approval_id or "", position=recorded.position,
            recorded_at=recorded.recorded_at))

    @handles
    def box_counted(self, event: ev.DropBoxCountConfirmed, recorded: RecordedEvent, *,
                    reader: Reader) -> Changes:
        yield from _moved(_sessions().drop_box_counted(event, recorded, reader=reader), reader)


def _day_figures(s: Mapping[str, Any] | None) -> dict[str, Any]:
    """What a session adds to its table's gaming day, by the day's column: nothing until it
    closes; a drop and a win not known yet (the box in the count room) count as nothing."""
    if s is None or s["status"] != SessionStatus.CLOSED:
        return {}
    return {"sessions": 1, "rounds": s["rounds"] - s["rounds_voided"],
            "opening_amount": s["opening_amount"], "closing_amount": s["closing_amount"] or ZERO,
            "fills": s["fills_amount"], "credits": s["credits_amount"],
            "drop": s["drop"] or ZERO, "handle": s["handle"], "round_result": s["round_result"],
            "table_win": s["table_win"] or ZERO, "late_amount": s["late_amount"]}


def _moved(changes: Iterable[Change] | None, reader: Reader) -> Changes:
    """What the sessions' ``changes`` move in their gaming days: each session's figures after
    the change less its figures before (the row as it stands, this event not yet applied),
    added to the day's row (made if it is the day's first closed session)."""
    for change in changes or ():
        if not (isinstance(change, Update) and change.model is TableSession):
            continue
        before = reader.row(TableSession, **change.key)
        assert before is not None
        after = dict(before)
        after.update(change.set)
        for column, value in change.add.items():
            after[column] = (after[column] or 0) + value
        now, then = _day_figures(after), _day_figures(before)
        moved = {column: value - then.get(column, 0) for column, value in now.items()}
        moved = {column: value for column, value in moved.items() if value}
        if not now or not moved:
            continue
        yield Upsert(GamingDayResult, {"casino_id": after["casino_id"],
                                       "gaming_day": after["gaming_day"],
                                       "table": after["table"]},
                     values={"game": after["game"]}, set={"game": after["game"]}, add=moved)


@functools.cache
def _sessions() -> TableSessionProjection:
    """The sessions' projection, asked what an event changes in a session (never registered:
    the registered one writes its own changes)."""
    return TableSessionProjection()


@register
class TableSessionProjection(Projection):
    name = "table_sessions"
    models = (TableSession,)

    def _changed(self, session_id: str, reader: Reader, recorded: RecordedEvent | None,
                 **changes: Any) -> Update:
        """``changes`` to the session as it stands, with a closed session's figures worked out
        again; the session's version follows its own stream's events."""
        s = reader.row(TableSession, session_id=session_id)
        if s is None:
            raise LookupError(f"no table session {session_id}")
        if recorded is not None and recorded.stream_type == "table_session":
            changes["version"] = recorded.version
        s.update(changes)
        return Update(TableSession, {"session_id": session_id},
                      set={**changes, **close_figures(s)})

    def _late(self, session_id: str, reader: Reader, recorded: RecordedEvent | None,
              **changes: Any) -> Update:
        """``_changed`` for a slip that moves a session's figures, counting what it moves in the
        table win after the close (an approved late slip: ``docs/approvals.md``)."""
        s = reader.row(TableSession, session_id=session_id)
        assert s is not None
        before = s["table_win"] if s["status"] == SessionStatus.CLOSED else None
        update = self._changed(session_id, reader, recorded, **changes)
        after = update.set.get("table_win")
        if before is not None and after is not None and after != before:
            late = {"late_amount": s["late_amount"] + (after - before),
                    "late_changes": s["late_changes"] + 1}
            s.update(late)
            update = Update(TableSession, update.key, set={**update.set, **late})
        return update

    @staticmethod
    def _carried_version(session_id: str, recorded: RecordedEvent) -> Update:
        """A late change carried out of a sealed day's session moves none of its figures, but
        it is an event of the session's stream: the row's version follows it, or the next
        correction of the session would be refused as a concurrent change for ever (issue
        34: the stream's version and the projection's are always equal)."""
        return Update(TableSession, {"session_id": session_id},
                      set={"version": recorded.version})

    @handles
    def opened(self, event: ev.TableSessionOpened, recorded: RecordedEvent) -> Changes:
        yield Insert(TableSession, dict(
            session_id=event.session_id, casino_id=event.casino, table=event.table,
            game=event.game, gaming_day=event.gaming_day, status=SessionStatus.OPEN,
            opened_at=recorded.recorded_at, opened_by=_actor(recorded),
            previous_session_id=event.previous_session_id, opening=event.opening,
            opening_amount=event.opening_amount, roll_difference=event.roll_difference,
            float_chips=event.opening, currency=event.currency, rate=event.rate,
            version=recorded.version))

    @handles
    def fill_requested(self, event: ev.FillRequested, recorded: RecordedEvent, *,
                       reader: Reader) -> Changes:
        s = reader.row(TableSession, session_id=event.session_id)
        assert s is not None
        yield self._changed(event.session_id, reader, recorded,
                            fills_requested_amount=s["fills_requested_amount"] + event.amount)

    @handles
    def credit_requested(self, event: ev.CreditRequested, recorded: RecordedEvent, *,
                         reader: Reader) -> Changes:
        if _carried(event):  # a sealed day's session: its figures stay as signed
            yield self._carried_version(event.session_id, recorded)  # (GamingDayProjection)
            return
        s = reader.row(TableSession, session_id=event.session_id)
        assert s is not None
        yield self._late(event.session_id, reader, recorded,
                         float_chips=_chips_add(s["float_chips"], event.chips, -1),
                         credits_amount=s["credits_amount"] + event.amount)

    @handles
    def slip_voided(self, event: ev.SlipVoided, recorded: RecordedEvent, *,
                    reader: Reader) -> Changes:
        s = reader.row(TableSession, session_id=event.session_id)
        assert s is not None
        if event.kind == SlipKind.CREDIT and _carried(event):  # a sealed day's session: its
            yield self._carried_version(event.session_id, recorded)  # figures stay as signed
            return
        if event.kind == SlipKind.CREDIT:  # the chips never left
            yield self._late(event.session_id, reader, recorded,
                             float_chips=_chips_add(s["float_chips"], event.chips),
                             credits_amount=s["credits_amount"] - event.amount)
        else:
            yield self._changed(event.session_id, reader, recorded,
                                fills_requested_amount=s["fills_requested_amount"]
                                - event.amount)

    @handles
    def fill_issued(self, event: cage_events.FillIssued, recorded: RecordedEvent, *,
                    reader: Reader) -> Changes:
        slip = reader.row(Slip, casino_id=_casino(recorded), kind=SlipKind.FILL,
                          number=str(event.slip))
        if slip is None:
            return
        session_id = str(slip["session_id"])
        s = reader.row(TableSession, session_id=session_id)
        assert s is not None
        if _carried(event):  # a sealed day's session: only the fill is no longer awaited
            yield self._changed(session_id, reader, None, fills_requested_amount=(
                s["fills_requested_amount"] - slip["amount"]))
            return
        yield self._late(session_id, reader, None,
                         float_chips=_chips_add(s["float_chips"], slip["chips"]),
                         fills_amount=s["fills_amount"] + slip["amount"],
                         fills_requested_amount=s["fills_requested_amount"] - slip["amount"])

    @handles
    def drop_recorded(self, event: ev.DropRecorded, recorded: RecordedEvent, *,
                      reader: Reader) -> Changes:
        s = reader.row(TableSession, session_id=event.session_id)
        assert s is not None
        yield self._changed(event.session_id, reader, recorded,
                            drop_recorded=s["drop_recorded"] + event.amount)

    @handles
    def colour_issued(self, event: ev.ColourChipsIssued, recorded: RecordedEvent, *,
                      reader: Reader) -> Changes:
        s = reader.row(TableSession, session_id=event.session_id)
        assert s is not None
        held = dict(s["colour_chips"].get(event.colour, {
            "player": event.player, "value": str(event.chip_value), "chips": 0}))
        held["chips"] += event.chips
        yield self._changed(event.session_id, reader, recorded,
                            colour_chips={**s["colour_chips"], event.colour: held},
                            colour_chips_in=s["colour_chips_in"] + event.amount)

    @handles
    def colour_exchanged(self, event: ev.ColourChipsExchanged, recorded: RecordedEvent, *,
                         reader: Reader) -> Changes:
        s = reader.row(TableSession, session_id=event.session_id)
        assert s is not None
        colours = dict(s["colour_chips"])
        held = dict(colours[event.colour])
        held["chips"] -= event.chips
        if held["chips"] > 0:
            colours[event.colour] = held
        else:
            colours.pop(event.colour)
        yield self._changed(event.session_id, reader, recorded, colour_chips=colours,
                            colour_chips_out=s["colour_chips_out"] + event.amount)

    @handles
    def drop_counted(self, event: ev.DropCounted, recorded: RecordedEvent, *,
                     reader: Reader) -> Changes:
        yield self._changed(event.session_id, reader, recorded, drop_counted=event.amount)

    @handles
    def drop_box_counted(self, event: ev.DropBoxCountConfirmed, recorded: RecordedEvent, *,
                         reader: Reader) -> Changes:
        """The count room's count is the session's counted drop (its own stream: the
        session's version does not move)."""
        yield self._changed(event.session_id, reader, recorded, drop_counted=event.amount)

    @handles
    def closed(self, event: ev.TableSessionClosed, recorded: RecordedEvent, *,
               reader: Reader) -> Changes:
        yield self._changed(
            event.session_id, reader, recorded, status=SessionStatus.CLOSED,
            closing=event.closing, closing_amount=event.closing_amount,
            drop_basis=event.drop_basis, drop_definition_version=event.drop_definition_version,
            closed_at=recorded.recorded_at, closed_by=_actor(recorded), pending_bets=[])

    @handles
    def variance_approved(self, event: ev.TableVarianceApproved, recorded: RecordedEvent
                          ) -> Changes:
        yield Update(TableSession, {"session_id": event.session_id}, set={
            "variance_approved": event.variance, "variance_approval_id": event.approval_id,
            "variance_approved_by": _actor(recorded), "version": recorded.version})

    @handles
    def round_opened(self, event: ev.RoundOpened, recorded: RecordedEvent) -> Changes:
        yield Update(TableSession, {"session_id": event.session_id}, add={"rounds": 1},
                     set={"current_round_id": event.round_id})

    @handles
    def bet_carried(self, event: ev.BetCarried, recorded: RecordedEvent, *,
                    reader: Reader) -> Changes:
        the_round = reader.row(Round, round_id=event.round_id)
        if the_round is None:
            return
        session_id = str(the_round["session_id"])
        s = reader.row(TableSession, session_id=session_id)
        assert s is not None
        yield Update(TableSession, {"session_id": session_id}, set={"pending_bets": [
            p for p in s["pending_bets"] if p.get("bet_id") != event.bet_id]})

    @handles
    def round_settled(self, event: ev.RoundSettled, recorded: RecordedEvent) -> Changes:
        if event.correction:
            yield Update(TableSession, {"session_id": event.session_id},
                         add={"round_result": event.result_delta or ZERO})
            return
        yield Update(TableSession, {"session_id": event.session_id},
                     add={"handle": event.handle, "round_result": event.result},
                     extend={"pending_bets": event.pending},
                     set={"craps_point": event.point_after, "current_round_id": None})

    @handles
    def round_voided(self, event: ev.RoundVoided, recorded: RecordedEvent, *,
                     reader: Reader) -> Changes:
        s = reader.row(TableSession, session_id=event.session_id)
        assert s is not None
        yield self._changed(event.session_id, reader, None,
                            rounds_voided=s["rounds_voided"] + 1,
                            pending_bets=[*s["pending_bets"], *event.carried_back],
                            current_round_id=None)


@register
class SlipProjection(Projection):
    name = "slips"
    models = (Slip,)

    @handles
    def requested(self, event: ev.FillRequested | ev.CreditRequested, recorded: RecordedEvent
                  ) -> Changes:
        yield Insert(Slip, dict(
            casino_id=_casino(recorded),
            kind=SlipKind.FILL if recorded.event_type == "FillRequested" else SlipKind.CREDIT,
            number=event.slip, session_id=event.session_id, table=event.table,
            chip_set=event.chip_set, chips=event.chips, amount=event.amount,
            status=SlipStatus.REQUESTED, requested_at=recorded.recorded_at,
            requested_by=_actor(recorded)))

    @handles
    def voided(self, event: ev.SlipVoided, recorded: RecordedEvent) -> Changes:
        yield Update(Slip, {"casino_id": _casino(recorded), "kind": event.kind,
                            "number": event.slip},
                     set={"status": SlipStatus.VOIDED, "void_reason": event.reason})

    @handles
    def refused(self, event: cage_events.SlipRefused, recorded: RecordedEvent) -> Changes:
        """The cage will not act on the slip: the pit sees it refused at once, who refused it
        and why, and voids it."""
        yield Update(Slip, {"casino_id": _casino(recorded), "kind": event.kind,
                            "number": event.slip},
                     set={"status": SlipStatus.REFUSED, "refusal_reason": event.reason,
                          "refused_at": recorded.recorded_at, "refused_by": _actor(recorded),
                          "shift_id": str(event.shift_id), "window": event.window})

    @handles
    def fill_issued(self, event: cage_events.FillIssued, recorded: RecordedEvent) -> Changes:
        yield self._cage(event, recorded, SlipKind.FILL, SlipStatus.ISSUED)

    @handles
    def credit_received(self, event: cage_events.CreditReceived, recorded: RecordedEvent
                        ) -> Changes:
        yield self._cage(event, recorded, SlipKind.CREDIT, SlipStatus.RECEIVED)

    def _cage(self, event: cage_events.FillIssued | cage_events.CreditReceived,
              recorded: RecordedEvent, kind: str, status: str) -> Update:
        return Update(Slip, {"casino_id": _casino(recorded), "kind": kind,
                             "number": str(event.slip)},
                      set={"status": status, "shift_id": str(event.shift_id),
                           "window": str(event.window or "")})


@register
class RoundProjection(Projection):
    name = "rounds"
    models = (Round, Bet, JackpotBet)

    def casino_rows(self, model: Any, casino: str) -> Any:
        if model in (Bet, JackpotBet):
            rounds = Round.objects.filter(casino_id=casino).values("round_id")
            return model._default_manager.filter(round_id__in=rounds)
        return super().casino_rows(model, casino)

    def _round(self, round_id: str, **set_: Any) -> Update:
        return Update(Round, {"round_id": round_id}, set=set_)

    @handles
    def opened(self, event: ev.RoundOpened, recorded: RecordedEvent) -> Changes:
        yield Insert(Round, dict(
            round_id=event.round_id, session_id=event.session_id, casino_id=event.casino,
            table=event.table, game=event.game, options=event.options, number=event.number,
            status=RoundStatus.BETTING, point=event.point, opened_at=recorded.recorded_at,
            opened_by=_actor(recorded), version=recorded.version))

    @handles
    def bet(self, event: ev.BetPlaced | ev.BetCarried, recorded: RecordedEvent, *,
            reader: Reader) -> Changes:
        values: dict[str, Any] = dict(
            round_id=event.round_id, bet_id=event.bet_id, seat=event.seat, player=event.player,
            bet_type=event.bet["type"], bet=event.bet, amount=event.amount, base=event.base,
            withdrawn=False, status="")
        if isinstance(event, ev.BetCarried):
            values.update(stage="carried", hand_key=None, carried_from=event.from_round_id)
        else:
            values.update(stage=event.stage, hand_key=event.hand_key, carried_from=None)
        the_round = reader.in_memory(Round, round_id=event.round_id)
        if the_round is not None:
            yield Insert(Bet, {**values, "session_id": the_round["session_id"]})
            yield self._round(event.round_id, version=recorded.version)
            return
        # A bet on a round recorded before: its session comes from the round's row, in the same
        # statement as the bet (the pit's bet_place), rather than a read of its own.
        yield Sql(
            "WITH r AS (UPDATE games_round SET version = %s WHERE round_id = %s "
            "RETURNING session_id) "
            "INSERT INTO games_bet (round_id, bet_id, session_id, seat, player, bet_type, bet, "
            "amount, stage, base, hand_key, carried_from, withdrawn, status) "
            "SELECT %s, %s, r.session_id, %s, %s, %s, %s::jsonb, %s, %s, %s, %s, %s, false, '' "
            "FROM r",
            [recorded.version, event.round_id, event.round_id, event.bet_id, event.seat,
             event.player, values["bet_type"], _jsonb(event.bet), event.amount, values["stage"],
             event.base, values["hand_key"], values["carried_from"]])

    @handles
    def jackpot_bet(self, event: ev.JackpotBetPlaced, recorded: RecordedEvent, *,
                    reader: Reader) -> Changes:
        the_round = reader.row(Round, round_id=event.round_id)
        assert the_round is not None
        yield Insert(JackpotBet, dict(
            round_id=event.round_id, bet_id=event.bet_id, session_id=the_round["session_id"],
            seat=event.seat, player=event.player, amount=event.amount, pool_id=event.pool_id))
        yield Update(Round, {"round_id": event.round_id}, set={"version": recorded.version},
                     add={"jackpot_amount": event.amount})

    @handles
    def jackpot_coup(self, event: jackpot_events.JackpotCoupSettled, recorded: RecordedEvent
                     ) -> Changes:
        """The pool's coup of a round (on the pool's stream) decides the round's jackpot chips:
        won or lost, or, for a void round, in the pool and decided by nothing."""
        try:
            round_id = str(uuid.UUID(str(event.round_id)))
        except ValueError:
            return  # a coup recorded for a round the pit does not keep
        void = bool(event.request.get("void"))
        prizes = ZERO
        for line in event.result["bets"]:
            prize = Decimal(str(line["prize"]))
            prizes += prize
            status = (JackpotBetStatus.VOID if void else JackpotBetStatus.WON
                      if line["combination"] else JackpotBetStatus.LOST)
            yield Update(JackpotBet, {"round_id": round_id, "bet_id": line["id"]}, set={
                "status": status, "combination": line["combination"] or "", "prize": prize})
        yield self._round(round_id, jackpot_prizes=prizes)

    @handles
    def withdrawn(self, event: ev.BetWithdrawn, recorded: RecordedEvent) -> Changes:
        yield Update(Bet, {"round_id": event.round_id, "bet_id": event.bet_id},
                     set={"withdrawn": True})
        yield self._round(event.round_id, version=recorded.version)

    @handles
    def betting_closed(self, event: ev.BettingClosed, recorded: RecordedEvent) -> Changes:
        yield self._round(event.round_id, status=RoundStatus.CLOSED, version=recorded.version)

    @handles
    def dealt(self, event: ev.CardsDealt, recorded: RecordedEvent) -> Changes:
        yield self._round(event.round_id, play=play.deal(event.upcard, event.seats),
                          version=recorded.version)

    @handles
    def decision(self, event: ev.DecisionRecorded, recorded: RecordedEvent, *,
                 reader: Reader) -> Changes:
        the_round = reader.row(Round, round_id=event.round_id)
        assert the_round is not None
        yield self._round(event.round_id, version=recorded.version, play=play.apply_decision(
            the_round["play"], event.seat, event.hand, event.decision, list(event.cards)))
        if event.decision == "even_money" and event.bet_id:
            bet = reader.row(Bet, round_id=event.round_id, bet_id=event.bet_id)
            assert bet is not None
            yield Update(Bet, {"round_id": event.round_id, "bet_id": event.bet_id},
                         set={"bet": {**bet["bet"], "even_money": True}})

    @handles
    def outcome(self, event: ev.OutcomeRecorded, recorded: RecordedEvent) -> Changes:
        yield self._round(event.round_id, outcome=event.outcome, outcome_version=recorded.version,
                          outcome_by=_actor(recorded), version=recorded.version,
                          status=RoundStatus.OUTCOME)

    @handles
    def corrected(self, event: ev.RoundCorrected, recorded: RecordedEvent) -> Changes:
        # A correction keeps the status (settled): its RoundSettled re-settles the round.
        yield Update(Round, {"round_id": event.round_id}, add={"corrections": 1}, set={
            "outcome": event.outcome, "outcome_version": recorded.version,
            "outcome_by": _actor(recorded), "version": recorded.version})

    @handles
    def bet_settled(self, event: ev.BetSettled, recorded: RecordedEvent) -> Changes:
        yield Update(Bet, {"round_id": event.round_id, "bet_id": event.bet_id}, set={
            "status": event.status, "win": event.win, "returned": event.returned,
            "point": event.point, "capped_win": event.capped_win,
            "settled_version": recorded.version})

    @handles
    def settled(self, event: ev.RoundSettled, recorded: RecordedEvent) -> Changes:
        changes: dict[str, Any] = {
            "status": RoundStatus.SETTLED, "result": event.result, "prizes": event.prizes,
            "version": recorded.version, "settled_outcome": Column("outcome")}
        if not event.correction:
            changes.update(handle=event.handle, stakes=event.stakes)
        yield Update(Round, {"round_id": event.round_id}, set=changes)

    @handles
    def voided(self, event: ev.RoundVoided, recorded: RecordedEvent, *,
               reader: Reader) -> Changes:
        changes: dict[str, Any] = {"status": RoundStatus.VOIDED, "void_reason": event.reason,
                                   "void_reason_code": event.reason_code,
                                   "void_approval_id": event.approval_id,
                                   "void_requested_by": event.requested_by,
                                   "voided_by": _actor(recorded), "version": recorded.version}
        # Jackpot chips still on the layout (no "nada mais" yet) go back to their players; once
        # collected they are in the pool (BJ n.º 48, SP n.º 16: docs/jackpots.md § Void rounds).
        the_round = reader.row(Round, round_id=event.round_id)
        if (the_round is not None and the_round["status"] == RoundStatus.BETTING
                and the_round["jackpot_amount"] > 0):
            yield Update(JackpotBet, {"round_id": event.round_id},
                         set={"status": JackpotBetStatus.RETURNED})
            changes["jackpot_amount"] = ZERO
        yield Update(Round, {"round_id": event.round_id}, set=changes)


if TYPE_CHECKING:
    CarriedEvent = (ev.FillRequested | ev.CreditRequested | ev.SlipVoided
                    | cage_events.FillIssued)


def _carried(event: CarriedEvent) -> bool:
    """A late change to a session of a sealed day, booked in a later open day (``booked_day``:
    ``casino.selectors.booking_day``)."""
    return event.booked_day is not None and event.booked_day != event.gaming_day


def _jsonb(value: Any) -> str:
    """A JSON value as the text a ``%s::jsonb`` parameter takes."""
    return canonical_text(value)


@register
class DropBoxProjection(Projection):
    """The count room: each closed session's drop box, its count by two counters, the cage's
    receipt against it (``DropBoxReceived``, the cage's event on its shift's stream, read by
    type name like the slips') and the approval of any difference."""

    name = "drop_boxes"
    models = (DropBox,)

    @handles
    def counted(self, event: ev.DropBoxCounted, recorded: RecordedEvent) -> Changes:
        values = dict(casino_id=event.casino, table=event.table, gaming_day=event.gaming_day,
                      status=DropBoxStatus.COUNTED, count_id=event.count_id,
                      count_number=event.count_number, cash=event.cash, amount=event.amount,
                      counted_by=_actor(recorded), counted_at=recorded.recorded_at,
                      version=recorded.version)
        yield Upsert(DropBox, {"session_id": event.session_id}, values=values, set=values)

    @handles
    def confirmed(self, event: ev.DropBoxCountConfirmed, recorded: RecordedEvent) -> Changes:
        yield Update(DropBox, {"session_id": event.session_id}, set={
            "status": DropBoxStatus.CONFIRMED, "confirmed_by": _actor(recorded),
            "confirmed_at": recorded.recorded_at, "version": recorded.version})

    @handles
    def received(self, event: cage_events.DropBoxReceived, recorded: RecordedEvent) -> Changes:
        if not event.count_id:
            return  # received before the count room (version 1): no box was counted
        yield Update(DropBox, {"session_id": event.session_id}, set={
            "status": DropBoxStatus.RECEIVED, "receipt_id": event.receipt_id,
            "shift_id": event.shift_id, "window": event.window, "received_cash": event.cash,
            "received_amount": event.amount, "received_by": _actor(recorded),
            "received_at": recorded.recorded_at, "variance_cash": event.variance_cash,
            "variance_value": event.variance_value})

    @handles
    def variance_approved(self, event: ev.DropVarianceApproved, recorded: RecordedEvent
                          ) -> Changes:
        yield Update(DropBox, {"session_id": event.session_id}, set={
            "variance_approval_id": event.approval_id, "variance_reason": event.reason,
            "variance_approved_by": _actor(recorded),
            "variance_approved_at": recorded.recorded_at, "version": recorded.version})
