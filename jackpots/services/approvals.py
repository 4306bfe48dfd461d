"""Four eyes on a jackpot meter: a correction of a pool's meter (or its hidden reserve) is a kind
of approval, ``jackpot_meter_correction`` (``docs/approvals.md``, ``docs/jackpots.md`` § Meter
corrections).

Asked by the person logged in (a cage supervisor, an accountant or an administrator: the meter is
a liability in the books, not a figure of the pit, so a pit boss neither asks nor approves) with a
reason from the list below and words; approved by another person, an accountant or an
administrator. The correction (``JackpotMeterCorrected``, with the approval's id) is recorded,
and posted to the ledger, only when approved, in the approval's transaction.

Registered when the jackpot services are imported (``jackpots.services``, imported by the app's
``ready()``), so the kind is known wherever the app is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from casino import approvals as rules
from casino.errors import Conflict, InvalidCommand, gettext_noop
from casino.models import Approval, Role
from casino.money import fmt, parse_amount
from casino.services.approvals import Prepared, procedure
from eventstore import store
from eventstore.records import Metadata
from jackpots.events import JackpotMeterCorrected
from jackpots.models import JackpotPool

from ..answers import MeterCorrectionAnswer
from ._common import pool_for_update, pool_get

METER_CORRECTION = rules.kind(
    "jackpot_meter_correction", gettext_noop("a jackpot meter correction"),
    [
        ("carried_over", gettext_noop("Meter carried over from a previous system or display")),
        ("display_fault", gettext_noop("The display or controller showed a wrong figure")),
        ("recording_error", gettext_noop("A coup or contribution was recorded wrongly")),
        ("audit_finding", gettext_noop("Correction found by an audit or the regulator")),
        ("reserve_transfer", gettext_noop("Money moved between the reserve and the pool")),
    ],
    request_roles=[Role.CAGE_SUPERVISOR, Role.ACCOUNTANT, Role.ADMINISTRATOR],
    approve_roles=[Role.ACCOUNTANT, Role.ADMINISTRATOR],
)

METERS = {"pool": "pool", "reserve": "reserve"}
DIRECTIONS = ("up", "down")

# Messages tests and screens rely on.
METER_NEGATIVE = gettext_noop("the {meter} holds {before}: it cannot go down by {amount}")


def _meter(pool: JackpotPool, meter: str) -> Decimal:
    held: Decimal = pool.amount if meter == "pool" else pool.reserve
    return held


def _after(pool: JackpotPool, meter: str, direction: str, amount: Decimal) -> tuple[Decimal,
                                                                                  Decimal]:
    before = _meter(pool, meter)
    after = before + amount if direction == "up" else before - amount
    if after < 0:
        raise Conflict(METER_NEGATIVE, params=dict(meter=meter, before=fmt(before), amount=fmt(amount)),
                       code="meter_negative", field="amount")
    return before, after


def _details(details: Mapping[str, Any]) -> tuple[str, str, Decimal]:
    meter = str(details.get("meter") or "")
    if meter not in METERS:
        raise InvalidCommand("the meter corrected is the pool or the reserve", field="meter")
    direction = str(details.get("direction") or "")
    if direction not in DIRECTIONS:
        raise InvalidCommand("a correction goes up or down", field="direction")
    return meter, direction, parse_amount(details.get("amount"), field="amount")


def meter_correction_prepare(subject: str, details: Mapping[str, Any], metadata: Metadata
                             ) -> Prepared:
    """The pool exists in this casino and the meter would not go below zero now (checked again
    when approved: the meter moves meanwhile)."""
    pool = pool_get(metadata.casino, subject)
    meter, direction, amount = _details(details)
    before, after = _after(pool, meter, direction, amount)
    what = "meter" if meter == "pool" else "reserve"
    return Prepared(
        subject=pool.pool_id, amount=amount,
        summary=(f"jackpot pool {pool.pool_id}: {what} {direction} by {fmt(amount)} "
                 f"(now {fmt(before)}, would be {fmt(after)})"),
        details={"meter": meter, "direction": direction, "amount": fmt(amount)})


def meter_correction_apply(approval: Approval, metadata: Metadata) -> MeterCorrectionAnswer:
    """Approved: the correction is recorded on the pool's stream, with the approval's id, the
    asker and the approver (the ledger posts it: ``docs/ledger.md``)."""
    meter, direction, amount = _details(approval.details)
    pool = pool_for_update(metadata.casino, approval.subject)
    before, after = _after(pool, meter, direction, amount)
    store.append(pool.stream, [JackpotMeterCorrected(
        pool_id=pool.pool_id, meter=meter, direction=direction, amount=amount, before=before,
        after=after, reason=approval.reason, requested_by=approval.requested_by,
        approved_by=metadata.actor, approval_id=str(approval.id),
        explanation=approval.explanation)], expected_version=pool.version, metadata=metadata)
    return MeterCorrectionAnswer(pool_id=pool.pool_id, meter=meter, direction=direction,
                                 amount=fmt(amount), before=fmt(before), after=fmt(after),
                                 version=pool.version + 1)


procedure(METER_CORRECTION, prepare=meter_correction_prepare, apply=meter_correction_apply)
