"""Projections of the slot floor's streams into ``machines.models``: one handler per event class,
the typed event in, changes out (``eventstore.changes``). Registered, so ``rebuild_projections``
rebuilds these tables and its ``--check`` compares them with the live ones."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from eventstore.changes import Change, Insert, Update, Upsert
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent
from eventstore.writer import Reader

from . import events as ev
from . import meters as m
from .models import (
    HandPay,
    Machine,
    MachineBox,
    MachineConfigVersion,
    MachineDay,
    MachineParameter,
    MeterReading,
    SlotCashCount,
    SlotProgressive,
    SlotShift,
    SlotTicket,
    SlotWindow,
)

Changes = Iterator[Change]
ZERO = Decimal("0.00")


def _ids(recorded: RecordedEvent) -> tuple[str, str]:
    """The casino and the id of the event's stream (``machine/<casino>.<number>``: the stream id
    is what follows the type)."""
    casino, _, ident = recorded.stream_id.partition(".")
    return casino, ident


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


def _config(values: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": values["game"], "paytable": [dict(line) for line in values["paytable"]],
        "denomination": str(values["denomination"]),
        "certified_return": str(values["certified_return"]),
        "return_spread": str(values["return_spread"]),
        "hand_pay_limit": str(values["hand_pay_limit"]),
        "progressive_pool": values["progressive_pool"],
        "bank": values["bank"], "position": values["position"],
        "in_service": values["in_service"], "retired": values["retired"],
    }


def _history(machine: dict[str, Any], recorded: RecordedEvent, *, reference: str = "",
             reason: str = "") -> Insert:
    return Insert(MachineConfigVersion, dict(
        casino_id=machine["casino_id"], machine=machine["number"], version=recorded.version,
        event_type=recorded.event_type, config=_config(machine), approval_reference=reference,
        reason=reason, recorded_by=_actor(recorded), effective_at=recorded.recorded_at))


def _window_moved(casino: str, window: str, cash: Decimal, figure: str) -> Changes:
    """Cash into (or out of) a slot cashier's window: its book, and the shift open there (if
    one is: a movement outside a shift shows in the next opening's book)."""
    yield Upsert(SlotWindow, {"casino_id": casino, "window": window}, add={"cash": cash})
    yield Update(SlotShift, {"casino_id": casino, "window": window, "status": "open"},
                 add={figure: abs(cash)})


def _machine(recorded: RecordedEvent, reader: Reader) -> dict[str, Any]:
    casino, number = _ids(recorded)
    row = reader.row(Machine, casino_id=casino, number=number)
    if row is None:
        raise Machine.DoesNotExist(f"no machine {casino}/{number}")
    return row


