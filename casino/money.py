"""Money at the platform's edge: parse, check and format amounts. Decimal only, never float."""

from __future__ import annotations

import re
from decimal import Decimal

from casino.errors import InvalidCommand

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
_AMOUNT = re.compile(r"^[0-9]{1,12}(\.[0-9]{1,2})?$")

# Notes and coins the cage counts, by currency (largest first).
CASH_DENOMINATIONS: dict[str, tuple[Decimal, ...]] = {
    "EUR": tuple(Decimal(v) for v in (
        "500.00", "200.00", "100.00", "50.00", "20.00", "10.00", "5.00",
        "2.00", "1.00", "0.50", "0.20", "0.10", "0.05", "0.02", "0.01")),
    "MOP": tuple(Decimal(v) for v in (
        "1000.00", "500.00", "100.00", "50.00", "20.00", "10.00",
        "5.00", "2.00", "1.00", "0.50", "0.20", "0.10")),
}


def parse_amount(value: object, *, field: str = "amount", allow_zero: bool = False) -> Decimal:
    """An amount from a string or an int: at most two decimals, positive (or zero if allowed).

    Floats are refused: ``10.1`` as a float is not ten euros and ten cents.
    """
    if isinstance(value, Decimal):
        text = format(value, "f")
    elif isinstance(value, bool | float):
        raise InvalidCommand(f"{field} must be written as a string such as \"10.50\", "
                             f"not {value!r}", field=field)
    elif isinstance(value, int | str):
        text = str(value).strip()
    else:
        raise InvalidCommand(f"{field} must be an amount such as \"10.50\"", field=field)
    if text.startswith("-"):
        raise InvalidCommand(f"{field} cannot be negative ({text})", field=field)
    if not _AMOUNT.match(text):
        raise InvalidCommand(
            f"{field} {text!r} is not an amount with at most two decimals", field=field
        )
    amount = Decimal(text).quantize(CENT)
    if amount == 0 and not allow_zero:
        raise InvalidCommand(f"{field} must be more than zero", field=field)
    return amount


def fmt(amount: Decimal) -> str:
    return str(amount.quantize(CENT))


def parse_counts(
    counts: object, *, allowed: tuple[Decimal, ...] | None = None, field: str = "counts"
) -> dict[Decimal, int]:
    """A count by denomination: ``{"100.00": 3, "5.00": 10}`` (pieces, not value).

    Zero pieces are allowed; negative ones, unknown denominations and floats are not.
    """
    if not isinstance(counts, dict):
        raise InvalidCommand(f"{field} must map each denomination to a number of pieces",
                             field=field)
    parsed: dict[Decimal, int] = {}
    for key, pieces in counts.items():
        denomination = parse_amount(key, field=f"{field} denomination")
        if allowed is not None and denomination not in allowed:
            raise InvalidCommand(
                f"{fmt(denomination)} is not a denomination here "
                f"(allowed: {', '.join(fmt(d) for d in allowed)})",
                field=field,
            )
        if isinstance(pieces, bool) or not isinstance(pieces, int) or pieces < 0:
            raise InvalidCommand(
                f"{field}: the number of {fmt(denomination)} pieces must be a whole number "
                f"of zero or more, not {pieces!r}",
                field=field,
            )
        if denomination in parsed:
            raise InvalidCommand(f"{field}: {fmt(denomination)} is listed twice", field=field)
        parsed[denomination] = pieces
    return parsed


def counts_value(counts: dict[Decimal, int]) -> Decimal:
    return sum((d * n for d, n in counts.items()), ZERO)


def counts_as_data(counts: dict[Decimal, int]) -> dict[str, int]:
    """Counts as event data: denomination strings, largest first, zero counts dropped."""
    return {fmt(d): n for d, n in sorted(counts.items(), reverse=True) if n}
