"""The slot cashier's shift (turno da caixa das máquinas), as a cage shift is kept
(``docs/machines.md``, *The slot cashier's shift*): opened at a window on a blind count of its
cash by note; the boxes the count room brings in and the tickets and hand pays paid there while
it is open are its movements; a blind closing count; its differences (the opening's against the
window's book, the count's against the expected) explained and approved by a second person (a
cage supervisor, not the one who counted) before it closes. The ledger posts the differences to
the slot cashier's over/short (7870.W), a first shift's opening to the opening counts (2789).

States: ``open`` → ``counted`` (recount allowed until closed) → ``closed``.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import Decimal

from casino.context import require_role
from casino.errors import Conflict, NotAllowed, NotFound, gettext_noop
from casino.models import Casino, Role
from casino.money import CASH_DENOMINATIONS, ZERO, counts_as_data, counts_value, fmt, parse_counts
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from machines.answers import SlotShiftAnswer
from machines.events import (
    SlotShiftClosed,
    SlotShiftCounted,
    SlotShiftOpened,
    SlotShiftVarianceExplained,
)
from machines.models import SlotShift, SlotWindow
from machines.roles import PAY_ROLES

from ._common import casino_get, code, second_person, text

APPROVERS = (Role.CAGE_SUPERVISOR,)
LIVE_SHIFT = gettext_noop("window {window} already has a shift that is not closed ({shift})")
NOT_EXPLAINED = gettext_noop("shift {shift} differs by {variance} (opening {opening_variance}, count "
                             "{count_variance}): it needs an explanation approved by a second "
                             "person before it closes")
OWN_COUNT = gettext_noop("{name} counted this shift: another person approves its differences")


def _notes(place: Casino, notes: object) -> dict[str, int]:
    counts = parse_counts(dict(notes) if isinstance(notes, Mapping) else notes,
                          allowed=CASH_DENOMINATIONS.get(place.currency, ()), field="notes")
    return counts_as_data(counts)


def _answer(shift: SlotShift) -> SlotShiftAnswer:
    counted = shift.status != "open"
    return SlotShiftAnswer(
        casino=shift.casino_id, shift_id=shift.shift_id, window=shift.window,
        status=shift.status, opening=fmt(shift.opening), book=fmt(shift.book),
        opening_variance=fmt(shift.opening_variance), count_number=shift.count_number,
        counted=fmt(shift.counted) if counted and shift.counted is not None else "",
        expected=fmt(shift.expected) if counted and shift.expected is not None else "",
        variance=fmt(shift.variance) if counted and shift.variance is not None else "")


def slot_shift_get(casino: str, shift_id: object) -> SlotShift:
    found = SlotShift.objects.filter(casino_id=casino, shift_id=shift_id).first()
    if found is None:
        raise NotFound("there is no slot cashier's shift {shift!r} in casino {casino!r}",
                       params={"shift": shift_id, "casino": casino}, field="shift_id")
    return found


def shift_expected(shift: SlotShift) -> Decimal:
    """The opening count, plus the boxes counted into the window, less the tickets and the hand
    pays it paid, while the shift was open."""
    figure: Decimal = shift.opening + shift.boxes_in - shift.tickets_paid - shift.hand_pays_paid
    return figure


def _stream(casino: str, shift_id: str) -> str:
    return f"slot_shift/{casino}.{shift_id}"


@command("slot_shift_open")
def slot_shift_open(*, casino: str, window: str, notes: Mapping[str, int],
                    metadata: Metadata) -> SlotShiftAnswer:
    """Open a shift at ``window`` on a blind count of its cash by note. Refused while the
    window has a shift not closed."""
    require_role(metadata, PAY_ROLES, "opening a slot cashier's shift")
    place = casino_get(metadata, casino)
    where = code(window, field="window")
    counted = _notes(place, notes)
    live = SlotShift.objects.filter(casino_id=casino, window=where).exclude(
        status="closed").first()
    if live is not None:
        raise Conflict(LIVE_SHIFT, params={"window": where, "shift": live.shift_id},
                       code="shift_open", field="window")
    book_row = SlotWindow.objects.filter(casino_id=casino, window=where).first()
    book = book_row.cash if book_row is not None else ZERO
    opening = counts_value({Decimal(d): n for d, n in counted.items()})
    shift_id = uuid.uuid4().hex[:16]
    store.append(_stream(casino, shift_id), [SlotShiftOpened(
        shift_id=shift_id, window=where, gaming_day=place.gaming_day(clock.now()),
        notes=counted, opening=opening, book=book, opening_variance=opening - book,
        first=book_row is None or book_row.shifts == 0)],
        expected_version=0, metadata=metadata)
    return _answer(slot_shift_get(casino, shift_id))


@command("slot_shift_count")
def slot_shift_count(*, casino: str, shift_id: str, notes: Mapping[str, int],
                     metadata: Metadata) -> SlotShiftAnswer:
    """The blind closing count by note; the answer (expected, counted, variance) comes after
    it. A recount is allowed until the shift closes."""
    require_role(metadata, PAY_ROLES, "counting a slot cashier's shift")
    place = casino_get(metadata, casino)
    shift = slot_shift_get(casino, shift_id)
    if shift.status == "closed":
        raise Conflict("shift {shift} is closed", params={"shift": shift.shift_id},
                       code="shift_closed")
    counted_notes = _notes(place, notes)
    counted = counts_value({Decimal(d): n for d, n in counted_notes.items()})
    should = shift_expected(shift)
    store.append(_stream(casino, shift.shift_id), [SlotShiftCounted(
        shift_id=shift.shift_id, window=shift.window, count_number=shift.count_number + 1,
        notes=counted_notes, counted=counted, expected=should, variance=counted - should)],
        expected_version=shift.version, metadata=metadata)
    return _answer(slot_shift_get(casino, shift.shift_id))


def shift_differences(shift: SlotShift) -> tuple[Decimal, Decimal]:
    """What needs an explanation: the opening's difference (not on a window's first shift,
    whose count is cash brought in) and the count's."""
    opening = ZERO if shift.first else shift.opening_variance
    return opening, shift.variance if shift.variance is not None else ZERO


