"""A cashier shift: open on the previous count, count blind at the end, explain, approve, close.

The next cashier accepts the previous closing count by naming its shift, or disputes it with
their own count; a cage supervisor who did not dispute resolves the dispute, and only then does
the shift open (``docs/cage.md``, *Opening*).

States: ``open`` (movements allowed) → ``counted`` (blind count entered; recount allowed until a
variance is approved) → ``closed``. A variance on any denomination needs an explanation and a
cage supervisor's approval, never by the person who counted, before the shift may close. The
closing count becomes the cage's contents and the next shift's opening.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import IntegrityError, transaction

from cage.roles import CAGE_ROLES, SUPERVISOR_ROLES
from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotAllowed, gettext_noop
from casino.money import CASH_DENOMINATIONS, fmt, parse_counts
from eventstore import clock, store
from eventstore.commands import command
from eventstore.events import Event
from eventstore.history import read_stream
from eventstore.records import Metadata, RecordedEvent

from .. import inventory as inv
from ..answers import (
    CountLine,
    OpeningDisputeAnswer,
    OpeningDisputeResolveAnswer,
    ShiftCloseAnswer,
    ShiftCountAnswer,
    ShiftOpenAnswer,
    VarianceApproveAnswer,
    VarianceExplainAnswer,
    VarianceRefuseAnswer,
)
from ..events import (
    ShiftClosed,
    ShiftCounted,
    ShiftOpened,
    ShiftOpeningDisputed,
    ShiftOpeningDisputeResolved,
    VarianceApproved,
    VarianceExplained,
    VarianceRefused,
)
from ..models import (
    AdjustmentStatus,
    Cage,
    CageKind,
    DisputeStatus,
    OpeningDispute,
    Shift,
    ShiftStatus,
)
from ._common import (
    alert_if_crossed,
    append,
    cage_get,
    cash_data,
    casino_get,
    chips_data,
    count_of,
    expected,
    holdings,
    shift_get,
    text,
)

# Messages tests and screens rely on.
LIVE_SHIFT_EXISTS = gettext_noop("{cage} already has a shift that is not closed")
ACCEPT_PREVIOUS = gettext_noop("{cage} opens on the closing count of its last shift; accept that count "
                               "or dispute it (a blind count is only for a cage that was never counted)")
NAME_PREVIOUS = gettext_noop("{cage} opens on the closing count of shift {previous}: look at that count and "
                             "accept it by naming the shift, or dispute it with your own count")
DISPUTE_MATCHES = gettext_noop("your count is the closing count of shift {previous}: accept it instead of "
                               "disputing it")
OWN_DISPUTE = gettext_noop("you disputed this opening: another cage supervisor must resolve it")
OUTCOMES = {"previous_count": "dispute_previous", "disputed_count": "dispute_count"}
OPENING_DISPUTED = gettext_noop("the opening of shift {shift} is disputed: a cage supervisor resolves it "
                                "before the shift is counted or closed")
BLIND_COUNT_NEEDED = gettext_noop("{cage} was never counted: open it with a blind count of what it holds")
VARIANCE_NOT_APPROVED = gettext_noop("count {count} differs from what the shift should hold: the variance "
                                     "needs an explanation and a cage supervisor's approval before closing")
OWN_VARIANCE = gettext_noop("you counted this shift: another cage supervisor must approve its variance")
FOREIGN_NOT_ACCEPTED = gettext_noop("{currency} is not a currency {casino} accepts: its notes are not "
                                    "counted at a window")
FOREIGN_NOT_COUNTED = gettext_noop("the shift received {amount} {currency}: count its {currency} notes too "
                                   "(every denomination, a zero as zero)")
FOREIGN_NO_RATE = gettext_noop("no {currency} rate is posted: a variance in {currency} is valued at its last "
                               "posted rate")


@command("shift_open")
def shift_open(
    *,
    cage: str,
    metadata: Metadata,
    accept_previous: str | None = None,
    cash: object = None,
    chips: object = None,
) -> ShiftOpenAnswer:
    """Open a shift at ``cage``: on the previous shift's closing count, or blind when none.

    ``accept_previous`` names the shift whose closing count the cashier was shown and accepts
    (``selectors.previous_count``): required where there is one, and refused if another shift closed
    since, rather than taking over figures nobody saw. A cashier who does not accept it records
    a dispute instead (``shift_opening_dispute``).
    """
    require_role(metadata, CAGE_ROLES, "opening a shift")
    casino = casino_get(metadata)
    where = cage_get(casino.code, cage)
    label = _opening_checks(where, metadata)
    previous = _previous(where)
    if previous is not None:
        if cash is not None or chips is not None:
            raise InvalidCommand(ACCEPT_PREVIOUS, params=dict(cage=label), field="cash",
                                 previous_shift=str(previous.id))
        _check_named(label, previous, accept_previous, field="accept_previous")
        opening = count_of(previous)
        basis = "previous_count"
    else:
        if cash is None and chips is None:
            raise InvalidCommand(BLIND_COUNT_NEEDED, params=dict(cage=label), field="cash")
        if accept_previous:
            raise InvalidCommand("{label} has no previous count to accept",
                                 params={"label": label},
                                 field="accept_previous")
        opening = holdings(casino, cash, chips)
        basis = "blind_count"

    shift_id = str(uuid.uuid4())
    event = ShiftOpened(
        shift_id=shift_id, casino=casino.code, window=where.code, kind=where.kind,
        gaming_day=casino.gaming_day(clock.now()), basis=basis,
        previous_shift_id=str(previous.id) if previous else None,
        cash=cash_data(inv.cash_part(opening)), chips=chips_data(inv.chips_part(opening)),
    )
    recorded = _append_new(f"shift/{shift_id}", [event], metadata, label)
    shift = Shift.objects.get(id=shift_id)
    alert_if_crossed(shift, where, None, inv.value(opening, inv.CASH), metadata)
    return ShiftOpenAnswer(shift_id=shift_id, cage=where.code, basis=basis,
                           gaming_day=event.gaming_day.isoformat(),
                           previous_shift_id=event.previous_shift_id,
                           opening_value=fmt(inv.value(opening)), version=recorded[-1].version)


def _opening_checks(where: Cage, metadata: Metadata) -> str:
    """Who may open ``where`` and whether it is free; its label for messages."""
    if where.kind == CageKind.VAULT:
        require_role(metadata, SUPERVISOR_ROLES, "opening the vault")
    label = f"{where.get_kind_display().lower()} {where.code}"
    if Shift.objects.filter(casino_id=where.casino_id, cage=where.code).exclude(
            status=ShiftStatus.CLOSED).exists():
        raise Conflict(LIVE_SHIFT_EXISTS, params=dict(cage=label), code="shift_open_already")
    return label


def _previous(where: Cage) -> Shift | None:
    return Shift.objects.filter(id=where.last_shift_id).first() if where.last_shift_id else None


def _check_named(label: str, previous: Shift, named: object, *, field: str) -> None:
    """The cashier names the shift whose closing count they were shown: no name, no opening."""
    if named in (None, ""):
        raise InvalidCommand(NAME_PREVIOUS, params=dict(cage=label, previous=previous.id),
                             field=field, previous_shift=str(previous.id))
    if str(named) != str(previous.id):
        raise Conflict("the last count of {label} is that of shift {id}, "
                       "not {named}: look at it again",
                       params={"label": label, "id": previous.id, "named": named}, field=field,
                       previous_shift=str(previous.id))


def _append_new(stream: str, events: Sequence[Event],
                metadata: Metadata, label: str) -> list[RecordedEvent]:
    try:
        with transaction.atomic():
            return store.append(stream, events, expected_version=0, metadata=metadata)
    except IntegrityError as exc:
        # the partial unique index: another cashier opened this cage a moment ago
        raise Conflict(LIVE_SHIFT_EXISTS, params=dict(cage=label),
                       code="shift_open_already") from exc


@command("shift_opening_dispute")
def shift_opening_dispute(*, cage: str, previous_shift: str, cash: object, chips: object = None,
                          reason: str, metadata: Metadata) -> OpeningDisputeAnswer:
    """The next cashier does not accept the previous closing count: their count and why.

    The count is a full one (every denomination, ``holdings(complete=True)``). The shift is
    recorded, ``disputed``: nobody else opens the cage, and it takes no movement and takes over
    no figure until a cage supervisor who did not dispute resolves it
    (``shift_opening_dispute_resolve``).
    """
    require_role(metadata, CAGE_ROLES, "disputing an opening count")
    casino = casino_get(metadata)
    where = cage_get(casino.code, cage)
    label = _opening_checks(where, metadata)
    previous = _previous(where)
    if previous is None:
        raise InvalidCommand("{label} was never counted: there is no count to dispute; open "
                             "it with a blind count",
                             params={"label": label}, field="previous_shift")
    _check_named(label, previous, previous_shift, field="previous_shift")
    why = text(reason, field="reason")
    counted = holdings(casino, cash, chips, complete=True)
    if counted == count_of(previous):
        raise InvalidCommand(DISPUTE_MATCHES, params=dict(previous=previous.id), field="cash",
                             code="dispute_matches")

    shift_id = str(uuid.uuid4())
    event = ShiftOpeningDisputed(
        shift_id=shift_id, casino=casino.code, window=where.code, kind=where.kind,
        gaming_day=casino.gaming_day(clock.now()), previous_shift_id=str(previous.id),
        cash=cash_data(inv.cash_part(counted)), chips=chips_data(inv.chips_part(counted)),
        reason=why)
    recorded = _append_new(f"shift/{shift_id}", [event], metadata, label)
    difference = inv.variance(count_of(previous), counted)
    return OpeningDisputeAnswer(shift_id=shift_id, cage=where.code, status=ShiftStatus.DISPUTED,
                                previous_shift_id=str(previous.id),
                                difference_value=fmt(inv.value(difference)), version=recorded[-1].version)


@command("shift_opening_dispute_resolve")
def shift_opening_dispute_resolve(*, shift_id: str, accept: str, note: str,
                                  metadata: Metadata) -> OpeningDisputeResolveAnswer:
    """A cage supervisor who did not dispute chooses the count the shift opens on.

    ``accept``: ``previous_count`` (the previous shift's closing count stands) or
    ``disputed_count`` (the disputing cashier's count: the ledger posts the difference from the
    previous closing count to the cage's over/short account, as a closing variance is).
    """
    require_role(metadata, SUPERVISOR_ROLES, "resolving a disputed opening")
    casino = casino_get(metadata)
    shift = shift_get(metadata, shift_id)
    if shift.status != ShiftStatus.DISPUTED:
        raise Conflict("shift {id} is {shift}: there is no "
                       "dispute waiting",
                       params={"id": shift.id, "shift": shift.get_status_display().lower()}, code="no_dispute")
    dispute = OpeningDispute.objects.get(shift=shift)
    if dispute.status != DisputeStatus.OPEN:  # pragma: no cover (the shift's status says so)
        raise Conflict("the dispute is resolved already", code="no_dispute")
    if metadata.actor == dispute.disputed_by:
        raise NotAllowed(OWN_DISPUTE, code="four_eyes")
    basis = OUTCOMES.get(accept) if isinstance(accept, str) else None
    if basis is None:
        raise InvalidCommand("accept previous_count or disputed_count, not {accept!r}",
                             params={"accept": accept},
                             field="accept")
    remark = text(note, field="note")
    previous = Shift.objects.get(id=dispute.previous_shift_id)
    if basis == "dispute_previous":
        opening = count_of(previous)
    else:
        opening = holdings(casino, dispute.cash, dispute.chips)
    where = cage_get(casino.code, shift.cage)

    resolved = ShiftOpeningDisputeResolved(
        shift_id=str(shift.id), window=shift.cage, previous_shift_id=str(previous.id),
        outcome=accept, note=remark)
    opened = ShiftOpened(
        shift_id=str(shift.id), casino=casino.code, window=shift.cage, kind=shift.cage_kind,
        gaming_day=shift.gaming_day, basis=basis, previous_shift_id=str(previous.id),
        cash=cash_data(inv.cash_part(opening)), chips=chips_data(inv.chips_part(opening)))
    recorded = store.append(shift.stream, [resolved, opened], expected_version=shift.version,
                            metadata=metadata)
    shift.version = recorded[-1].version
    alert_if_crossed(shift, where, None, inv.value(opening, inv.CASH), metadata)
    return OpeningDisputeResolveAnswer(shift_id=str(shift.id), cage=shift.cage, basis=basis, outcome=accept,
                                       previous_shift_id=str(previous.id), disputed_by=dispute.disputed_by,
                                       opening_value=fmt(inv.value(opening)), version=shift.version)


def _variance(shift: Shift) -> inv.Inventory:
    return inv.variance(expected(shift), count_of(shift))

# --- foreign notes at a window (docs/cage.md, *Foreign notes at a window*) -------------------


def _foreign_expected(shift: Shift) -> dict[str, dict[str, int]]:
    from ..selectors import foreign_expected

    return foreign_expected(shift)


def _last_count(shift: Shift) -> ShiftCounted | None:
    """The shift's last count as recorded (its foreign notes are kept in the stream only)."""
    for recorded in reversed(read_stream(shift.stream)):
        if recorded.event_type == ShiftCounted.event_type:
            event = recorded.event
            assert isinstance(event, ShiftCounted)
            return event
    return None


def _value(counts: Mapping[str, int]) -> Decimal:
    return sum((Decimal(d) * n for d, n in counts.items()), inv.ZERO)


def _foreign_count(casino_code: str, raw: object, should: Mapping[str, Mapping[str, int]]
                   ) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, Any]]]:
    """The foreign notes counted, per currency (every denomination of each currency the
    window received, a zero as zero), and per currency that differs its variance, valued in
    the book currency at the currency's last posted middle rate."""
    from exchange import selectors as exchange  # the rates are the exchange's (a contract's line)

    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise InvalidCommand("foreign is a count per currency, each by denomination",
                             field="foreign")
    accepted = exchange.accepted_currencies(casino_code)
    counted: dict[str, dict[str, int]] = {}
    for currency, counts in raw.items():
        if currency not in accepted or currency not in CASH_DENOMINATIONS:
            raise InvalidCommand(FOREIGN_NOT_ACCEPTED,
                                 params=dict(currency=currency, casino=casino_code),
                                 field="foreign")
        parsed = parse_counts(counts, allowed=CASH_DENOMINATIONS[currency],
                              field=f"foreign.{currency}")
        counted[currency] = {f"{d:.2f}": n for d, n in parsed.items() if n}
    for currency, lines in should.items():
        if currency not in counted and _value(lines):
            raise InvalidCommand(FOREIGN_NOT_COUNTED,
                                 params=dict(amount=fmt(_value(lines)), currency=currency),
                                 field="foreign")
    variance: dict[str, dict[str, Any]] = {}
    for currency in sorted(set(counted) | set(should)):
        got, want = counted.get(currency, {}), should.get(currency, {})
        cash = {d: got.get(d, 0) - want.get(d, 0) for d in sorted(
            set(got) | set(want), key=Decimal, reverse=True)}
        cash = {d: n for d, n in cash.items() if n}
        if not cash:
            continue
        rate = exchange.middle_rate(casino_code, currency)
        if rate is None:
            raise InvalidCommand(FOREIGN_NO_RATE, params=dict(currency=currency), field="foreign")
        amount = _value(cash)
        value = (amount * rate).quantize(inv.ZERO, rounding=ROUND_HALF_UP)
        variance[currency] = {"cash": cash, "amount": fmt(amount), "rate": str(rate),
                              "value": fmt(value)}
    return counted, variance


