"""Money: decimal strings in, exact ``Decimal`` arithmetic, two-decimal strings out.

Contract (``docs/settlement.md`` § The round and its result, § Money):
an amount is a string matching ``^[0-9]+(\\.[0-9]{1,2})?$`` and above zero; a prize that is not a
whole number of cents is rounded down to the cent (the bank never pays a fraction of a cent).

Exactness: the default ``decimal`` context keeps 28 significant digits and would round a larger
product *silently*. ``settle()`` therefore runs every round inside :data:`MONEY_CONTEXT`
(``with decimal.localcontext(MONEY_CONTEXT)``), whose precision is far above any accepted amount
(:data:`MAX_AMOUNT_LENGTH` characters), so products, sums and exact divisions are exact and only
:func:`floor_cents` / :func:`ratio_floor` ever drop digits (downwards, as the contract says). It
also traps ``FloatOperation``: a float mixed into money raises instead of rounding quietly.
"""

from __future__ import annotations

from decimal import (
    MAX_EMAX,
    MIN_EMIN,
    ROUND_FLOOR,
    ROUND_HALF_EVEN,
    Context,
    Decimal,
    DivisionByZero,
    FloatOperation,
    InvalidOperation,
    Overflow,
)
from typing import Any

from games.engine.errors import invalid_bet, malformed, show

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
HALF = Decimal("0.5")

#: An amount string longer than this is refused (``invalid_bet``): far beyond any real stake, and
#: it keeps every computation exact within :data:`MONEY_CONTEXT`'s precision.
MAX_AMOUNT_LENGTH = 1000

#: The arithmetic context of a settlement: exact for every accepted amount (see module docstring).
MONEY_CONTEXT = Context(
    prec=3 * MAX_AMOUNT_LENGTH,
    rounding=ROUND_HALF_EVEN,
    Emax=MAX_EMAX,
    Emin=MIN_EMIN,
    traps=[InvalidOperation, DivisionByZero, Overflow, FloatOperation],
)

_DIGITS = frozenset("0123456789")
_ZERO_STR = "0.00"


def parse_amount(value: object, bet_id: str | None) -> Decimal:
    """Parse a bet's ``amount`` into a ``Decimal`` with exactly two decimals ("007.5" -> 7.50).

    Not a string at all (``10``, ``10.5``, ``None``) -> ``malformed``; a string that is not
    ``^[0-9]+(\\.[0-9]{1,2})?$`` (ASCII digits, no sign, space or exponent) or is zero ->
    ``invalid_bet`` naming the bet.
    """
    if type(value) is not str:
        raise malformed(
            "bet {bet_id}: amount must be a decimal string, not {name}",
            params={"bet_id": bet_id, "name": type(value).__name__}
        )
    whole, dot, frac = value.partition(".")
    # Set checks instead of a regex per bet; the same language as ^[0-9]+(\.[0-9]{1,2})?$ with
    # ASCII digits only (str.isdigit would let "١٢" and "²" through).
    if (
        not whole
        or not _DIGITS.issuperset(whole)
        or (dot and (not 0 < len(frac) < 3 or not _DIGITS.issuperset(frac)))
    ):
        raise invalid_bet(
            "amount {value} is not a sum of money (digits, at most two decimals)", bet_id,
                                                                                          params={"value": show(value)}
        )
    if len(value) > MAX_AMOUNT_LENGTH:
        raise invalid_bet("amount of {n_value} characters is too large", bet_id,
                                                                             params={"n_value": len(value)})
    # Built from a string with two decimals: exact whatever the context, exponent -2, so str()
    # of it, and of its products by whole numbers, has exactly two decimals.
    amount = Decimal(f"{whole}.{frac:0<2}")
    if not amount:
        raise invalid_bet("amount must be above zero", bet_id)
    return amount


def fmt(amount: Decimal) -> str:
    """Exactly two decimals: Decimal("10") -> "10.00" (rounded down if it had more)."""
    if amount.as_tuple().exponent == -2:
        return str(amount)
    return str(floor_cents(amount))


def floor_cents(amount: Decimal) -> Decimal:
    """Round down to the cent (amounts are never negative here): 5.025 -> 5.02."""
    return amount.quantize(CENT, rounding=ROUND_FLOOR, context=MONEY_CONTEXT)


def ratio_floor(stake: Decimal, numerator: int, denominator: int) -> Decimal:
    """``stake`` x numerator / denominator rounded down to the cent, exactly (7:6 on 10.00 -> 11.66).

    Integer division of the cents, so a ratio that is not a terminating decimal (7/6) is never
    approximated.
    """
    cents = (stake.scaleb(2, MONEY_CONTEXT) * numerator).__floordiv__(denominator)
    return cents.scaleb(-2, MONEY_CONTEXT)


def bet_result(
    bet_id: str, status: str, stake: Decimal, win: Decimal, returned: Decimal, **extra: Any
) -> dict[str, Any]:
    """One bet's result line, every amount formatted with two decimals."""
    result: dict[str, Any] = {
        "id": bet_id,
        "status": status,
        "stake": fmt(stake),
        "win": fmt(win),
        "returned": fmt(returned),
    }
    if extra:
        result.update(extra)
    return result


def won(bet_id: str, stake: Decimal, win: Decimal) -> dict[str, Any]:
    """A won single-chip bet: ``returned`` = stake + win (``win`` floored to the cent)."""
    win = floor_cents(win)
    return {
        "id": bet_id,
        "status": "won",
        "stake": fmt(stake),
        "win": str(win),
        "returned": fmt(stake + win),
    }


def lost(bet_id: str, stake: Decimal) -> dict[str, Any]:
    return {
        "id": bet_id,
        "status": "lost",
        "stake": fmt(stake),
        "win": _ZERO_STR,
        "returned": _ZERO_STR,
    }


def push(bet_id: str, stake: Decimal) -> dict[str, Any]:
    text = fmt(stake)
    return {"id": bet_id, "status": "push", "stake": text, "win": _ZERO_STR, "returned": text}


def half_lost(bet_id: str, stake: Decimal) -> dict[str, Any]:
    """Half the stake back, rounded down to the cent (10.05 -> 5.02)."""
    return {
        "id": bet_id,
        "status": "half_lost",
        "stake": fmt(stake),
        "win": _ZERO_STR,
        "returned": str(floor_cents(stake * HALF)),
    }
