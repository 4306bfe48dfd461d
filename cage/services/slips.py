"""The cage side of the pit's slips: verify, then issue a fill or receive a credit, or refuse.

The pit (table operations, ``games``) owns the slips: it requests a fill or a credit on a
pre-numbered slip (``FillRequested`` / ``CreditRequested`` on ``table_session/<id>``) and voids a
slip nobody acted on (``SlipVoided``). The cage reads the slip through
``games.selectors.slip_get``, checks it is still ``requested`` (and, when the cashier keyed in the
chips, that they match), and records ``FillIssued`` or ``CreditReceived`` on its shift's stream.
The pit's slip projection reads those by type name.

Voids: the cage never voids a slip. A cashier who will not issue (wrong figures, no such chips)
records ``SlipRefused``: nothing moves, the pit's slip shows it refused with the reason, and the
pit voids it (the cage acts on it no more). Once
issued or received a slip is final for the cage; a mistake is put right by a new slip.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from cage.roles import CAGE_ROLES
from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, gettext_noop, status_words
from casino.models import Casino
from casino.money import counts_as_data, counts_value, fmt
from casino.selectors import carried_to
from eventstore.commands import command
from eventstore.records import Metadata
from games.selectors import slip_get, table_session_get

from .. import inventory as inv
from ..answers import SlipAnswer, SlipRefuseAnswer
from ..events import CreditReceived, FillIssued, SlipRefused
from ..models import CageKind, CageSlip, Shift
from ._common import (
    append,
    casino_get,
    check_holds,
    chip_counts,
    chip_set_code,
    require_open,
    shift_get,
    text,
)

REQUESTED = "requested"
SLIP_NOT_REQUESTED = gettext_noop("{kind} slip {number} is {status}: the cage acts only on a requested slip")
SLIP_CHIPS_DIFFER = gettext_noop("the chips counted ({counted}) are not those on {kind} slip {number} ({slip})")
FILL_AFTER_CLOSE = gettext_noop("the session of table {table} closed before fill slip {number} was issued: a "
                                "late fill moves the closed session's win and needs a pit boss's approval "
                                "(ask for it, kind late_fill, with a reason from the list)")


@dataclass(frozen=True)
class PitSlip:
    """What the cage reads of a pit slip."""

    kind: str
    number: str
    session_id: str
    table: str
    chips: dict[Decimal, int]
    amount: Decimal
    status: str
    chip_set: str
    session_closed: bool = False
    gaming_day: dt.date | None = None  # the session's


def pit_slip_get(*, casino: Casino, kind: str, number: str, chip_set: str | None) -> PitSlip:
    """The slip as table operations hold it (``games.selectors.slip_get``, raises NotFound;
    a named coupling of the cage to the pit, pyproject.toml)."""
    slip = slip_get(casino=casino.code, kind=kind, number=number)
    session = table_session_get(session_id=str(slip.session_id))
    return PitSlip(
        kind=kind,
        number=str(slip.number),
        session_id=str(slip.session_id),
        table=str(slip.table),
        chips={Decimal(d): int(n) for d, n in dict(slip.chips).items()},
        amount=Decimal(slip.amount),
        status=str(slip.status),
        # the slip names its chip set if table operations keep it; else the cashier's or the
        # casino's only one
        chip_set=chip_set_code(casino, getattr(slip, "chip_set", None) or chip_set),
        session_closed=session.status == "closed",
        gaming_day=session.gaming_day,
    )


def requested_slip(casino: Casino, kind: str, number: object, chip_set: str | None,
                    chips: object, *, check_figures: bool = True) -> PitSlip:
    slip_number = text(number, field="slip", limit=64)
    slip = pit_slip_get(casino=casino, kind=kind, number=slip_number, chip_set=chip_set)
    if slip.status != REQUESTED:
        raise Conflict(SLIP_NOT_REQUESTED, params=dict(
                           kind=status_words(kind, "slip kind"), number=slip.number,
                           status=status_words(slip.status, "slip status")),
                       code="slip_not_requested", slip=slip.number, status=slip.status)
    if CageSlip.objects.filter(casino=casino, kind=kind, number=slip.number).exists():
        raise Conflict("{kind} slip {number} was handled by the cage already",
                       params={"kind": status_words(kind, "slip kind"), "number": slip.number},
                       code="slip_handled", slip=slip.number)
    if not check_figures:
        return slip
    if counts_value(slip.chips) != slip.amount:
        raise InvalidCommand("{kind} slip {number} does not add up: its chips come to "
                             "{chips}, not {amount}",
                             params={"kind": status_words(kind, "slip kind"),
                                     "number": slip.number, "chips": fmt(counts_value(slip.chips)), "amount": fmt(slip.amount)},
                             code="slip_inconsistent")
    if chips is not None:
        counted = chip_counts(casino, slip.chip_set, chips)
        if {d: n for d, n in counted.items() if n} != {d: n for d, n in slip.chips.items() if n}:
            raise InvalidCommand(SLIP_CHIPS_DIFFER, params=dict(
                counted=counts_as_data(counted), kind=status_words(kind, "slip kind"),
                number=slip.number,
                slip=counts_as_data(slip.chips)), code="slip_mismatch", field="chips")
    return slip


def _counter(metadata: Metadata, shift_id: str, action: str) -> Shift:
    require_role(metadata, CAGE_ROLES, action)
    shift = shift_get(metadata, shift_id)
    require_open(shift)
    if shift.cage_kind == CageKind.VAULT:
        raise InvalidCommand("{action} is done at the main cage or a cashier window, "
                             "not at the vault", params={"action": action}, field="shift")
    return shift


@command("fill_issue")
def fill_issue(*, shift_id: str, slip: str, metadata: Metadata, chips: object = None,
               chip_set: str | None = None) -> SlipAnswer:
    """Issue the chips of a requested fill slip from this window to the table.

    ``chips``, if given, is what the cashier counted out: it must match the slip. A fill for a
    session that has closed is a late slip: only a request (``approval_request``, kind
    ``late_fill``: ``cage.services.approvals``), issued when a pit boss approves it.
    """
    shift = _counter(metadata, shift_id, "issuing a fill")
    casino = casino_get(metadata)
    pit = requested_slip(casino, "fill", slip, chip_set, chips)
    if pit.session_closed:
        raise Conflict(FILL_AFTER_CLOSE, params=dict(table=pit.table, number=pit.number),
                       code="approval_required", kind="late_fill", slip=pit.number)
    return issue_fill(shift, pit, metadata)


def issue_fill(shift: Shift, pit: PitSlip, metadata: Metadata, *,
               approval_id: str | None = None) -> SlipAnswer:
    """Record the fill ``pit`` issued from ``shift`` (open, at a counter); a fill for a closed
    session says so, with the session's gaming day (the day whose figures move)."""
    out = inv.of(chips={pit.chip_set: pit.chips})
    check_holds(shift, out, field="chips")
    append(shift, [FillIssued(
        slip=pit.number, shift_id=str(shift.id), window=shift.cage,
        session_id=pit.session_id, table=pit.table, chip_set=pit.chip_set,
        chips=counts_as_data(pit.chips), amount=pit.amount, approval_id=approval_id,
        after_close=pit.session_closed,
        gaming_day=pit.gaming_day if pit.session_closed else None,
        booked_day=(carried_to(casino=metadata.casino, gaming_day=pit.gaming_day)
                    if pit.session_closed and pit.gaming_day is not None else None)
    )], metadata,
        conflict=f"fill slip {pit.number} was issued by another window a moment ago")
    return SlipAnswer(slip=pit.number, shift_id=str(shift.id), table=pit.table,
                      amount=fmt(pit.amount), version=shift.version)