def _foreign_differs(shift: Shift) -> bool:
    last = _last_count(shift)
    return bool(last is not None and last.foreign_variance)



@command("shift_count")
def shift_count(*, shift_id: str, cash: object, chips: object = None,
                metadata: Metadata, foreign: object = None) -> ShiftCountAnswer:
    """The blind closing count. The answer (expected, counted, variance) comes after it.

    Every denomination is typed, a zero as zero (``holdings(complete=True)``): a box left
    empty is refused, naming it. A recount is allowed until a variance is approved; the stream
    numbers the counts.
    """
    require_role(metadata, CAGE_ROLES, "counting a shift")
    casino = casino_get(metadata)
    shift = shift_get(metadata, shift_id)
    if shift.status == ShiftStatus.CLOSED:
        raise Conflict("shift {id} is closed", params={"id": shift.id}, code="shift_closed")
    if shift.status == ShiftStatus.DISPUTED:
        raise Conflict(OPENING_DISPUTED, params=dict(shift=shift.id), code="opening_disputed")
    if shift.status == ShiftStatus.COUNTED and shift.approved_count == shift.count_number:
        raise Conflict("the variance of count {count_number} is approved: close the shift",
                       params={"count_number": shift.count_number},
                       code="variance_approved_already")
    if shift.adjustments.filter(status=AdjustmentStatus.REQUESTED).exists():
        raise Conflict("an adjustment is waiting for approval: approve or reject it before "
                       "counting", code="adjustment_pending")
    counted = holdings(casino, cash, chips, complete=True)
    foreign_counted, foreign_variance = _foreign_count(casino.code, foreign,
                                                        _foreign_expected(shift))

    should = expected(shift)
    difference = inv.variance(should, counted)
    value = inv.value(difference)
    number = shift.count_number + 1
    append(shift, [ShiftCounted(
        shift_id=str(shift.id), window=shift.cage, count_number=number,
        cash=cash_data(inv.cash_part(counted)), chips=chips_data(inv.chips_part(counted)),
        variance_cash=cash_data(inv.cash_part(difference)),
        variance_chips=chips_data(inv.chips_part(difference)),
        variance_value=value,
        foreign=foreign_counted, foreign_variance=foreign_variance,
    )], metadata)
    # the answer, once the count is in: what the shift should hold, what was counted, the
    # difference, line by line (the first the counting cashier sees of the expected figures)
    lines = [CountLine(kind=line.kind, chip_set=line.chip_set,
                       denomination=fmt(line.denomination), expected=should.get(line, 0),
                       counted=counted.get(line, 0), variance=difference.get(line, 0))
             for line in inv.sorted_lines(set(should) | set(counted))]
    return ShiftCountAnswer(shift_id=str(shift.id), count_number=number,
                            balanced=not difference and not foreign_variance,
                            variance_value=fmt(value), lines=lines, version=shift.version,
                            foreign_variance=foreign_variance)


