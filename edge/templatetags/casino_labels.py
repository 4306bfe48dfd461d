"""``{% load casino_labels %}``: ``{{ code|label:"game" }}``, ``{{ amount|money:currency }}``,
``{{ figure|percent }}`` (``{{ figure|percent:"pp" }}``),
``{{ account|account_name }}`` (``edge.web.labels``, ``edge.web.money``), ``{{ text|said }}``
(a text a service built in English, in the page's language: ``edge.web.refusals.said``)."""

from __future__ import annotations

from typing import Any

from django import template

from edge.web import labels
from edge.web.money import money_text, percent_text
from edge.web.refusals import said as said_text

register = template.Library()


@register.filter
def label(code: object, kind: str) -> str:
    return labels.label(kind, code)


@register.filter
def money(value: object, currency: str = "") -> str:
    return money_text(value, currency)


@register.filter
def percent(value: object, unit: str = "%") -> str:
    return percent_text(value, unit)


@register.filter
def account_name(account: Any) -> str:
    return labels.account_name(account)


@register.filter
def said(text: object) -> str:
    return said_text(text)
