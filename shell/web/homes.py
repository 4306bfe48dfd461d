"""What waits for each person of the cage on their home page, casino by casino.

* a cashier: their open shift (a link straight to it) and the pit's slips waiting for the cage;
* a cage supervisor: what waits for their approval (variances counted and explained,
  adjustments, opening disputes (the approvals they may give: ``shell.web.waiting``);
* the count team (cashiers and cage supervisors in the count room): the boxes to count or to
  count again.

Read from the projections only, a few small queries per casino.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cage.models import Adjustment, AdjustmentStatus, OpeningDispute, Shift, ShiftStatus
from casino.models import Role
from games.models import DropBox, SessionStatus, Slip, SlipStatus, TableSession


@dataclass
class CageWork:
    shifts: list[Any] = field(default_factory=list)  # the cashier's live shifts
    slips: list[Any] = field(default_factory=list)  # the pit's slips waiting for the cage
    variances: list[Any] = field(default_factory=list)  # counted shifts awaiting approval
    adjustments: list[Any] = field(default_factory=list)
    disputes: list[Any] = field(default_factory=list)
    boxes_to_count: list[Any] = field(default_factory=list)
    boxes_to_confirm: list[Any] = field(default_factory=list)

    @property
    def anything(self) -> bool:
        return any((self.shifts, self.slips, self.variances, self.adjustments, self.disputes,
                    self.boxes_to_count, self.boxes_to_confirm))



def cage_work(casino: str, roles: set[str], username: str) -> CageWork | None:
    """What waits for this person at the cage of ``casino``; None when they have no cage role."""

    cashier, supervisor = Role.CASHIER in roles, Role.CAGE_SUPERVISOR in roles
    if not (cashier or supervisor):
        return None
    work = CageWork()
    if cashier:
        work.shifts = list(Shift.objects.filter(casino_id=casino, opened_by=username)
                           .exclude(status=ShiftStatus.CLOSED).order_by("cage"))
    work.slips = list(Slip.objects.filter(casino_id=casino, status=SlipStatus.REQUESTED)
                      .order_by("requested_at")[:20])
    counted = DropBox.objects.filter(casino_id=casino).values_list("session_id", flat=True)
    work.boxes_to_count = list(TableSession.objects.filter(
        casino_id=casino, status=SessionStatus.CLOSED).exclude(session_id__in=counted)
        .order_by("-closed_at")[:20])
    work.boxes_to_confirm = list(DropBox.objects.filter(
        casino_id=casino, status="counted").exclude(counted_by=username)[:20])
    if supervisor:
        work.variances = [s for s in Shift.objects.filter(casino_id=casino,
                                                          status=ShiftStatus.COUNTED)
                          if s.variance_value and s.explanation
                          and s.approved_count != s.count_number and s.counted_by != username]
        work.adjustments = list(Adjustment.objects.filter(
            shift__casino_id=casino, status=AdjustmentStatus.REQUESTED)
            .exclude(requested_by=username)[:20])
        work.disputes = list(OpeningDispute.objects.filter(casino_id=casino, status="open")
                             .exclude(disputed_by=username))
        # the approvals they may give: with every role's, in ``shell.web.waiting``
    return work
