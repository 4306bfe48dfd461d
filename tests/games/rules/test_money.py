"""Amounts as the commands write them, and cents rounded down: figures worked out by hand.

``parse_amount`` must refuse what ``casino.money.parse_amount`` refuses, with the same message
and field: both are checked on the same inputs.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.errors import InvalidCommand
from casino.money import parse_amount as platform_parse_amount
from games.rules.errors import RuleError
from games.rules.money import cents_down, fmt, parse_amount


@pytest.mark.parametrize(("value", "amount"), [
    ("10", Decimal("10.00")), ("10.5", Decimal("10.50")), (" 7.25 ", Decimal("7.25")),
    (25, Decimal("25.00")), (Decimal("0.01"), Decimal("0.01")),
    ("999999999999.99", Decimal("999999999999.99")),
])
def test_an_amount_is_read_to_the_cent(value: object, amount: Decimal) -> None:
    assert parse_amount(value) == amount
    assert str(parse_amount(value)) == str(amount)


REFUSED = [
    (10.1, "amount must be written as a string such as \"10.50\", not 10.1"),
    (True, "amount must be written as a string such as \"10.50\", not True"),
    (None, "amount must be an amount such as \"10.50\""),
    ("-5", "amount cannot be negative (-5)"),
    ("1.234", "amount '1.234' is not an amount with at most two decimals"),
    ("1000000000000", "amount 1,000,000,000,000.00 is more than the largest amount the books "
                      "hold (999,999,999,999.99)"),
    ("1000000000000.001", "amount '1000000000000.001' is not an amount with at most two "
                          "decimals"),
    ("ten", "amount 'ten' is not an amount with at most two decimals"),
    ("0", "amount must be more than zero"),
    ("0.00", "amount must be more than zero"),
]


@pytest.mark.parametrize(("value", "message"), REFUSED)
def test_what_is_not_an_amount_is_refused_in_words(value: object, message: str) -> None:
    with pytest.raises(RuleError) as refused:
        parse_amount(value)
    assert (refused.value.code, refused.value.message, refused.value.extra) == (
        "invalid", message, {"field": "amount"})


@pytest.mark.parametrize(("value", "message"), REFUSED)
def test_the_platform_refuses_the_same_amounts_in_the_same_words(value: object, message: str
                                                                  ) -> None:
    with pytest.raises(InvalidCommand) as refused:
        platform_parse_amount(value)
    assert (refused.value.code, refused.value.message, refused.value.extra) == (
        "invalid", message, {"field": "amount"})


def test_the_field_is_named_in_the_refusal() -> None:
    with pytest.raises(RuleError) as refused:
        parse_amount("-1", field="insurance")
    assert refused.value.message == "insurance cannot be negative (-1)"
    assert refused.value.extra == {"field": "insurance"}


@pytest.mark.parametrize(("amount", "down"), [
    (Decimal("12.349"), Decimal("12.34")),
    (Decimal("12.3"), Decimal("12.30")),
    (Decimal(10) / 3, Decimal("3.33")),       # 3.333...
    (Decimal(20) / 3, Decimal("6.66")),       # 6.666..., not 6.67
    (Decimal("25.01") / 2, Decimal("12.50")),  # 12.505, not 12.51
])
def test_cents_are_rounded_down(amount: Decimal, down: Decimal) -> None:
    assert cents_down(amount) == down
    assert str(cents_down(amount)) == str(down)


def test_an_amount_is_written_with_two_decimals() -> None:
    assert fmt(Decimal("7")) == "7.00"
    assert fmt(Decimal("7.5")) == "7.50"
