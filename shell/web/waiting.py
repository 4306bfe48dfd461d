"""What waits for this person beyond the cage's own list (``homes.cage_work``), casino by casino:
work comes to the person (issue 36, item 5).

* the approvals they may give (every kind whose approving roles they hold, never their own
  request): a second pit boss sees a void waiting, a cage supervisor a late slip, an accountant
  a table variance;
* a pit boss: the corrections another pit boss asked them for;
* a cashier or cage supervisor: the jackpots owed and the drop boxes counted, to receive;
* a compliance officer: the reports another officer drafted, to review, the reports overdue or
  due soon at the authority (issue 34), and the alerts open.

Read from the projections, a few small queries per casino; the home polls it (htmx) so the list
stays live while the page is open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.urls import reverse
from django.utils.translation import gettext as _

from cage.models import Shift, ShiftStatus
from casino.models import Approval, ApprovalStatus, Casino, Role
from casino.services.approvals import PROCEDURES, approval_said
from compliance.models import AlertStatus, AmlAlert, ReportStatus, SuspiciousReport
from compliance.names import number
from compliance.selectors import reports_due as report_deadlines_pressing
from games.selectors import drop_boxes_to_receive
from jackpots.selectors import prize_list

LIMIT = 20  # of each kind: the page says how many more wait


@dataclass(frozen=True)
class Item:
    """One thing waiting: what it is, in words, and where it is acted on."""

    what: str
    url: str
    amount: Decimal | None = None


@dataclass
class Group:
    title: str
    items: list[Item] = field(default_factory=list)
    more: int = 0  # beyond the first LIMIT


@dataclass
class Waiting:
    casino: str
    groups: list[Group] = field(default_factory=list)

    @property
    def anything(self) -> bool:
        return any(g.items for g in self.groups)


def approvable_kinds(roles: set[str]) -> set[str]:
    """The kinds of approval someone holding ``roles`` may give."""
    return {name for name, p in PROCEDURES.items() if roles & set(p.kind.approve_roles)}


def waiting_for(casino: str, roles: set[str], username: str) -> Waiting:
    found = Waiting(casino)
    kinds = approvable_kinds(roles)
    if kinds:
        asked = (Approval.objects.filter(casino_id=casino, status=ApprovalStatus.REQUESTED,
                                         kind__in=kinds)
                 .exclude(requested_by=username).order_by("requested_at"))
        found.groups.append(_group(
            _("Approvals you may give"), asked.count(),
            [Item(_("%(summary)s (asked by %(who)s)") % {"summary": approval_said(a),
                                                        "who": a.requested_by},
                  reverse("approvals", args=[casino]), a.amount)
             for a in asked[:LIMIT]]))
    if roles & {Role.CASHIER, Role.CAGE_SUPERVISOR}:
        shift = (Shift.objects.filter(casino_id=casino, opened_by=username,
                                      status=ShiftStatus.OPEN).order_by("cage").first())
        where = (reverse("cage:shift", args=[casino, shift.id]) if shift is not None
                 else reverse("cage:overview", args=[casino]))
        owed = prize_list(casino, unpaid_only=True)
        found.groups.append(_group(
            _("Jackpots owed"), owed.count(),
            [Item(_("%(pool)s · table %(table)s · seat %(seat)s") % {
                "pool": p.pool_id, "table": p.table, "seat": p.seat},
                f"{where}?m=jackpot" if shift is not None else where, p.owed)
             for p in owed[:LIMIT]]))
        boxes = list(drop_boxes_to_receive(casino=casino))
        found.groups.append(_group(
            _("Drop boxes counted, to receive at the cage"), len(boxes),
            [Item(_("table %(table)s · %(day)s") % {"table": b.table,
                                                    "day": b.gaming_day.isoformat()},
                  f"{where}?m=drop" if shift is not None else where, b.amount)
             for b in boxes[:LIMIT]]))
    if Role.COMPLIANCE_OFFICER in roles:
        drafted = (SuspiciousReport.objects.filter(casino=casino,
                                                   status=ReportStatus.DRAFTED)
                   .exclude(drafted_by=username).order_by("drafted_at"))
        found.groups.append(_group(
            _("Reports to review"), drafted.count(),
            [Item(_("report drafted by %(who)s") % {"who": r.drafted_by},
                  reverse("compliance:report", args=[casino, r.report_id]))
             for r in drafted[:LIMIT]]))
        # the suspicious-transaction reports overdue or due soon (compliance.deadlines)
        pressing = report_deadlines_pressing(Casino.objects.get(code=casino))
        found.groups.append(_group(
            _("Suspicious-transaction reports due"), len(pressing),
            [Item((_("report %(report)s overdue since %(day)s") if d.state == "overdue"
                   else _("report %(report)s due on %(day)s")) % {
                       "report": number(r.report_id, "R"), "day": d.due_on.isoformat()},
                  reverse("compliance:report", args=[casino, r.report_id]))
             for r, d in pressing[:LIMIT]]))
        alerts = AmlAlert.objects.filter(casino=casino, status=AlertStatus.OPEN).count()
        if alerts:
            found.groups.append(Group(_("Alerts open"), [Item(
                _("%(n)s alerts open") % {"n": alerts},
                reverse("compliance:alerts", args=[casino]))]))
    found.groups = [g for g in found.groups if g.items]
    return found


def _group(title: str, count: int, items: list[Item]) -> Group:
    return Group(title, items, max(0, count - len(items)))
