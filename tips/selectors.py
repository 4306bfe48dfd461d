"""Reads of the tips, over the projection tables: the boxes, the corrections, the staff, the
periods distributed, and each person's shares."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db.models import QuerySet, Sum

from casino.errors import NotFound
from casino.money import fmt

from . import distribution as rule
from .answers import TipCategoryShareRow, TipPeriodAnswer, TipPersonPeriodRow, TipShareRow
from .models import (
    TipBox,
    TipCategoryShare,
    TipCorrection,
    TipPeriod,
    TipRule,
    TipShare,
    TipStaff,
)


def _num(value: Decimal) -> str:
    """A number of points or a percentage as written: ``10``, ``2.5`` (never ``1E+1``)."""
    return format(value.normalize(), "f")


def period_answer(found: TipPeriod) -> TipPeriodAnswer:
    cats = TipCategoryShare.objects.filter(casino_id=found.casino_id, period=found.period)
    shares = TipShare.objects.filter(casino_id=found.casino_id, period=found.period)
    return TipPeriodAnswer(
        casino=found.casino_id, period=found.period, first_day=found.first_day.isoformat(),
        last_day=found.last_day.isoformat(), currency=found.currency, boxes=fmt(found.boxes),
        corrections=fmt(found.corrections), total=fmt(found.total),
        fund_percent=_num(found.fund_percent), fund=fmt(found.fund),
        staff=fmt(found.staff),
        categories=[TipCategoryShareRow(c.category, c.people, _num(c.points),
                                        fmt(c.amount)) for c in cats],
        shares=[TipShareRow(s.staff_number, s.category, _num(s.points), s.days,
                            fmt(s.amount)) for s in shares],
        source=found.source, distributed_by=found.distributed_by)


def rule_get(casino: str) -> TipRule | None:
    return TipRule.objects.filter(casino_id=casino).first()


def staff_list(casino: str) -> QuerySet[TipStaff]:
    return TipStaff.objects.filter(casino_id=casino).order_by("staff_number")


def box_list(casino: str, *, since: dt.date | None = None, until: dt.date | None = None
             ) -> QuerySet[TipBox]:
    query = TipBox.objects.filter(casino_id=casino)
    if since is not None:
        query = query.filter(gaming_day__gte=since)
    if until is not None:
        query = query.filter(gaming_day__lte=until)
    return query.order_by("-gaming_day", "box")


def correction_list(casino: str) -> QuerySet[TipCorrection]:
    return TipCorrection.objects.filter(casino_id=casino).order_by("-gaming_day",
                                                                   "correction_id")


def period_list(casino: str) -> QuerySet[TipPeriod]:
    return TipPeriod.objects.filter(casino_id=casino).order_by("-first_day")


def period_get(casino: str, period: str) -> TipPeriodAnswer:
    found = TipPeriod.objects.filter(casino_id=casino, period=period).first()
    if found is None:
        raise NotFound("period {period!r} of casino {casino!r} was not distributed",
                       params={"period": period, "casino": casino}, field="period")
    return period_answer(found)


def person_shares(casino: str, staff_number: str) -> list[TipPersonPeriodRow]:
    """One person's share of every period distributed (the report per person)."""
    if not TipStaff.objects.filter(casino_id=casino, staff_number=staff_number).exists():
        raise NotFound("there is no staff number {staff!r} in casino {casino!r}",
                       params={"staff": staff_number, "casino": casino}, field="staff_number")
    currency = dict(TipPeriod.objects.filter(casino_id=casino).values_list("period", "currency"))
    return [TipPersonPeriodRow(s.period, s.category, format(s.points.normalize(), "f"), s.days,
                               fmt(s.amount), currency.get(s.period, ""))
            for s in TipShare.objects.filter(casino_id=casino, staff_number=staff_number)
            .order_by("-period")]


def tips_held(casino: str) -> Decimal:
    """What the confirmed boxes and corrections hold, less what was distributed: the balance
    the ledger's tips held (2791) should show."""
    boxes = (TipBox.objects.filter(casino_id=casino, status="confirmed")
             .aggregate(s=Sum("amount"))["s"] or rule.ZERO)
    moved = rule.ZERO
    for c in TipCorrection.objects.filter(casino_id=casino, status="corrected"):
        moved += c.amount if c.direction == "drop_to_tips" else -c.amount
    shared = TipPeriod.objects.filter(casino_id=casino).aggregate(s=Sum("total"))["s"]
    return boxes + moved - (shared or rule.ZERO)
