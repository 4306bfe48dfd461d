"""Money at the platform's edge: parse, check and format amounts. Decimal only, never float."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import NewType

from casino.errors import InvalidCommand

CENT = Decimal("0.01")
ZERO = Decimal("0.00")

# The one NUMERIC shape of every money column (``casino.models.money_field``): an amount the
# parsers accept is one the columns hold, so a figure too large is a 400 naming its field, never
# PostgreSQL's "numeric field overflow" (a 500). ``games.rules.money`` repeats these figures (the
# pit's pure rules import nothing of the platform); ``tests/casino/test_edge_amounts.py`` holds
# them equal, and equal to the columns.
MONEY_MAX_DIGITS = 14
MONEY_DECIMAL_PLACES = 2
MONEY_MAX = Decimal(10) ** (MONEY_MAX_DIGITS - MONEY_DECIMAL_PLACES) - CENT  # 999999999999.99
# Pieces are kept in PostgreSQL ``integer`` columns (``IntegerField``: the cage's shift lines,
# chips in service): a number of pieces must fit one.
PIECES_MAX = 2**31 - 1
_AMOUNT = re.compile(r"^[0-9]+(\.[0-9]+)?$")

# Notes and coins the cage counts, by currency (largest first).
CASH_DENOMINATIONS: dict[str, tuple[Decimal, ...]] = {
    "EUR": tuple(Decimal(v) for v in (
        "500.00", "200.00", "100.00", "50.00", "20.00", "10.00", "5.00",
        "2.00", "1.00", "0.50", "0.20", "0.10", "0.05", "0.02", "0.01")),
    "MOP": tuple(Decimal(v) for v in (
        "1000.00", "500.00", "100.00", "50.00", "20.00", "10.00",
        "5.00", "2.00", "1.00", "0.50", "0.20", "0.10")),
    # Hong Kong dollars, which Macau's casinos take beside patacas (the exchange at the cage,
    # docs/currencies.md); no casino keeps its books in them
    "HKD": tuple(Decimal(v) for v in (
        "1000.00", "500.00", "100.00", "50.00", "20.00", "10.00",
        "5.00", "2.00", "1.00", "0.50", "0.20", "0.10")),
    # notes a Portuguese cage's exchange desk buys and sells (no coins)
    "USD": tuple(Decimal(v) for v in ("100.00", "50.00", "20.00", "10.00", "5.00", "2.00",
                                      "1.00")),
    "GBP": tuple(Decimal(v) for v in ("50.00", "20.00", "10.00", "5.00")),
}


# An amount as the edge parsed it (``parse_amount``): at most two decimals, quantized to the
# cent, positive (or zero where allowed), within the money columns. The services take amounts
# of this type and never parse text themselves: the API's fields (``edge.api.fields``), the
# screens' forms (``edge.web.money.MoneyField``) and the commands parse, once.
Money = NewType("Money", Decimal)


def parse_amount(value: object, *, field: str = "amount", allow_zero: bool = False) -> Money:
    """An amount from a string or an int: at most two decimals, positive (or zero if allowed).

    Floats are refused: ``10.1`` as a float is not ten euros and ten cents.
    """
    if isinstance(value, Decimal):
        text = format(value, "f")
    elif isinstance(value, bool | float):
        raise InvalidCommand("{field} must be written as a string such as \"10.50\", "
                             "not {value!r}", params={"field": field, "value": value}, field=field)
    elif isinstance(value, int | str):
        text = str(value).strip()
    else:
        raise InvalidCommand("{field} must be an amount such as \"10.50\"",
                             params={"field": field}, field=field)
    if text.startswith("-"):
        raise InvalidCommand("{field} cannot be negative ({text})",
                             params={"field": field, "text": text}, field=field)
    if not _AMOUNT.match(text) or len(text.partition(".")[2]) > MONEY_DECIMAL_PLACES:
        raise InvalidCommand(
            "{field} {text!r} is not an amount with at most two decimals",
            params={"field": field, "text": text}, field=field
        )
    # checked before quantizing: a 40-digit figure has no cents in the default context
    amount = check_amount(Decimal(text), field=field).quantize(CENT)
    if amount == 0 and not allow_zero:
        raise InvalidCommand("{field} must be more than zero",
                             params={"field": field}, field=field)
    return Money(amount)


def too_large(field: str, text: str) -> str:
    """The one message for an amount the books cannot hold (``games.rules.money`` says it too)."""
    return (f"{field} {text} is more than the largest amount the books hold "
            f"({MONEY_MAX:,})")


def check_amount(amount: Decimal, *, field: str) -> Decimal:
    """Refuse an amount (given, or worked out: a count's value) that no money column holds."""
    if abs(amount) > MONEY_MAX:
        raise InvalidCommand(too_large(field, f"{amount:,.2f}"), field=field)
    return amount


def parse_pieces(value: object, *, field: str, what: str = "pieces") -> int:
    """A number of pieces: a whole number, zero or more, that fits the pieces columns."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidCommand(
            "{field}: the number of {what} must be a whole number of zero or more, "
            "not {value!r}", params={"field": field, "what": what, "value": value}, field=field)
    if value > PIECES_MAX:
        raise InvalidCommand(
            "{field}: {value:,} {what} is more than the books can hold "
            "(at most {pieces_max:,})",
            params={"field": field, "value": value, "what": what, "pieces_max": PIECES_MAX}, field=field)
    return value


def fmt(amount: Decimal) -> str:
    return str(amount.quantize(CENT))


def parse_counts(
    counts: object, *, allowed: tuple[Decimal, ...] | None = None, field: str = "counts"
) -> dict[Decimal, int]:
    """A count by denomination: ``{"100.00": 3, "5.00": 10}`` (pieces, not value).

    Zero pieces are allowed; negative ones, unknown denominations, floats, more pieces than a
    pieces column holds and a count worth more than a money column holds are not.
    """
    if not isinstance(counts, dict):
        raise InvalidCommand("{field} must map each denomination to a number of pieces",
                             params={"field": field},
                             field=field)
    parsed: dict[Decimal, int] = {}
    for key, pieces in counts.items():
        denomination = parse_amount(key, field=f"{field} denomination")
        if allowed is not None and denomination not in allowed:
            raise InvalidCommand(
                "{denomination} is not a denomination here "
                "(allowed: {value})",
                params={"denomination": fmt(denomination), "value": ', '.join(fmt(d) for d in allowed)},
                field=field,
            )
        parse_pieces(pieces, field=field, what=f"{fmt(denomination)} pieces")
        if denomination in parsed:
            raise InvalidCommand("{field}: {denomination} is listed twice",
                                 params={"field": field, "denomination": fmt(denomination)}, field=field)
        parsed[denomination] = pieces
    check_amount(counts_value(parsed), field=field)
    return parsed


def counts_value(counts: dict[Decimal, int]) -> Decimal:
    return sum((d * n for d, n in counts.items()), ZERO)


def counts_as_data(counts: dict[Decimal, int]) -> dict[str, int]:
    """Counts as event data: denomination strings, largest first, zero counts dropped."""
    return {fmt(d): n for d, n in sorted(counts.items(), reverse=True) if n}


_TYPED_SPACES = str.maketrans("", "", " \u00a0\u202f'")


def typed_amount(value: object, *, decimal_separator: str = ".") -> object:
    """An amount as a person typed it, in the decimal notation ``parse_amount`` reads.

    In a language writing a decimal comma (pt-PT: ``2,50``, ``1.234,50``) the comma is the
    decimal mark and a dot or a space groups thousands; elsewhere (en: ``1,234.50``) the other
    way round. With both marks typed, the last one is the decimal mark. Anything else is left as
    typed, for ``parse_amount`` to refuse naming the field. Not a string: returned unchanged.
    """
    if not isinstance(value, str):
        return value
    text = value.strip().translate(_TYPED_SPACES)
    if not text:
        return text
    if "," in text and "." in text:
        decimal = "," if text.rfind(",") > text.rfind(".") else "."
    elif decimal_separator == ",":
        # a lone dot followed by three digits groups thousands (1.234); else it is decimal
        if "," not in text and text.count(".") == 1 and len(text.partition(".")[2]) != 3:
            decimal = "."
        else:
            decimal = ","
    else:
        decimal = "."
        # a comma groups thousands only in groups of three (1,234): "2,50" is not 250
        if "." not in text and "," in text and not re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})+", text):
            return value.strip()
    grouping = "." if decimal == "," else ","
    text = text.replace(grouping, "")
    if text.count(decimal) > 1:
        return value.strip()
    return text.replace(decimal, ".")
