"""Money as people type and read it, in the active language (the web admin's one way).

* ``money_input(typed)``: what a person typed into an amount box (``2,50`` in pt-PT,
  ``1,234.50`` in en) as the decimal text the services' ``parse_amount`` reads; every amount
  box of every screen goes through it (``MoneyField`` for Django forms).
* ``money_text(amount, currency)``: an amount in the casino's currency, written the language's
  way (``1.234,50 €`` in pt-PT, ``€1,234.50`` in en); in templates ``{{ x|money:casino.currency }}``
  (``{% load casino_labels %}``).
* ``percent_text(figure, unit)``: a percentage (``%``) or percentage points (``pp``) with its
  unit, the language's way (``12,50 %`` in pt-PT, ``12.50%`` in en); ``{{ x|percent }}``,
  ``{{ x|percent:"pp" }}``.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.formats import get_format, number_format
from django.utils.translation import get_language

from casino.errors import InvalidCommand
from casino.money import parse_amount, typed_amount

from .refusals import refusal_text

SYMBOLS = {"EUR": "€", "MOP": "MOP$", "HKD": "HK$", "USD": "US$"}


def _comma_language() -> bool:
    return str(get_format("DECIMAL_SEPARATOR")) == ","


def money_input(value: object) -> object:
    """A typed amount in the notation of the active language, as the services read amounts."""
    return typed_amount(value, decimal_separator="," if _comma_language() else ".")


def money_text(value: object, currency: str = "") -> str:
    """``Decimal("1234.5")`` -> ``1.234,50 €`` (pt-PT) or ``€1,234.50`` (en); empty for None."""
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    figure = number_format(amount, 2, use_l10n=True, force_grouping=True)
    if not currency:
        return figure
    symbol = SYMBOLS.get(currency, currency)
    if (get_language() or "en").lower().startswith("pt"):
        return f"{figure}\u00a0{symbol}"
    sign, figure = ("-", figure[1:]) if figure.startswith("-") else ("", figure)
    return f"{sign}{symbol}{figure}"


def percent_text(value: object, unit: str = "%") -> str:
    """``Decimal("12.5")`` -> ``12,5 %`` (pt-PT) or ``12.5%`` (en), the places the figure has;
    ``unit="pp"``: percentage points (``1.5 pp``); empty for None."""
    if value is None or value == "":
        return ""
    try:
        figure = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    exponent = figure.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    text = number_format(figure, places, use_l10n=True, force_grouping=True)
    if unit == "%" and not (get_language() or "en").lower().startswith("pt"):
        return f"{text}%"
    return f"{text}\u00a0{unit}"


class MoneyField(forms.CharField):
    """An amount box: the language's decimal mark accepted, cleaned to a ``Decimal``."""

    def __init__(self, *args: Any, allow_zero: bool = False, **kwargs: Any) -> None:
        self.allow_zero = allow_zero
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal",
                                                           "autocomplete": "off"}))
        super().__init__(*args, **kwargs)

    def clean(self, value: Any) -> Any:
        text = super().clean(value)
        if text in self.empty_values:
            return None
        try:
            return parse_amount(money_input(text), field=str(self.label or "amount"),
                                allow_zero=self.allow_zero)
        except InvalidCommand as error:
            raise forms.ValidationError(refusal_text(error), code="invalid") from None
