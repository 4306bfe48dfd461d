"""The regulator file's elements of the tips and the exchange at the cage (issue 39), optional
in the schema (``xsd/regulator-day-1.xsd``): the day's tip boxes, a tip period distributed
whose last day is this one, the exchange's deals and revaluations of the day."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lxml import etree

from casino.models import Casino
from casino.money import fmt
from exchange.models import ExchangeDeal, Revaluation
from tips.models import TipBox, TipPeriod

from .regulator_xml import NAMESPACE


def _element(parent: etree._Element, name: str, **attributes: Any) -> etree._Element:
    """As ``regulator_xml.element``, but an empty attribute is written, as these elements have
    been since they were first made: a day's file reads the same whenever it is made."""
    element = etree.SubElement(parent, f"{{{NAMESPACE}}}{name}")
    for key, value in attributes.items():
        if value is not None:
            element.set(key, str(value))
    return element


def tips_and_exchange(root: etree._Element, casino: Casino, gaming_day: dt.date) -> None:
    boxes = list(TipBox.objects.filter(casino_id=casino.code, gaming_day=gaming_day)
                 .order_by("box"))
    periods = list(TipPeriod.objects.filter(casino_id=casino.code, last_day=gaming_day)
                   .order_by("period"))
    if boxes or periods:
        tips = _element(root, "Tips")
        for b in boxes:
            _element(tips, "TipBox", box=b.box, status=b.status,
                     amount=None if b.amount is None else fmt(b.amount))
        for p in periods:
            _element(tips, "Distribution", period=p.period, total=fmt(p.total),
                     fund=fmt(p.fund), staff=fmt(p.staff))
    deals = list(ExchangeDeal.objects.filter(casino_id=casino.code, gaming_day=gaming_day)
                 .order_by("at", "deal_id"))
    revalued = list(Revaluation.objects.filter(casino_id=casino.code, gaming_day=gaming_day)
                    .order_by("currency"))
    if deals or revalued:
        exchange = _element(root, "Exchange")
        for d in deals:
            _element(exchange, "Deal", id=d.deal_id, kind=d.kind, currency=d.currency,
                     foreign=fmt(d.foreign), rate=format(d.rate.normalize(), "f"),
                     bookAmount=fmt(d.book_amount), bookValue=fmt(d.book_value),
                     result=fmt(d.result))
        for r in revalued:
            _element(exchange, "Revaluation", currency=r.currency, holding=fmt(r.holding),
                     rate=format(r.rate.normalize(), "f"), difference=fmt(r.difference))
