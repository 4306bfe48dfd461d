"""A cashier shift: open on the previous count, count blind at the end, explain, approve, close.

States: ``open`` (movements allowed) → ``counted`` (blind count entered; recount allowed until a
variance is approved) → ``closed``. A variance on any denomination needs an explanation and a
cage supervisor's approval, never by the person who counted, before the shift may close. The
closing count becomes the cage's contents and the next shift's opening.
"""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.eventstore import store
from casino.eventstore.commands import command
from casino.eventstore.store import Metadata
from casino.money import fmt

from .. import inventory as inv
from ..events import ShiftClosed, ShiftCounted, ShiftOpened, VarianceApproved, VarianceExplained
from ..models import AdjustmentStatus, CageKind, Shift, ShiftStatus
from ._common import (
    CAGE_ROLES,
    SUPERVISOR_ROLES,
    Result,
    alert_if_crossed,
    append,
    cage_get,
    cash_counts,
    cash_data,
    casino_get,
    chip_set_counts,
    chips_data,
    count_of,
    expected,
    require_role,
    shift_get,
    text,
)

# Messages tests and screens rely on.
LIVE_SHIFT_EXISTS = "{cage} already has a shift that is not closed"
ACCEPT_PREVIOUS = ("{cage} opens on the closing count of its last shift; accept that count "
                   "(a blind count is only for a cage that was never counted)")
BLIND_COUNT_NEEDED = "{cage} was never counted: open it with a blind count of what it holds"
VARIANCE_NOT_APPROVED = ("count {count} differs from what the shift should hold: the variance "
                         "needs an explanation and a cage supervisor's approval before closing")
OWN_VARIANCE = "you counted this shift: another cage supervisor must approve its variance"


@command("shift_open")
def shift_open(
    *,
    cage: str,
    metadata: Metadata,
    accept_previous: str | None = None,
    cash: object = None,
    chips: object = None,
) -> Result:
    """Open a shift at ``cage``: on the previous shift's closing count, or blind when none.

    ``accept_previous`` (optional) names the shift whose count the cashier looked at: if another
    shift closed since, the opening is refused rather than taking over figures nobody saw.
    """
    require_role(metadata, CAGE_ROLES, "opening a shift")
    casino = casino_get(metadata)
    where = cage_get(casino.code, cage)
    if where.kind == CageKind.VAULT:
        require_role(metadata, SUPERVISOR_ROLES, "opening the vault")
    label = f"{where.get_kind_display().lower()} {where.code}"
    if Shift.objects.filter(casino=casino, cage=where.code).exclude(
            status=ShiftStatus.CLOSED).exists():
        raise Conflict(LIVE_SHIFT_EXISTS.format(cage=label), code="shift_open_already")
    previous = Shift.objects.filter(id=where.last_shift_id).first() if where.last_shift_id else None
    if previous is not None:
        if cash is not None or chips is not None:
            raise InvalidCommand(ACCEPT_PREVIOUS.format(cage=label), field="cash",
                                 previous_shift=str(previous.id))
        if accept_previous and str(accept_previous) != str(previous.id):
            raise Conflict(f"the last count of {label} is that of shift {previous.id}, "
                           f"not {accept_previous}: look at it again",
                           previous_shift=str(previous.id))
        opening = count_of(previous)
        basis = "previous_count"
    else:
        if cash is None and chips is None:
            raise InvalidCommand(BLIND_COUNT_NEEDED.format(cage=label), field="cash")
        if accept_previous:
            raise InvalidCommand(f"{label} has no previous count to accept",
                                 field="accept_previous")
        opening = inv.of(cash_counts(casino, cash), chip_set_counts(casino, chips))
        basis = "blind_count"

    shift_id = str(uuid.uuid4())
    event = ShiftOpened(
        shift_id=shift_id, casino=casino.code, window=where.code, kind=where.kind,
        gaming_day=casino.gaming_day(timezone.now()), basis=basis,
        previous_shift_id=str(previous.id) if previous else None,
        cash=cash_data(inv.cash_part(opening)), chips=chips_data(inv.chips_part(opening)),
    )
    try:
        with transaction.atomic():
            recorded = store.append(f"shift/{shift_id}", [event], expected_version=0,
                                    metadata=metadata)
    except IntegrityError as exc:
        # the partial unique index: another cashier opened this cage a moment ago
        raise Conflict(LIVE_SHIFT_EXISTS.format(cage=label),
                       code="shift_open_already") from exc
    shift = Shift.objects.get(id=shift_id)
    alert_if_crossed(shift, where, None, inv.value(opening, inv.CASH), metadata)
    return {"shift_id": shift_id, "cage": where.code, "basis": basis,
            "gaming_day": event.gaming_day.isoformat(),
            "previous_shift_id": event.previous_shift_id,
            "opening_value": fmt(inv.value(opening)), "version": recorded[-1].version}


def _variance(shift: Shift) -> inv.Inventory:
    return inv.variance(expected(shift), count_of(shift))