def _require_variance(shift: Shift) -> inv.Inventory:
    if shift.status != ShiftStatus.COUNTED:
        raise Conflict("shift {id} is {shift}: "
                       "there is no count waiting",
                       params={"id": shift.id, "shift": shift.get_status_display().lower()}, code="not_counted")
    difference = _variance(shift)
    if not difference and not _foreign_differs(shift):
        raise InvalidCommand("count {count_number} matches: there is no variance",
                             params={"count_number": shift.count_number},
                             code="no_variance")
    return difference


@command("variance_explain")
def variance_explain(*, shift_id: str, explanation: str, metadata: Metadata) -> VarianceExplainAnswer:
    require_role(metadata, CAGE_ROLES, "explaining a variance")
    shift = shift_get(metadata, shift_id)
    why = text(explanation, field="explanation")
    _require_variance(shift)

    append(shift, [VarianceExplained(shift_id=str(shift.id), window=shift.cage,
                                     count_number=shift.count_number, explanation=why)],
           metadata)
    return VarianceExplainAnswer(shift_id=str(shift.id), count_number=shift.count_number,
                                 version=shift.version)


@command("variance_approve")
def variance_approve(*, shift_id: str, metadata: Metadata, note: str = "") -> VarianceApproveAnswer:
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
        raise Conflict("count {count_number} is approved already",
                       params={"count_number": shift.count_number}, code="approved_already")
    remark = text(note, field="note", required=False)

    value = shift.variance_value if shift.variance_value is not None else inv.ZERO
    append(shift, [VarianceApproved(shift_id=str(shift.id), window=shift.cage,
                                    count_number=shift.count_number, variance_value=value,
                                    note=remark)], metadata)
    return VarianceApproveAnswer(shift_id=str(shift.id), count_number=shift.count_number,
                                 variance_value=fmt(value), version=shift.version)


