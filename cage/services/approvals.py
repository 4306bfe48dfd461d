"""The cage's kinds of approval (four eyes, ``casino.approvals``; ``docs/approvals.md``).

- ``late_fill``: a fill slip issued for a table session that has closed (a late slip). The
  cashier who would issue it asks, from the shift that will issue it; a pit boss, the table's
  side of the slip, approves that the chips reached that session; the fill is then issued from
  that shift, the closed session's win and the ledger's variance for it moving alike.

A credit the cage receives after its session closed needs no approval: a credit counts in the
session when the pit requests it (the chips leave the table then), so receiving it moves none
of the session's figures (``docs/tables.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cage.roles import CAGE_ROLES
from casino import approvals as rules
from casino.errors import Conflict, InvalidCommand, gettext_noop
from casino.models import Approval, Role
from casino.money import fmt
from casino.selectors import carried_note
from casino.services.approvals import Prepared, procedure
from eventstore.records import Metadata

from ..answers import SlipAnswer
from ..models import CageKind, Shift
from ._common import casino_get, require_open, shift_get
from .slips import PitSlip, issue_fill, requested_slip

LATE_FILL = rules.kind(
    "late_fill", gettext_noop("issuing a fill for a closed session"),
    [("issued_late", gettext_noop("The chips reached the table before it closed; the fill is recorded late")),
     ("system_down", gettext_noop("The system was unavailable when the chips were sent")),
     ("runner_delay", gettext_noop("The fill was carried to the table as it closed")),
     ("other", gettext_noop("Another reason (say it in words)"))],
    request_roles=CAGE_ROLES, approve_roles=[Role.PIT_BOSS])


def _shift(metadata: Metadata, shift_id: object) -> Shift:
    shift = shift_get(metadata, shift_id)
    require_open(shift)
    if shift.cage_kind == CageKind.VAULT:
        raise InvalidCommand("a fill is issued at the main cage or a cashier window, not at the "
                             "vault", field="shift")
    return shift


def _late_slip(metadata: Metadata, number: str) -> PitSlip:
    pit = requested_slip(casino_get(metadata), "fill", number, None, None)
    if not pit.session_closed:
        raise Conflict("the session of table {table} is open: issue fill slip {number} "
                       "as usual, no approval is needed",
                       params={"table": pit.table, "number": pit.number}, code="approval_not_needed")
    return pit


def _prepare(subject: str, details: Mapping[str, Any], metadata: Metadata) -> Prepared:
    shift = _shift(metadata, details.get("shift_id", ""))
    pit = _late_slip(metadata, subject)
    carried = (carried_note(casino=metadata.casino, gaming_day=pit.gaming_day)
               if pit.gaming_day is not None else "")
    return Prepared(
        subject=pit.number,
        summary=(f"issue fill slip {pit.number} ({fmt(pit.amount)}) from {shift.cage} to table "
                 f"{pit.table}, whose session of gaming day {pit.gaming_day} has closed: the "
                 f"session's table win moves by {fmt(-pit.amount)}{carried}"),
        amount=-pit.amount,
        details={"shift_id": str(shift.id), "slip": pit.number, "table": pit.table,
                 "session_id": pit.session_id, "amount": fmt(pit.amount),
                 "gaming_day": pit.gaming_day.isoformat() if pit.gaming_day else None})


def _apply(approval: Approval, metadata: Metadata) -> SlipAnswer:
    shift = _shift(metadata, approval.details.get("shift_id", ""))
    pit = _late_slip(metadata, approval.subject)
    return issue_fill(shift, pit, metadata, approval_id=str(approval.id))


procedure(LATE_FILL, prepare=_prepare, apply=_apply)

__all__ = ["LATE_FILL"]
