"""Projections of the cage streams into ``casino.cage.models`` (live, and rebuildable).

One handler per event type. Every event of a ``shift/…`` stream moves the shift's version, so a
service reading ``Shift.version`` appends with the right expected version.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db.models import F

from casino.eventstore.projections import Projection, handles, register
from casino.eventstore.store import RecordedEvent

from . import events as ev
from . import inventory as inv
from .models import (
    Adjustment,
    AdjustmentStatus,
    Cage,
    CageSlip,
    ChipLiability,
    ChipsInService,
    Shift,
    ShiftEntry,
    ShiftLine,
    ShiftStatus,
    SlipStatus,
)


def _cash(data: Mapping[str, int]) -> dict[Decimal, int]:
    return {Decimal(d): n for d, n in data.items()}


def _chips(data: Mapping[str, Mapping[str, int]]) -> dict[str, dict[Decimal, int]]:
    return {s: _cash(counts) for s, counts in data.items()}


def _one_set(chip_set: str, chips: Mapping[str, int]) -> inv.Inventory:
    return inv.of(chips={chip_set: _cash(chips)}) if chip_set else {}


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


def _move(shift_id: str, receipts: inv.Inventory, payments: inv.Inventory) -> None:
    """Add pieces to the shift's receipts and payments, one UPDATE per line.

    Receipts and payments of one line change in the same UPDATE, so the CHECK that expected
    stays at zero or more sees the net of the movement (change given from the cash received).
    """
    lines = set(receipts) | set(payments)
    for line in inv.sorted_lines(lines):
        row, _ = ShiftLine.objects.get_or_create(
            shift_id=shift_id, kind=line.kind, chip_set=line.chip_set,
            denomination=line.denomination,
        )
        ShiftLine.objects.filter(pk=row.pk).update(
            receipts=F("receipts") + receipts.get(line, 0),
            payments=F("payments") + payments.get(line, 0),
        )


def _entry(recorded: RecordedEvent, *, reference: str = "", amount_in: Decimal = inv.ZERO,
           amount_out: Decimal = inv.ZERO, details: dict[str, Any] | None = None) -> None:
    shift_id = recorded.stream_id
    ShiftEntry.objects.create(
        shift_id=shift_id, version=recorded.version, event_type=recorded.event_type,
        reference=reference, amount_in=amount_in, amount_out=amount_out,
        actor=_actor(recorded), recorded_at=recorded.recorded_at,
        details=details if details is not None else dict(recorded.data),
    )
    Shift.objects.filter(id=shift_id).update(version=recorded.version)


def _touch(recorded: RecordedEvent, **changes: Any) -> None:
    Shift.objects.filter(id=recorded.stream_id).update(version=recorded.version, **changes)


@register
class CageProjection(Projection):
    name = "cage"
    models = (Cage, Shift, ShiftLine, ShiftEntry, CageSlip, Adjustment, ChipsInService,
              ChipLiability)

    # --- configuration ----------------------------------------------------------------------

    @handles("CageConfigured")
    def configured(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.CageConfigured)
        Cage.objects.create(casino_id=event.casino, code=event.code, name=event.name,
                            kind=event.kind, minimum_cash=event.minimum_cash,
                            version=recorded.version)

    @handles("CageMinimumCashChanged")
    def minimum_changed(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.CageMinimumCashChanged)
        casino, _, code = recorded.stream_id.partition(".")
        Cage.objects.filter(casino_id=casino, code=code).update(
            minimum_cash=event.minimum_cash, version=recorded.version)

    # --- opening ------------------------------------------------------------------------------

    @handles("ShiftOpened")
    def opened(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.ShiftOpened)
        Shift.objects.create(
            id=event.shift_id, casino_id=event.casino, cage=event.window, cage_kind=event.kind,
            gaming_day=event.gaming_day, status=ShiftStatus.OPEN, basis=event.basis,
            previous_shift_id=event.previous_shift_id, opened_by=_actor(recorded),
            opened_at=recorded.recorded_at, version=recorded.version,
        )
        opening = inv.of(_cash(event.cash), _chips(event.chips))
        ShiftLine.objects.bulk_create(
            ShiftLine(shift_id=event.shift_id, kind=line.kind, chip_set=line.chip_set,
                      denomination=line.denomination, opening=opening[line])
            for line in inv.sorted_lines(opening)
        )
        Cage.objects.filter(casino_id=event.casino, code=event.window).update(
            last_shift_id=event.shift_id)
        ShiftEntry.objects.create(
            shift_id=event.shift_id, version=recorded.version, event_type=recorded.event_type,
            reference=event.basis, amount_in=inv.ZERO, amount_out=inv.ZERO,
            actor=_actor(recorded), recorded_at=recorded.recorded_at,
            details={"basis": event.basis, "previous_shift_id": event.previous_shift_id,
                     "opening_value": str(inv.value(opening))},
        )

    # --- movements ----------------------------------------------------------------------------

    @handles("ChipsSold")
    def chips_sold(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.ChipsSold)
        cash_in = inv.of(_cash(event.cash))
        out = inv.add(_one_set(event.chip_set, event.chips), inv.of(_cash(event.change)))
        _move(event.shift_id, cash_in, out)
        _entry(recorded, reference=event.transaction_id, amount_in=inv.value(cash_in),
               amount_out=inv.value(out))

    @handles("ChipsRedeemed")
    def chips_redeemed(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.ChipsRedeemed)
        chips_in = _one_set(event.chip_set, event.chips)
        cash_out = inv.of(_cash(event.cash))
        _move(event.shift_id, chips_in, cash_out)
        _entry(recorded, reference=event.transaction_id, amount_in=event.amount,
               amount_out=event.amount)

    @handles("FillIssued")
    def fill_issued(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.FillIssued)
        _move(event.shift_id, {}, _one_set(event.chip_set, event.chips))
        CageSlip.objects.create(
            casino_id=recorded.metadata.get("casino", ""), kind="fill", number=event.slip,
            shift_id=event.shift_id, status=SlipStatus.ISSUED, session_id=event.session_id,
            table=event.table, amount=event.amount)
        _entry(recorded, reference=f"fill {event.slip} → {event.table}", amount_out=event.amount)

    @handles("CreditReceived")
    def credit_received(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.CreditReceived)
        _move(event.shift_id, _one_set(event.chip_set, event.chips), {})
        CageSlip.objects.create(
            casino_id=recorded.metadata.get("casino", ""), kind="credit", number=event.slip,
            shift_id=event.shift_id, status=SlipStatus.RECEIVED, session_id=event.session_id,
            table=event.table, amount=event.amount)
        _entry(recorded, reference=f"credit {event.slip} ← {event.table}", amount_in=event.amount)

    @handles("SlipRefused")
    def slip_refused(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.SlipRefused)
        _entry(recorded, reference=f"{event.kind} {event.slip} refused")

    @handles("TransferSent")
    def transfer_sent(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.TransferSent)
        _move(event.shift_id, {}, inv.of(_cash(event.cash), _chips(event.chips)))
        _entry(recorded, reference=f"to {event.to_window}", amount_out=event.amount)

    @handles("TransferReceived")
    def transfer_received(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.TransferReceived)
        _move(event.shift_id, inv.of(_cash(event.cash), _chips(event.chips)), {})
        _entry(recorded, reference=f"from {event.from_window}", amount_in=event.amount)

    @handles("JackpotPaid")
    def jackpot_paid(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotPaid)
        out = inv.add(inv.of(_cash(event.cash)), _one_set(event.chip_set, event.chips))
        _move(event.shift_id, {}, out)
        _entry(recorded, reference=f"pool {event.pool_id} round {event.round_id}",
               amount_out=event.amount)

    @handles("DropBoxReceived")
    def drop_box_received(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.DropBoxReceived)
        _move(event.shift_id, inv.of(_cash(event.cash)), {})
        _entry(recorded, reference=f"drop {event.table}", amount_in=event.amount)

    @handles("AdjustmentRequested")
    def adjustment_requested(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.AdjustmentRequested)
        Adjustment.objects.create(
            id=event.adjustment_id, shift_id=event.shift_id, direction=event.direction,
            cash=event.cash, chips=event.chips, amount=event.amount, reason=event.reason,
            status=AdjustmentStatus.REQUESTED, requested_by=_actor(recorded))
        _entry(recorded, reference=f"adjustment {event.direction} (requested)")

    @handles("AdjustmentApproved")
    def adjustment_approved(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.AdjustmentApproved)
        moved = inv.of(_cash(event.cash), _chips(event.chips))
        if event.direction == "in":
            _move(event.shift_id, moved, {})
        else:
            _move(event.shift_id, {}, moved)
        Adjustment.objects.filter(id=event.adjustment_id).update(
            status=AdjustmentStatus.APPROVED, decided_by=_actor(recorded), note=event.note)
        _entry(recorded, reference=f"adjustment {event.direction} (approved)",
               amount_in=event.amount if event.direction == "in" else inv.ZERO,
               amount_out=event.amount if event.direction == "out" else inv.ZERO)

    @handles("AdjustmentRejected")
    def adjustment_rejected(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.AdjustmentRejected)
        Adjustment.objects.filter(id=event.adjustment_id).update(
            status=AdjustmentStatus.REJECTED, decided_by=_actor(recorded), note=event.note)
        _entry(recorded, reference="adjustment (rejected)")

    @handles("ChipsPutIntoService")
    def chips_into_service(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.ChipsPutIntoService)
        chips = _one_set(event.chip_set, event.chips)
        _move(event.shift_id, chips, {})
        _service(recorded, event.chip_set, event.chips, sign=1)
        _entry(recorded, reference=event.reference, amount_in=event.amount)

    @handles("ChipsTakenOutOfService")
    def chips_out_of_service(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.ChipsTakenOutOfService)
        _move(event.shift_id, {}, _one_set(event.chip_set, event.chips))
        _service(recorded, event.chip_set, event.chips, sign=-1)
        _entry(recorded, reference=event.reason, amount_out=event.amount)

    @handles("CageCashFellBelowMinimum", "CageCashRestoredAboveMinimum")
    def minimum_alert(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.CageCashFellBelowMinimum | ev.CageCashRestoredAboveMinimum)
        _entry(recorded, reference=f"cash {event.cash_value} / minimum {event.minimum_cash}")

    # --- counting and closing -----------------------------------------------------------------

    @handles("ShiftCounted")
    def counted(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.ShiftCounted)
        counted = inv.of(_cash(event.cash), _chips(event.chips))
        ShiftLine.objects.filter(shift_id=event.shift_id).update(counted=0)
        for line in inv.sorted_lines(counted):
            ShiftLine.objects.update_or_create(
                shift_id=event.shift_id, kind=line.kind, chip_set=line.chip_set,
                denomination=line.denomination, defaults={"counted": counted[line]})
        _touch(recorded, status=ShiftStatus.COUNTED, count_number=event.count_number,
               counted_by=_actor(recorded), counted_at=recorded.recorded_at,
               variance_value=event.variance_value, explanation="", explained_by="",
               approved_count=None, approved_by="")
        _entry(recorded, reference=f"count {event.count_number}",
               details={"count_number": event.count_number,
                        "variance_value": str(event.variance_value)})

    @handles("VarianceExplained")
    def variance_explained(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.VarianceExplained)
        _touch(recorded, explanation=event.explanation, explained_by=_actor(recorded))
        _entry(recorded, reference=f"count {event.count_number} explained")

    @handles("VarianceApproved")
    def variance_approved(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.VarianceApproved)
        _touch(recorded, approved_count=event.count_number, approved_by=_actor(recorded))
        _entry(recorded, reference=f"count {event.count_number} approved")

    @handles("ShiftClosed")
    def closed(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.ShiftClosed)
        _touch(recorded, status=ShiftStatus.CLOSED, closed_by=_actor(recorded),
               closed_at=recorded.recorded_at)
        _entry(recorded, reference=f"closed on count {event.count_number}",
               details={"variance_value": str(event.variance_value)})

    # --- gaming day ---------------------------------------------------------------------------

    @handles("ChipsInCirculationRecorded")
    def circulation_recorded(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.ChipsInCirculationRecorded)
        figures = (event.in_service, event.in_cages, event.in_vaults, event.in_table_trays,
                   event.in_circulation)
        denominations = sorted({Decimal(d) for f in figures for d in f}, reverse=True)
        ChipLiability.objects.bulk_create(
            ChipLiability(
                casino_id=event.casino, gaming_day=event.gaming_day, denomination=d,
                in_service=event.in_service.get(str(d), 0),
                in_cages=event.in_cages.get(str(d), 0),
                in_vaults=event.in_vaults.get(str(d), 0),
                in_table_trays=event.in_table_trays.get(str(d), 0),
                in_circulation=event.in_circulation.get(str(d), 0),
                table_trays_known=event.table_trays_known,
            )
            for d in denominations
        )


def _service(recorded: RecordedEvent, chip_set: str, chips: Mapping[str, int], *, sign: int) -> None:
    casino = recorded.metadata.get("casino", "")
    for denomination, pieces in chips.items():
        row, _ = ChipsInService.objects.get_or_create(
            casino_id=casino, chip_set=chip_set, denomination=Decimal(denomination),
            defaults={"pieces": 0})
        ChipsInService.objects.filter(pk=row.pk).update(pieces=F("pieces") + sign * pieces)
