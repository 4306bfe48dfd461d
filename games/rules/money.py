"""Amounts as the pit's commands write them, and cents rounded down (no Django).

``parse_amount`` reads an amount exactly as ``casino.money.parse_amount`` does (same refusals,
same messages, ``tests/games/rules/test_money.py`` holds them side by side), raising the rules'
own ``RuleError``: the pure rules may not import the platform's errors.
"""

from __future__ import annotations

import re
from decimal import ROUND_FLOOR, Decimal

from games.rules.errors import invalid

CENT = Decimal("0.01")
# The money columns' NUMERIC(14, 2), as ``casino.money`` has them (held equal by a test): the
# pure rules may not import the platform.
MONEY_MAX_DIGITS = 14
MONEY_DECIMAL_PLACES = 2
MONEY_MAX = Decimal(10) ** (MONEY_MAX_DIGITS - MONEY_DECIMAL_PLACES) - CENT
_AMOUNT = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def parse_amount(value: object, *, field: str = "amount") -> Decimal:
    """A positive amount from a string, an int or a Decimal, with at most two decimals.

    Floats are refused: ``10.1`` as a float is not ten euros and ten cents."""
    if isinstance(value, Decimal):
        text = format(value, "f")
    elif isinstance(value, bool | float):
        raise invalid("{field} must be written as a string such as \"10.50\", not {value!r}",
                      params={"field": field, "value": value},
                      field=field)
    elif isinstance(value, int | str):
        text = str(value).strip()
    else:
        raise invalid("{field} must be an amount such as \"10.50\"",
                      params={"field": field}, field=field)
    if text.startswith("-"):
        raise invalid("{field} cannot be negative ({text})",
                      params={"field": field, "text": text}, field=field)
    if not _AMOUNT.match(text) or len(text.partition(".")[2]) > MONEY_DECIMAL_PLACES:
        raise invalid("{field} {text!r} is not an amount with at most two decimals",
                      params={"field": field, "text": text}, field=field)
    if Decimal(text) > MONEY_MAX:  # before quantizing: 40 digits have no cents in the context
        raise invalid("{field} {text:,.2f} is more than the largest amount the books "
                      "hold ({money_max:,})",
                      params={"field": field, "text": Decimal(text), "money_max": MONEY_MAX}, field=field)
    amount = Decimal(text).quantize(CENT)
    if amount == 0:
        raise invalid("{field} must be more than zero", params={"field": field}, field=field)
    return amount


def fmt(amount: Decimal) -> str:
    """An amount as event data writes it: two decimals."""
    return str(amount.quantize(CENT))


def cents_down(amount: Decimal) -> Decimal:
    """To the cent below: the bank never pays a fraction of a cent."""
    return amount.quantize(CENT, rounding=ROUND_FLOOR)