@command("shift_count")
def shift_count(*, shift_id: str, cash: object, chips: object = None,
                metadata: Metadata) -> Result:
    """The blind closing count. The answer (expected, counted, variance) comes after it.

    A recount is allowed until a variance is approved; the stream numbers the counts.
    """
    require_role(metadata, CAGE_ROLES, "counting a shift")
    casino = casino_get(metadata)
    shift = shift_get(metadata, shift_id)
    if shift.status == ShiftStatus.CLOSED:
        raise Conflict(f"shift {shift.id} is closed", code="shift_closed")
    if shift.status == ShiftStatus.COUNTED and shift.approved_count == shift.count_number:
        raise Conflict(f"the variance of count {shift.count_number} is approved: close the shift",
                       code="variance_approved_already")
    if shift.adjustments.filter(status=AdjustmentStatus.REQUESTED).exists():
        raise Conflict("an adjustment is waiting for approval: approve or reject it before "
                       "counting", code="adjustment_pending")
    counted = inv.of(cash_counts(casino, cash, required=True), chip_set_counts(casino, chips))

    difference = inv.variance(expected(shift), counted)
    value = inv.value(difference)
    number = shift.count_number + 1
    append(shift, [ShiftCounted(
        shift_id=str(shift.id), window=shift.cage, count_number=number,
        cash=cash_data(inv.cash_part(counted)), chips=chips_data(inv.chips_part(counted)),
        variance_cash=cash_data(inv.cash_part(difference)),
        variance_chips=chips_data(inv.chips_part(difference)),
        variance_value=value,
    )], metadata)
    return {"shift_id": str(shift.id), "count_number": number, "balanced": not difference,
            "variance_value": fmt(value), "version": shift.version}


def _require_variance(shift: Shift) -> inv.Inventory:
    if shift.status != ShiftStatus.COUNTED:
        raise Conflict(f"shift {shift.id} is {shift.get_status_display().lower()}: "
                       "there is no count waiting", code="not_counted")
    difference = _variance(shift)
    if not difference:
        raise InvalidCommand(f"count {shift.count_number} matches: there is no variance",
                             code="no_variance")
    return difference


@command("variance_explain")
def variance_explain(*, shift_id: str, explanation: str, metadata: Metadata) -> Result:
    require_role(metadata, CAGE_ROLES, "explaining a variance")
    shift = shift_get(metadata, shift_id)
    why = text(explanation, field="explanation")
    _require_variance(shift)

    append(shift, [VarianceExplained(shift_id=str(shift.id), window=shift.cage,
                                     count_number=shift.count_number, explanation=why)],
           metadata)
    return {"shift_id": str(shift.id), "count_number": shift.count_number,
            "version": shift.version}


@command("variance_approve")
def variance_approve(*, shift_id: str, metadata: Metadata, note: str = "") -> Result:
    """A cage supervisor accepts the explained variance; never the person who counted."""
    require_role(metadata, SUPERVISOR_ROLES, "approving a variance")
    shift = shift_get(metadata, shift_id)
    _require_variance(shift)
    if metadata.actor == shift.counted_by:
        raise NotAllowed(OWN_VARIANCE, code="four_eyes")
    if not shift.explanation:
        raise Conflict("the variance is not explained yet: the cashier explains it first",
                       code="variance_unexplained")
    if shift.approved_count == shift.count_number:
        raise Conflict(f"count {shift.count_number} is approved already", code="approved_already")
    remark = text(note, field="note", required=False)

    value = shift.variance_value if shift.variance_value is not None else inv.ZERO
    append(shift, [VarianceApproved(shift_id=str(shift.id), window=shift.cage,
                                    count_number=shift.count_number, variance_value=value,
                                    note=remark)], metadata)
    return {"shift_id": str(shift.id), "count_number": shift.count_number,
            "variance_value": fmt(value), "version": shift.version}


@command("shift_close")
def shift_close(*, shift_id: str, metadata: Metadata) -> Result:
    """Close a counted shift. Refused while a variance is not explained and approved."""
    require_role(metadata, CAGE_ROLES, "closing a shift")
    shift = shift_get(metadata, shift_id)
    if shift.status == ShiftStatus.CLOSED:
        raise Conflict(f"shift {shift.id} was closed already by {shift.closed_by}",
                       code="shift_closed")
    if shift.status == ShiftStatus.OPEN:
        raise Conflict("count the shift before closing it", code="not_counted")
    difference = _variance(shift)
    if difference and shift.approved_count != shift.count_number:
        raise Conflict(VARIANCE_NOT_APPROVED.format(count=shift.count_number),
                       code="variance_not_approved",
                       variance_value=fmt(inv.value(difference)))

    counted = count_of(shift)
    value = inv.value(difference)
    append(shift, [ShiftClosed(shift_id=str(shift.id), window=shift.cage,
                               count_number=shift.count_number,
                               cash=cash_data(inv.cash_part(counted)),
                               chips=chips_data(inv.chips_part(counted)),
                               variance_value=value)], metadata)
    return {"shift_id": str(shift.id), "closed": True, "count_number": shift.count_number,
            "variance_value": fmt(value), "closing_value": fmt(inv.value(counted)),
            "version": shift.version}
