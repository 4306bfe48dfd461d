"""Enhanced diligence for a politically exposed patron (Lei n.º 83/2017, art. 39.º, n.º 1):
before their movements of a gaming day reach the identification threshold, the source of the
funds is recorded and a member of senior management approves (``docs/patrons.md``).

Within the approvals model (``casino.approvals``, ``docs/approvals.md``): kind ``pep_movement``.
The cage or the pit asks (subject: the patron), giving the source of funds as the reason (a code
from the list) and, in words, the evidence seen (the kind of document, never a name or a number:
the words enter the approval's event); the compliance officer or an administrator (senior
management), not the asker, approves the patron's movements of that gaming day up to an amount.
``pep_check`` (called by ``screening.movement_check``) refuses the movement until the approvals
granted for the day cover the day's total with it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from casino import approvals as rules
from casino.errors import Conflict, InvalidCommand, Words, gettext_noop
from casino.models import Approval, ApprovalStatus, Role
from casino.money import fmt, parse_amount
from casino.services.approvals import Prepared, procedure
from eventstore import clock
from eventstore.records import Metadata

from ..answers import PepMovementAnswer
from ..models import Patron, PatronStatus
from ._common import casino_get, patron_get

PEP_MOVEMENT = rules.kind(
    "pep_movement", gettext_noop("a politically exposed patron's movements at the threshold"),
    [("salary", gettext_noop("Salary or pension")),
     ("business", gettext_noop("Business or professional income")),
     ("savings", gettext_noop("Savings")),
     ("sale_of_assets", gettext_noop("Sale of property or other assets")),
     ("inheritance", gettext_noop("Inheritance or gift")),
     ("winnings", gettext_noop("Winnings documented elsewhere")),
     ("other", gettext_noop("Another source (say which kind of evidence in words)"))],
    request_roles=[Role.CASHIER, Role.CAGE_SUPERVISOR, Role.PIT_BOSS, Role.COMPLIANCE_OFFICER],
    approve_roles=[Role.COMPLIANCE_OFFICER, Role.ADMINISTRATOR])

# Messages tests and screens rely on.
NOT_PEP = gettext_noop("patron {patron} is not recorded as a politically exposed person: their "
                       "movements need no enhanced diligence")
PEP_REQUIRED = gettext_noop("patron {patron} is a politically exposed person: with {what} of {amount} their "
                "movements today come to {total}, {threshold} or more, which needs enhanced "
                "diligence first ({source}): the source of the funds recorded and the approval "
                "of the compliance officer or senior management (approval kind pep_movement){so_far}")


def is_pep(patron: Patron) -> bool:
    """Whether the patron's sealed data says they are politically exposed (opened here only)."""
    from ..selectors import patron_identity  # reads the vault

    identity = patron_identity(patron)
    return bool(identity and identity.get("pep"))


def approved_up_to(casino: str, patron_id: str, day: dt.date) -> Decimal:
    total = Approval.objects.filter(
        casino_id=casino, kind=PEP_MOVEMENT.name, status=ApprovalStatus.GRANTED,
        details__patron_id=patron_id, details__gaming_day=day.isoformat(),
    ).aggregate(s=Sum("amount"))["s"]
    return total or Decimal("0.00")


def pep_check(*, casino: str, patron: Patron, gaming_day: dt.date, what: str, amount: Decimal,
              total: Decimal, threshold: Decimal, source: str) -> None:
    """Refuse (``pep_approval_required``) a politically exposed patron's movement that brings
    the day's total to ``total`` (at or above the threshold) beyond what was approved."""
    if not source or not is_pep(patron):
        return
    approved = approved_up_to(casino, str(patron.patron_id), gaming_day)
    if approved >= total:
        return
    so_far = (Words("; approved so far up to {approved}", approved=fmt(approved)) if approved
              else "")
    raise Conflict(PEP_REQUIRED, params={"patron": patron.patron_id, "what": what,
                                         "amount": fmt(amount), "total": fmt(total),
                                         "threshold": fmt(threshold), "source": source,
                                         "so_far": so_far},
                   code="pep_approval_required", field="patron", approved=fmt(approved))


def _prepare(subject: str, details: Mapping[str, Any], metadata: Metadata) -> Prepared:
    patron = patron_get(metadata.casino, subject, field="subject")
    if patron.status != PatronStatus.VERIFIED:
        raise Conflict("patron {patron} is not verified: verify their document first",
                       params={"patron": patron.patron_id}, code="verification_required", field="subject")
    if not is_pep(patron):
        raise Conflict(NOT_PEP, params={"patron": patron.patron_id}, code="approval_not_needed",
                       field="subject")
    casino = casino_get(metadata.casino)
    raw_day = details.get("gaming_day") or casino.gaming_day(clock.now()).isoformat()
    try:
        day = dt.date.fromisoformat(str(raw_day))
    except ValueError:
        raise InvalidCommand("{day!r} is not a gaming day (YYYY-MM-DD)",
                             params={"day": raw_day}, field="gaming_day") from None
    amount = parse_amount(details.get("amount"), field="amount")
    from ..selectors import patron_identity  # reads the vault

    identity = patron_identity(patron) or {}
    return Prepared(
        private=tuple(str(identity.get(f) or "") for f in ("document_number", "date_of_birth",
                                                          "address")),
        private_names=(str(identity.get("name") or ""),),
        subject=f"{patron.patron_id}/{day.isoformat()}",
        summary=(f"movements of politically exposed patron {patron.patron_id} on gaming day "
                 f"{day.isoformat()} up to {fmt(amount)} in all, the source of the funds "
                 f"recorded (Lei n.º 83/2017, art. 39.º, n.º 1, b) and c))"),
        amount=amount,
        details={"patron_id": str(patron.patron_id), "gaming_day": day.isoformat(),
                 "amount": fmt(amount)})


def _apply(approval: Approval, metadata: Metadata) -> PepMovementAnswer:
    """Nothing moves: the approval itself is what the movement's check reads."""
    return PepMovementAnswer(patron_id=approval.details.get("patron_id"),
                             gaming_day=approval.details.get("gaming_day"),
                             approved_up_to=approval.details.get("amount"))


procedure(PEP_MOVEMENT, prepare=_prepare, apply=_apply)

__all__ = ["PEP_MOVEMENT", "approved_up_to", "pep_check"]