def shift_awaits_approval(shift: SlotShift) -> bool:
    """A counted shift whose differences (``shift_differences``) are not explained and
    approved for its last count: it may not close, nor may its gaming day."""
    return (shift.status == "counted" and any(shift_differences(shift))
            and shift.approved_count != shift.count_number)


@command("slot_shift_variance_explain")
def slot_shift_variance_explain(*, casino: str, shift_id: str, explanation: str,
                                approved_by: str, metadata: Metadata) -> SlotShiftAnswer:
    """The cashier explains the shift's differences; a cage supervisor (not the one who
    counted) approves them by name."""
    require_role(metadata, PAY_ROLES, "explaining a slot cashier's differences")
    casino_get(metadata, casino)
    shift = slot_shift_get(casino, shift_id)
    if shift.status != "counted":
        raise Conflict("shift {shift} is {status}: there is no count waiting",
                       params={"shift": shift.shift_id, "status": shift.status},
                       code="not_counted")
    if not any(shift_differences(shift)):
        raise Conflict("shift {shift} has no difference to explain",
                       params={"shift": shift.shift_id}, code="no_variance")
    why = text(explanation, field="explanation")
    approver = second_person(metadata, casino, approved_by, APPROVERS,
                             what="the slot cashier's differences")
    if approver == shift.counted_by:
        raise NotAllowed(OWN_COUNT, params={"name": approver}, code="four_eyes")
    store.append(_stream(casino, shift.shift_id), [SlotShiftVarianceExplained(
        shift_id=shift.shift_id, window=shift.window, count_number=shift.count_number,
        explanation=why, approved_by=approver)],
        expected_version=shift.version, metadata=metadata)
    return _answer(slot_shift_get(casino, shift.shift_id))


@command("slot_shift_close")
def slot_shift_close(*, casino: str, shift_id: str, metadata: Metadata) -> SlotShiftAnswer:
    """Close a counted shift: refused while a difference is not explained and approved."""
    require_role(metadata, PAY_ROLES, "closing a slot cashier's shift")
    place = casino_get(metadata, casino)
    shift = slot_shift_get(casino, shift_id)
    if shift.status == "closed":
        raise Conflict("shift {shift} is closed", params={"shift": shift.shift_id},
                       code="shift_closed")
    if shift.status == "open" or shift.counted is None or shift.expected is None:
        raise Conflict("count the shift before closing it", code="not_counted")
    opening, count = shift_differences(shift)
    if shift_awaits_approval(shift):
        raise Conflict(NOT_EXPLAINED, params={
            "shift": shift.shift_id, "variance": fmt(opening + count),
            "opening_variance": fmt(opening), "count_variance": fmt(count)},
            code="variance_not_approved")
    store.append(_stream(casino, shift.shift_id), [SlotShiftClosed(
        shift_id=shift.shift_id, window=shift.window,
        gaming_day=place.gaming_day(clock.now()), count_number=shift.count_number,
        counted=shift.counted, expected=shift.expected, variance=count)],
        expected_version=shift.version, metadata=metadata)
    return _answer(slot_shift_get(casino, shift.shift_id))