@register
class MachinesProjection(Projection):
    name = "machines"
    models = (Machine, MachineConfigVersion, MeterReading, MachineDay, MachineBox, SlotTicket,
              HandPay, SlotProgressive, SlotCashCount, MachineParameter, SlotWindow, SlotShift)

    # --- the machine ------------------------------------------------------------------------

    @handles
    def added(self, event: ev.MachineAdded, recorded: RecordedEvent) -> Changes:
        row = dict(
            casino_id=event.casino, number=event.machine, bank=event.bank,
            position=event.position, manufacturer=event.manufacturer, model=event.model,
            serial=event.serial, game=event.game, paytable=[dict(p) for p in event.paytable],
            denomination=event.denomination, certified_return=event.certified_return,
            return_spread=event.return_spread, hand_pay_limit=event.hand_pay_limit,
            progressive_pool=event.progressive_pool, approved_on=event.approved_on,
            approval_reference=event.approval_reference, config_version=1, in_service=True,
            retired=False, added_at=recorded.recorded_at, meters=m.Meters().as_data(),
            last_reading_id="", last_read_at=None, readings=0, box_metered=ZERO,
            version=recorded.version)
        yield Insert(Machine, row)
        yield _history(row, recorded, reference=event.approval_reference)

    @handles
    def configured(self, event: ev.MachineConfigured, recorded: RecordedEvent, *,
                   reader: Reader) -> Changes:
        row = _machine(recorded, reader)
        new = dict(game=event.game, paytable=[dict(p) for p in event.paytable],
                   denomination=event.denomination, certified_return=event.certified_return,
                   return_spread=event.return_spread, hand_pay_limit=event.hand_pay_limit,
                   progressive_pool=event.progressive_pool, approved_on=event.approved_on,
                   approval_reference=event.approval_reference,
                   config_version=event.config_version)
        yield Update(Machine, {"casino_id": row["casino_id"], "number": row["number"]},
                     set={**new, "version": recorded.version})
        yield _history({**row, **new}, recorded, reference=event.approval_reference,
                       reason=event.reason)

    @handles
    def moved(self, event: ev.MachineMoved, recorded: RecordedEvent, *,
              reader: Reader) -> Changes:
        row = _machine(recorded, reader)
        new = {"bank": event.bank, "position": event.position}
        yield Update(Machine, {"casino_id": row["casino_id"], "number": row["number"]},
                     set={**new, "version": recorded.version})
        yield _history({**row, **new}, recorded, reason=event.reason)

    @handles
    def service(self, event: ev.MachineServiceChanged, recorded: RecordedEvent, *,
                reader: Reader) -> Changes:
        row = _machine(recorded, reader)
        yield Update(Machine, {"casino_id": row["casino_id"], "number": row["number"]},
                     set={"in_service": event.in_service, "version": recorded.version})
        yield _history({**row, "in_service": event.in_service}, recorded, reason=event.reason)

    @handles
    def retired(self, event: ev.MachineRetired, recorded: RecordedEvent, *,
                reader: Reader) -> Changes:
        row = _machine(recorded, reader)
        new = {"retired": True, "in_service": False}
        yield Update(Machine, {"casino_id": row["casino_id"], "number": row["number"]},
                     set={**new, "version": recorded.version})
        yield _history({**row, **new}, recorded, reference=event.approval_reference,
                       reason=event.reason)

    # --- meters ------------------------------------------------------------------------------

    @handles
    def read(self, event: ev.MetersRead | ev.MetersReset, recorded: RecordedEvent) -> Changes:
        """A reading (a batch's stream, ``meters/<casino>.<batch>``) or a reset (the machine's
        own stream): the machine is the event's."""
        casino, number = _ids(recorded)[0], event.machine
        diff = m.from_data(event.difference)
        reset = isinstance(event, ev.MetersReset)
        now = event.after if isinstance(event, ev.MetersReset) else event.meters
        moved: dict[str, Any] = {"meters": dict(now), "last_reading_id": event.reading_id,
                                 "last_read_at": event.read_at}
        if reset:
            moved["version"] = recorded.version
        yield Update(Machine, {"casino_id": casino, "number": number}, set=moved,
                     add={"readings": 1, "box_metered": diff.bills_in})
        yield Insert(MeterReading, dict(
            casino_id=casino, machine=number, reading_id=event.reading_id,
            kind=event.kind if isinstance(event, ev.MetersReset) else "reading",
            source="hand" if reset else event.source,  # type: ignore[union-attr]
            read_at=event.read_at, gaming_day=event.gaming_day,
            meters=dict(event.before if isinstance(event, ev.MetersReset) else event.meters),
            difference=dict(event.difference), win=diff.win, recorded_by=_actor(recorded),
            witnessed_by=event.witnessed_by if isinstance(event, ev.MetersReset) else "",
            version=recorded.version))
        figures = {name: getattr(diff, name) for name in m.METERS}
        figures.update(contributions=event.contribution, win=diff.win, readings=1)
        yield Upsert(MachineDay, {"casino_id": casino, "machine": number,
                                  "gaming_day": event.gaming_day},
                     add=figures)
        if event.pool and event.contribution:
            yield Update(SlotProgressive, {"casino_id": casino, "pool": event.pool},
                         add={"amount": event.contribution,
                              "contributions": event.contribution})

    # --- the count room ------------------------------------------------------------------------

    @handles
    def box_counted(self, event: ev.MachineBoxCounted, recorded: RecordedEvent) -> Changes:
        casino, number = _ids(recorded)
        yield Insert(MachineBox, dict(
            casino_id=casino, machine=number, drop_id=event.drop_id,
            gaming_day=event.gaming_day, notes=dict(event.notes), counted=event.counted,
            metered=event.metered, variance=event.variance, window=event.window,
            status="counted", counted_by=_actor(recorded)))
        # the box is emptied: what the meters put in it from now on is the next drop's
        yield Update(Machine, {"casino_id": casino, "number": number},
                     set={"version": recorded.version}, add={"box_metered": -event.metered})

    @handles
    def box_confirmed(self, event: ev.MachineBoxCountConfirmed,
                      recorded: RecordedEvent) -> Changes:
        casino, number = _ids(recorded)
        yield Update(MachineBox, {"casino_id": casino, "drop_id": event.drop_id},
                     set={"status": "confirmed", "confirmed_by": _actor(recorded)})
        yield Update(Machine, {"casino_id": casino, "number": number},
                     set={"version": recorded.version})
        yield from _window_moved(casino, event.window, event.counted, "boxes_in")

    @handles
    def box_explained(self, event: ev.MachineBoxVarianceExplained,
                      recorded: RecordedEvent) -> Changes:
        casino, number = _ids(recorded)
        yield Update(MachineBox, {"casino_id": casino, "drop_id": event.drop_id},
                     set={"explanation": event.explanation, "approved_by": event.approved_by})
        yield Update(Machine, {"casino_id": casino, "number": number},
                     set={"version": recorded.version})

    # --- tickets -------------------------------------------------------------------------------

    @handles
    def ticket_issued(self, event: ev.TicketIssued, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Insert(SlotTicket, dict(
            casino_id=casino, validation=event.validation, machine=event.machine,
            amount=event.amount, issued_at=event.issued_at, expires_on=event.expires_on,
            status="outstanding", version=recorded.version))

    @handles
    def ticket_redeemed(self, event: ev.TicketRedeemed, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Update(SlotTicket, {"casino_id": casino, "validation": event.validation},
                     set={"status": "redeemed", "place": event.place,
                          "redeemed_machine": event.machine, "window": event.window,
                          "closed_at": recorded.recorded_at, "version": recorded.version})
        if event.place != "machine":
            yield from _window_moved(casino, event.window, -event.amount, "tickets_paid")

    @handles
    def ticket_expired(self, event: ev.TicketExpired, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Update(SlotTicket, {"casino_id": casino, "validation": event.validation},
                     set={"status": "expired", "closed_at": recorded.recorded_at,
                          "version": recorded.version})

    # --- hand pays -----------------------------------------------------------------------------

    @handles
    def hand_pay_recorded(self, event: ev.HandPayRecorded, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Insert(HandPay, dict(
            casino_id=casino, handpay_id=event.handpay_id, machine=event.machine,
            kind=event.kind, amount=event.amount, machine_event=event.machine_event,
            pool=event.pool, recorded_at=recorded.recorded_at, status="recorded",
            version=recorded.version))

    @handles
    def hand_pay_paid(self, event: ev.HandPayPaid, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Update(HandPay, {"casino_id": casino, "handpay_id": event.handpay_id},
                     set={"status": "paid", "window": event.window, "slip": event.slip,
                          "paid_by": _actor(recorded), "witnessed_by": event.witnessed_by,
                          "patron": event.patron, "paid_at": recorded.recorded_at,
                          "version": recorded.version})
        yield from _window_moved(casino, event.window, -event.amount, "hand_pays_paid")

    # --- progressives --------------------------------------------------------------------------

    @handles
    def progressive_created(self, event: ev.SlotProgressiveCreated,
                            recorded: RecordedEvent) -> Changes:
        yield Insert(SlotProgressive, dict(
            casino_id=event.casino, pool=event.pool, name=event.name,
            machines=list(event.machines), rate=event.rate, start=event.start,
            amount=event.start, contributions=ZERO, hits=0, won=ZERO, funded=event.start,
            approval_reference=event.approval_reference, version=recorded.version))

    @handles
    def progressive_hit(self, event: ev.SlotProgressiveHit, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Update(SlotProgressive, {"casino_id": casino, "pool": event.pool},
                     add={"amount": event.reset_to - event.amount, "hits": 1,
                          "won": event.amount, "funded": event.reset_to},
                     set={"version": recorded.version})


    # --- the slot cashier's count ----------------------------------------------------------------

    @handles
    def slot_cash_counted(self, event: ev.SlotCashCounted, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Insert(SlotCashCount, dict(
            casino_id=casino, count_id=event.count_id, window=event.window,
            gaming_day=event.gaming_day, notes=dict(event.notes), counted=event.counted,
            counted_by=_actor(recorded), witnessed_by=event.witnessed_by,
            counted_at=recorded.recorded_at, position=recorded.position))


    @handles
    def parameter_set(self, event: ev.MachineParameterSet, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Insert(MachineParameter, dict(
            casino_id=casino, name=event.name, value=event.value,
            effective_from=event.effective_from, reference=event.reference,
            set_by=_actor(recorded), set_at=recorded.recorded_at, position=recorded.position))

    # --- the slot cashier's shift --------------------------------------------------------------

    @handles
    def shift_opened(self, event: ev.SlotShiftOpened, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Insert(SlotShift, dict(
            casino_id=casino, shift_id=event.shift_id, window=event.window,
            gaming_day=event.gaming_day, status="open", opening_notes=dict(event.notes),
            opening=event.opening, book=event.book, opening_variance=event.opening_variance,
            first=event.first, opened_by=_actor(recorded), opened_at=recorded.recorded_at,
            version=recorded.version))
        yield Upsert(SlotWindow, {"casino_id": casino, "window": event.window},
                     add={"cash": event.opening_variance, "shifts": 1})

    @handles
    def shift_counted(self, event: ev.SlotShiftCounted, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Update(SlotShift, {"casino_id": casino, "shift_id": event.shift_id}, set={
            "status": "counted", "count_number": event.count_number,
            "closing_notes": dict(event.notes), "counted": event.counted,
            "expected": event.expected, "variance": event.variance, "explanation": "",
            "approved_by": "", "counted_by": _actor(recorded), "version": recorded.version})

    @handles
    def shift_explained(self, event: ev.SlotShiftVarianceExplained,
                        recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Update(SlotShift, {"casino_id": casino, "shift_id": event.shift_id}, set={
            "explanation": event.explanation, "approved_by": event.approved_by,
            "approved_count": event.count_number, "version": recorded.version})

    @handles
    def shift_closed(self, event: ev.SlotShiftClosed, recorded: RecordedEvent) -> Changes:
        casino, _ = _ids(recorded)
        yield Update(SlotShift, {"casino_id": casino, "shift_id": event.shift_id}, set={
            "status": "closed", "closed_by": _actor(recorded),
            "closed_at": recorded.recorded_at, "closed_position": recorded.position,
            "version": recorded.version})
        yield Upsert(SlotWindow, {"casino_id": casino, "window": event.window},
                     add={"cash": event.variance})