@command("variance_refuse")
def variance_refuse(*, shift_id: str, note: str, metadata: Metadata) -> VarianceRefuseAnswer:
    """A cage supervisor refuses the explained variance (never the person who counted), saying
    why: the explanation is set aside, and the cashier counts again or explains it again."""
    require_role(metadata, SUPERVISOR_ROLES, "refusing a variance")
    shift = shift_get(metadata, shift_id)
    _require_variance(shift)
    if metadata.actor == shift.counted_by:
        raise NotAllowed(OWN_VARIANCE, code="four_eyes")
    if not shift.explanation:
        raise Conflict("the variance is not explained yet: the cashier explains it first",
                       code="variance_unexplained")
    if shift.approved_count == shift.count_number:
        raise Conflict("count {count_number} is approved already",
                       params={"count_number": shift.count_number}, code="approved_already")
    why = text(note, field="note")

    append(shift, [VarianceRefused(shift_id=str(shift.id), window=shift.cage,
                                   count_number=shift.count_number, note=why)], metadata)
    return VarianceRefuseAnswer(shift_id=str(shift.id), count_number=shift.count_number,
                                version=shift.version)


@command("shift_close")
def shift_close(*, shift_id: str, metadata: Metadata) -> ShiftCloseAnswer:
    """Close a counted shift. Refused while a variance is not explained and approved."""
    require_role(metadata, CAGE_ROLES, "closing a shift")
    shift = shift_get(metadata, shift_id)
    if shift.status == ShiftStatus.CLOSED:
        raise Conflict("shift {id} was closed already by {closed_by}",
                       params={"id": shift.id, "closed_by": shift.closed_by},
                       code="shift_closed")
    if shift.status == ShiftStatus.DISPUTED:
        raise Conflict(OPENING_DISPUTED, params=dict(shift=shift.id), code="opening_disputed")
    if shift.status == ShiftStatus.OPEN:
        raise Conflict("count the shift before closing it", code="not_counted")
    difference = _variance(shift)
    last = _last_count(shift)
    foreign_variance = last.foreign_variance if last is not None else {}
    if (difference or foreign_variance) and shift.approved_count != shift.count_number:
        raise Conflict(VARIANCE_NOT_APPROVED, params=dict(count=shift.count_number),
                       code="variance_not_approved",
                       variance_value=fmt(inv.value(difference)))

    counted = count_of(shift)
    value = inv.value(difference)
    append(shift, [ShiftClosed(shift_id=str(shift.id), window=shift.cage,
                               count_number=shift.count_number,
                               cash=cash_data(inv.cash_part(counted)),
                               chips=chips_data(inv.chips_part(counted)),
                               variance_value=value,
                               foreign=last.foreign if last is not None else {},
                               foreign_variance=foreign_variance)], metadata)
    return ShiftCloseAnswer(shift_id=str(shift.id), closed=True, count_number=shift.count_number,
                            variance_value=fmt(value), closing_value=fmt(inv.value(counted)),
                            version=shift.version)
