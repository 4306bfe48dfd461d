"""Projections of the cage streams into ``cage.models`` (live, and rebuildable).

One handler per event type: a function of the typed event and its recorded envelope that returns
changes to rows (``eventstore.changes``); none of them reads. Every event of a
``shift/…`` stream moves the shift's version, so a service reading ``Shift.version`` appends with
the right expected version.

Keys. The writer knows a row by its key's values as text, so a key is always spelt one way here:
uuids as ``uuid.UUID`` prints them, denominations with their two decimals (``_uuid``,
``_denomination``); the database would take either spelling for the same row, the writer's
merging would not.

Adding to a row that may not exist yet (a shift line, chips in service) is an ``Upsert`` that
only makes sure the row is there, then an ``Update`` by its key (``_row``), not one
``Upsert(add=…)``: PostgreSQL checks the row an ``INSERT … ON CONFLICT`` proposes against the
table's CHECK constraints before it looks for the conflict, and a row proposed with the added
pieces (payments of chips the line already holds, chips taken out of service) fails them.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any

from django.db import models

from eventstore.changes import Change, Insert, Update, Upsert
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent

from . import events as ev
from . import inventory as inv
from .models import (
    Adjustment,
    AdjustmentStatus,
    Cage,
    CageSlip,
    CasinoCheque,
    ChipCirculationDay,
    ChipLiability,
    ChipsInService,
    DisputeStatus,
    OpeningDispute,
    Shift,
    ShiftEntry,
    ShiftLine,
    ShiftStatus,
    SlipStatus,
)

Changes = Iterator[Change]
CENT = Decimal("0.01")
# A new shift line (``_row``): every movement starts from zero; ``counted`` stays NULL.
NEW_LINE = {"opening": 0, "receipts": 0, "payments": 0}
# A shift opened by a supervisor's resolution of a dispute: its row is there already.
DISPUTE_BASES = ("dispute_previous", "dispute_count")


def _uuid(value: str) -> str:
    return str(uuid.UUID(str(value)))


def _denomination(value: Decimal | str) -> Decimal:
    return Decimal(value).quantize(CENT)


def _cash(data: Mapping[str, int]) -> dict[Decimal, int]:
    return {Decimal(d): n for d, n in data.items()}


def _chips(data: Mapping[str, Mapping[str, int]]) -> dict[str, dict[Decimal, int]]:
    return {s: _cash(counts) for s, counts in data.items()}


def _one_set(chip_set: str, chips: Mapping[str, int]) -> inv.Inventory:
    return inv.of(chips={chip_set: _cash(chips)}) if chip_set else {}


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


def _casino(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("casino", ""))


def _row(model: type[models.Model], key: dict[str, Any], new: Mapping[str, Any], *,
         assign: Mapping[str, Any] | None = None, add: Mapping[str, Any] | None = None
         ) -> Changes:
    """The row with ``key`` (a unique key of ``model``), inserted with ``new`` if it is not there
    yet, then ``assign``-ed and added to. The writer proposes ``new`` alone for a row that may
    exist and adds by key after it, so the table's CHECKs see the row after the change
    (``writer._compile``, upserts)."""
    yield Upsert(model, key, new, add=add or {}, set=assign or {})


def _line_key(shift_id: str, line: inv.Line) -> dict[str, Any]:
    return {"shift_id": shift_id, "kind": line.kind, "chip_set": line.chip_set,
            "denomination": _denomination(line.denomination)}


def _move(shift_id: str, receipts: inv.Inventory, payments: inv.Inventory) -> Changes:
    """Add pieces to the shift's receipts and payments, one UPDATE per line.

    Receipts and payments of one line change in the same UPDATE (one ``Update`` adding to both;
    the writer merges the changes of one row into one statement, and a line still pending as an
    insert gets them in its INSERT), so the CHECK that expected stays at zero or more sees the
    net of the movement (change given from the cash received).
    """
    lines = set(receipts) | set(payments)
    for line in inv.sorted_lines(lines):
        yield from _row(ShiftLine, _line_key(shift_id, line), NEW_LINE,
                        add={"receipts": receipts.get(line, 0),
                             "payments": payments.get(line, 0)})


def _entry(recorded: RecordedEvent, *, reference: str = "", amount_in: Decimal = inv.ZERO,
           amount_out: Decimal = inv.ZERO, details: dict[str, Any] | None = None) -> Changes:
    shift_id = _uuid(recorded.stream_id)
    yield Insert(ShiftEntry, dict(
        shift_id=shift_id, version=recorded.version, event_type=recorded.event_type,
        reference=reference, amount_in=amount_in, amount_out=amount_out,
        actor=_actor(recorded), recorded_at=recorded.recorded_at,
        # the event's data in its current version (read through the upcasters)
        details=details if details is not None else recorded.event.to_data(),
    ))
    yield Update(Shift, {"id": shift_id}, set={"version": recorded.version})


def _cheque(recorded: RecordedEvent, number: str, *, kind: str, amount: Decimal,
            patron_id: str, shift_id: str, window: str, reference: str) -> Changes:
    """The casino cheque a payment was made with, if any (its number once in the casino)."""
    if number:
        yield Insert(CasinoCheque, dict(
            casino_id=_casino(recorded), number=number, kind=kind, amount=amount,
            patron_id=_uuid(patron_id), shift_id=_uuid(shift_id), window=window,
            reference=reference, issued_by=_actor(recorded), issued_at=recorded.recorded_at))


def _touch(recorded: RecordedEvent, **changes: Any) -> Changes:
    yield Update(Shift, {"id": _uuid(recorded.stream_id)},
                 set={"version": recorded.version, **changes})


def _service(recorded: RecordedEvent, chip_set: str, chips: Mapping[str, int], *,
             sign: int) -> Changes:
    casino = _casino(recorded)
    for denomination, pieces in chips.items():
        yield from _row(ChipsInService, {"casino_id": casino, "chip_set": chip_set,
                                         "denomination": _denomination(denomination)},
                        {"pieces": 0}, add={"pieces": sign * pieces})


@register
class CageProjection(Projection):
    name = "cage"
    # A shift's lines, entries and adjustments before the shift: a rebuild of one casino
    # deletes in this order, and finds those rows through their shift's casino (``casino_rows``),
    # which a shift deleted first would hide.
    models = (Cage, ShiftLine, ShiftEntry, Adjustment, CageSlip, CasinoCheque, OpeningDispute,
              Shift,
              ChipsInService, ChipLiability, ChipCirculationDay)

    # --- configuration ----------------------------------------------------------------------

    @handles
    def configured(self, event: ev.CageConfigured, recorded: RecordedEvent) -> Changes:
        yield Insert(Cage, dict(casino_id=event.casino, code=event.code, name=event.name,
                                kind=event.kind, minimum_cash=event.minimum_cash,
                                version=recorded.version))

    @handles
    def minimum_changed(self, event: ev.CageMinimumCashChanged, recorded: RecordedEvent
                        ) -> Changes:
        casino, _, code = recorded.stream_id.partition(".")
        yield Update(Cage, {"casino_id": casino, "code": code},
                     set={"minimum_cash": event.minimum_cash, "version": recorded.version})

    # --- opening ------------------------------------------------------------------------------

    @handles
    def opening_disputed(self, event: ev.ShiftOpeningDisputed, recorded: RecordedEvent
                         ) -> Changes:
        """The shift is there (so no one else opens the cage) but holds nothing: the cage's
        last shift stays the previous one, whose closing count is what the books hold."""
        shift_id = _uuid(event.shift_id)
        yield Insert(Shift, dict(
            id=shift_id, casino_id=event.casino, cage=event.window, cage_kind=event.kind,
            gaming_day=event.gaming_day, status=ShiftStatus.DISPUTED, basis="disputed",
            previous_shift_id=_uuid(event.previous_shift_id), opened_by=_actor(recorded),
            opened_at=recorded.recorded_at, version=recorded.version,
        ))
        yield Insert(OpeningDispute, dict(
            shift_id=shift_id, casino_id=event.casino, cage=event.window,
            previous_shift_id=_uuid(event.previous_shift_id), cash=event.cash,
            chips=event.chips, reason=event.reason, status=DisputeStatus.OPEN,
            disputed_by=_actor(recorded), disputed_at=recorded.recorded_at))
        yield Insert(ShiftEntry, dict(
            shift_id=shift_id, version=recorded.version, event_type=recorded.event_type,
            reference=f"opening disputed (count of {event.previous_shift_id})",
            amount_in=inv.ZERO, amount_out=inv.ZERO, actor=_actor(recorded),
            recorded_at=recorded.recorded_at,
            details={"previous_shift_id": event.previous_shift_id, "reason": event.reason}))

    @handles
    def opening_dispute_resolved(self, event: ev.ShiftOpeningDisputeResolved,
                                 recorded: RecordedEvent) -> Changes:
        yield Update(OpeningDispute, {"shift_id": _uuid(event.shift_id)}, set={
            "status": DisputeStatus.RESOLVED, "outcome": event.outcome, "note": event.note,
            "resolved_by": _actor(recorded), "resolved_at": recorded.recorded_at})
        yield from _entry(recorded, reference=f"dispute resolved: {event.outcome}")

    @handles
    def opened(self, event: ev.ShiftOpened, recorded: RecordedEvent) -> Changes:
        shift_id = _uuid(event.shift_id)
        if event.basis in DISPUTE_BASES:
            # the row is the disputed shift's: who disputed opened it, the supervisor resolved
            yield Update(Shift, {"id": shift_id}, set={
                "status": ShiftStatus.OPEN, "basis": event.basis, "version": recorded.version})
        else:
            yield Insert(Shift, dict(
                id=shift_id, casino_id=event.casino, cage=event.window, cage_kind=event.kind,
                gaming_day=event.gaming_day, status=ShiftStatus.OPEN, basis=event.basis,
                previous_shift_id=event.previous_shift_id, opened_by=_actor(recorded),
                opened_at=recorded.recorded_at, version=recorded.version,
            ))
        opening = inv.of(_cash(event.cash), _chips(event.chips))
        for line in inv.sorted_lines(opening):
            yield Insert(ShiftLine, {**_line_key(shift_id, line), "opening": opening[line]})
        yield Update(Cage, {"casino_id": event.casino, "code": event.window},
                     set={"last_shift_id": shift_id})
        yield Insert(ShiftEntry, dict(
            shift_id=shift_id, version=recorded.version, event_type=recorded.event_type,
            reference=event.basis, amount_in=inv.ZERO, amount_out=inv.ZERO,
            actor=_actor(recorded), recorded_at=recorded.recorded_at,
            details={"basis": event.basis, "previous_shift_id": event.previous_shift_id,
                     "opening_value": str(inv.value(opening))},
        ))

    # --- movements ----------------------------------------------------------------------------

    @handles
    def chips_sold(self, event: ev.ChipsSold, recorded: RecordedEvent) -> Changes:
        cash_in = inv.of(_cash(event.cash))
        out = inv.add(_one_set(event.chip_set, event.chips), inv.of(_cash(event.change)))
        yield from _move(_uuid(event.shift_id), cash_in, out)
        yield from _entry(recorded, reference=event.transaction_id,
                          amount_in=inv.value(cash_in), amount_out=inv.value(out))

    @handles
    def chips_redeemed(self, event: ev.ChipsRedeemed, recorded: RecordedEvent) -> Changes:
        chips_in = _one_set(event.chip_set, event.chips)
        cash_out = inv.of(_cash(event.cash))
        yield from _move(_uuid(event.shift_id), chips_in, cash_out)
        yield from _cheque(recorded, event.cheque_number, kind="redemption",
                           amount=event.amount, patron_id=event.patron_id,
                           shift_id=event.shift_id, window=event.window,
                           reference=event.transaction_id)
        # a casino cheque leaves no cash drawer: nothing of the window goes out
        yield from _entry(recorded, reference=event.transaction_id, amount_in=event.amount,
                          amount_out=inv.value(cash_out))

    @handles
    def fill_issued(self, event: ev.FillIssued, recorded: RecordedEvent) -> Changes:
        shift_id = _uuid(event.shift_id)
        yield from _move(shift_id, {}, _one_set(event.chip_set, event.chips))
        yield Insert(CageSlip, dict(
            casino_id=_casino(recorded), kind="fill", number=event.slip, shift_id=shift_id,
            status=SlipStatus.ISSUED, session_id=event.session_id, table=event.table,
            amount=event.amount))
        yield from _entry(recorded, reference=f"fill {event.slip} → {event.table}",
                          amount_out=event.amount)

    @handles
    def credit_received(self, event: ev.CreditReceived, recorded: RecordedEvent) -> Changes:
        shift_id = _uuid(event.shift_id)
        yield from _move(shift_id, _one_set(event.chip_set, event.chips), {})
        yield Insert(CageSlip, dict(
            casino_id=_casino(recorded), kind="credit", number=event.slip, shift_id=shift_id,
            status=SlipStatus.RECEIVED, session_id=event.session_id, table=event.table,
            amount=event.amount))
        yield from _entry(recorded, reference=f"credit {event.slip} ← {event.table}",
                          amount_in=event.amount)

    @handles
    def slip_refused(self, event: ev.SlipRefused, recorded: RecordedEvent) -> Changes:
        yield from _entry(recorded, reference=f"{event.kind} {event.slip} refused")

    @handles
    def transfer_sent(self, event: ev.TransferSent, recorded: RecordedEvent) -> Changes:
        yield from _move(_uuid(event.shift_id), {},
                         inv.of(_cash(event.cash), _chips(event.chips)))
        yield from _entry(recorded, reference=f"to {event.to_window}", amount_out=event.amount)

    @handles
    def transfer_received(self, event: ev.TransferReceived, recorded: RecordedEvent
                          ) -> Changes:
        yield from _move(_uuid(event.shift_id),
                         inv.of(_cash(event.cash), _chips(event.chips)), {})
        yield from _entry(recorded, reference=f"from {event.from_window}",
                          amount_in=event.amount)

    @handles
    def jackpot_paid(self, event: ev.JackpotPaid, recorded: RecordedEvent) -> Changes:
        out = inv.add(inv.of(_cash(event.cash)), _one_set(event.chip_set, event.chips))
        yield from _move(_uuid(event.shift_id), {}, out)
        yield from _cheque(recorded, event.cheque_number, kind="jackpot", amount=event.amount,
                           patron_id=event.patron_id, shift_id=event.shift_id,
                           window=event.window, reference=event.payout_id)
        yield from _entry(recorded, reference=f"pool {event.pool_id} round {event.round_id}",
                          amount_out=inv.value(out))

    @handles
    def drop_box_received(self, event: ev.DropBoxReceived, recorded: RecordedEvent
                          ) -> Changes:
        if event.currency:
            # a foreign table's notes go to the cage's foreign holdings (the exchange's
            # projection), not into the window's book-currency count (docs/currencies.md)
            yield from _entry(recorded, reference=f"drop {event.table} ({event.currency} "
                                                  f"{event.amount})")
            return
        yield from _move(_uuid(event.shift_id), inv.of(_cash(event.cash)), {})
        yield from _entry(recorded, reference=f"drop {event.table}", amount_in=event.amount)

    @handles
    def adjustment_requested(self, event: ev.AdjustmentRequested, recorded: RecordedEvent
                             ) -> Changes:
        yield Insert(Adjustment, dict(
            id=_uuid(event.adjustment_id), shift_id=_uuid(event.shift_id),
            direction=event.direction, cash=event.cash, chips=event.chips, amount=event.amount,
            reason=event.reason, status=AdjustmentStatus.REQUESTED,
            requested_by=_actor(recorded)))
        yield from _entry(recorded, reference=f"adjustment {event.direction} (requested)")

    @handles
    def adjustment_approved(self, event: ev.AdjustmentApproved, recorded: RecordedEvent
                            ) -> Changes:
        moved = inv.of(_cash(event.cash), _chips(event.chips))
        shift_id = _uuid(event.shift_id)
        if event.direction == "in":
            yield from _move(shift_id, moved, {})
        else:
            yield from _move(shift_id, {}, moved)
        yield Update(Adjustment, {"id": _uuid(event.adjustment_id)}, set={
            "status": AdjustmentStatus.APPROVED, "decided_by": _actor(recorded),
            "note": event.note})
        yield from _entry(recorded, reference=f"adjustment {event.direction} (approved)",
                          amount_in=event.amount if event.direction == "in" else inv.ZERO,
                          amount_out=event.amount if event.direction == "out" else inv.ZERO)

    @handles
    def adjustment_rejected(self, event: ev.AdjustmentRejected, recorded: RecordedEvent
                            ) -> Changes:
        yield Update(Adjustment, {"id": _uuid(event.adjustment_id)}, set={
            "status": AdjustmentStatus.REJECTED, "decided_by": _actor(recorded),
            "note": event.note})
        yield from _entry(recorded, reference="adjustment (rejected)")

    @handles
    def chips_into_service(self, event: ev.ChipsPutIntoService, recorded: RecordedEvent
                           ) -> Changes:
        yield from _move(_uuid(event.shift_id), _one_set(event.chip_set, event.chips), {})
        yield from _service(recorded, event.chip_set, event.chips, sign=1)
        yield from _entry(recorded, reference=event.reference, amount_in=event.amount)

    @handles
    def chips_out_of_service(self, event: ev.ChipsTakenOutOfService, recorded: RecordedEvent
                             ) -> Changes:
        yield from _move(_uuid(event.shift_id), {}, _one_set(event.chip_set, event.chips))
        yield from _service(recorded, event.chip_set, event.chips, sign=-1)
        yield from _entry(recorded, reference=event.reason, amount_out=event.amount)

    @handles
    def minimum_alert(self, event: ev.CageCashFellBelowMinimum | ev.CageCashRestoredAboveMinimum,
                      recorded: RecordedEvent) -> Changes:
        yield from _entry(recorded,
                          reference=f"cash {event.cash_value} / minimum {event.minimum_cash}")

    # --- counting and closing -----------------------------------------------------------------

    @handles
    def counted(self, event: ev.ShiftCounted, recorded: RecordedEvent) -> Changes:
        shift_id = _uuid(event.shift_id)
        counted = inv.of(_cash(event.cash), _chips(event.chips))
        # Every line of the shift (not a unique key: the writer sends what is pending first).
        yield Update(ShiftLine, {"shift_id": shift_id}, set={"counted": 0})
        for line in inv.sorted_lines(counted):
            yield from _row(ShiftLine, _line_key(shift_id, line), NEW_LINE,
                            assign={"counted": counted[line]})
        yield from _touch(recorded, status=ShiftStatus.COUNTED, count_number=event.count_number,
                          counted_by=_actor(recorded), counted_at=recorded.recorded_at,
                          variance_value=event.variance_value, explanation="", explained_by="",
                          approved_count=None, approved_by="")
        yield from _entry(recorded, reference=f"count {event.count_number}",
                          details={"count_number": event.count_number,
                                   "variance_value": str(event.variance_value)})

    @handles
    def variance_explained(self, event: ev.VarianceExplained, recorded: RecordedEvent
                           ) -> Changes:
        yield from _touch(recorded, explanation=event.explanation, explained_by=_actor(recorded))
        yield from _entry(recorded, reference=f"count {event.count_number} explained")

    @handles
    def variance_approved(self, event: ev.VarianceApproved, recorded: RecordedEvent
                          ) -> Changes:
        yield from _touch(recorded, approved_count=event.count_number,
                          approved_by=_actor(recorded))
        yield from _entry(recorded, reference=f"count {event.count_number} approved")

    @handles
    def variance_refused(self, event: ev.VarianceRefused, recorded: RecordedEvent
                         ) -> Changes:
        # the explanation is set aside: the cashier explains again or counts again
        yield from _touch(recorded, explanation="", explained_by="")
        yield from _entry(recorded, reference=f"count {event.count_number} refused")

    @handles
    def closed(self, event: ev.ShiftClosed, recorded: RecordedEvent) -> Changes:
        yield from _touch(recorded, status=ShiftStatus.CLOSED, closed_by=_actor(recorded),
                          closed_at=recorded.recorded_at)
        yield from _entry(recorded, reference=f"closed on count {event.count_number}",
                          details={"variance_value": str(event.variance_value)})

    # --- gaming day ---------------------------------------------------------------------------

    @handles
    def circulation_recorded(self, event: ev.ChipsInCirculationRecorded,
                             recorded: RecordedEvent) -> Changes:
        yield Insert(ChipCirculationDay, dict(
            casino_id=event.casino, gaming_day=event.gaming_day, as_at=event.as_at,
            position=event.position, open_tables=event.open_tables,
            jackpot_slots=event.jackpot_slots, value=event.value, state=event.state))
        figures = (event.in_service, event.in_cages, event.in_vaults, event.in_table_trays,
                   event.in_transit, event.in_circulation)
        denominations = sorted({Decimal(d) for f in figures for d in f}, reverse=True)
        for d in denominations:
            yield Insert(ChipLiability, dict(
                casino_id=event.casino, gaming_day=event.gaming_day, denomination=d,
                in_service=event.in_service.get(str(d), 0),
                in_cages=event.in_cages.get(str(d), 0),
                in_vaults=event.in_vaults.get(str(d), 0),
                in_table_trays=event.in_table_trays.get(str(d), 0),
                in_transit=event.in_transit.get(str(d), 0),
                in_circulation=event.in_circulation.get(str(d), 0),
                table_trays_known=event.table_trays_known,
            ))
