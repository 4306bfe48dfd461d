"""A meter correction as the tests make one: asked by an accountant, approved by an
administrator (the kind ``jackpot_meter_correction``, four eyes: ``docs/approvals.md``)."""

from __future__ import annotations

from typing import Any

from casino.context import person_metadata
from casino.models import Role
from casino.services.approvals import approval_grant, approval_request

CASINO = "lisboa"


def meter_correct(pool_id: str, *, meter: str = "pool", direction: str, amount: str,
                  reason: str = "carried_over", explanation: str = "meter carried over from "
                  "the previous system", casino: str = CASINO, asker: str = "contabilista",
                  approver: str = "gestor") -> dict[str, Any]:
    asked = approval_request(
        kind="jackpot_meter_correction", subject=pool_id, reason=reason,
        explanation=explanation,
        details={"meter": meter, "direction": direction, "amount": amount},
        metadata=person_metadata(username=asker, role=Role.ACCOUNTANT, casino=casino))
    granted = approval_grant(approval_id=asked.approval_id, note="checked",
                             metadata=person_metadata(username=approver,
                                                      role=Role.ADMINISTRATOR, casino=casino))
    applied: dict[str, Any] = granted.applied
    return applied