@command("credit_receive")
def credit_receive(*, shift_id: str, slip: str, metadata: Metadata, chips: object = None,
                   chip_set: str | None = None) -> SlipAnswer:
    """Take the chips of a requested credit slip from the table into this window."""
    shift = _counter(metadata, shift_id, "receiving a credit")
    casino = casino_get(metadata)
    pit = requested_slip(casino, "credit", slip, chip_set, chips)

    append(shift, [CreditReceived(
        slip=pit.number, shift_id=str(shift.id), window=shift.cage,
        session_id=pit.session_id, table=pit.table, chip_set=pit.chip_set,
        chips=counts_as_data(pit.chips), amount=pit.amount)], metadata,
        conflict=f"credit slip {pit.number} was received by another window a moment ago")
    return SlipAnswer(slip=pit.number, shift_id=str(shift.id), table=pit.table,
                      amount=fmt(pit.amount), version=shift.version)


@command("slip_refuse")
def slip_refuse(*, shift_id: str, kind: str, slip: str, reason: str, metadata: Metadata,
                chip_set: str | None = None) -> SlipRefuseAnswer:
    """Record that the cage will not act on a requested slip; the pit voids it."""
    shift = _counter(metadata, shift_id, "refusing a slip")
    casino = casino_get(metadata)
    if kind not in ("fill", "credit"):
        raise InvalidCommand("a slip is a fill or a credit, not {kind!r}",
                             params={"kind": kind}, field="kind")
    why = text(reason, field="reason")
    pit = requested_slip(casino, kind, slip, chip_set, None, check_figures=False)

    append(shift, [SlipRefused(kind=kind, slip=pit.number, shift_id=str(shift.id),
                               window=shift.cage, session_id=pit.session_id,
                               table=pit.table, reason=why)], metadata)
    return SlipRefuseAnswer(slip=pit.number, kind=kind, refused=True, version=shift.version)
