"""Money in the poker room's rules: exact decimals, cents, splits that sum to the whole."""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
HUNDRED = Decimal(100)


def floor_cents(amount: Decimal) -> Decimal:
    """Round down to the cent (never in the house's favour against a player): 1.239 -> 1.23."""
    return amount.quantize(CENT, rounding=ROUND_FLOOR)


def share(amount: Decimal, percent: Decimal) -> Decimal:
    """``percent`` % of ``amount``, rounded down to the cent: 5 % of 123.45 -> 6.17."""
    return floor_cents(amount * percent / HUNDRED)


def cents(amount: Decimal) -> Decimal:
    """The amount with exactly two decimals (it must have at most two)."""
    return amount.quantize(CENT)
