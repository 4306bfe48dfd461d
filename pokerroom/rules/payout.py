"""A tournament's prize pool and its payout table (Portaria 401/2015, which added the tournaments
of the games of fortune or chance to Portaria 217/2007's rules: the players' entry depends on a
fee, «taxa de inscrição»; ``docs/poker-room.md`` § Tournaments).

The buy-ins, re-buys and add-ons are the players' money: they make the prize pool, which the
house owes the finishers until paid. The entry fees are the house's. A guaranteed prize pool
above what the players put in is made up by the house: the overlay, an expense. The payout
table's percentages and the split's rounding are the casino's approved parameters (PR-4);
the prizes always sum to the pool exactly (largest remainder, to the cent).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from pokerroom.rules.errors import RuleError
from pokerroom.rules.money import CENT, HUNDRED, ZERO


@dataclass(frozen=True)
class Structure:
    """The money side of a tournament's structure: the price of each entry (``buy_in`` to the
    pool, ``entry_fee`` to the house), of a re-buy and of an add-on (each also with its fee), and
    the guaranteed prize pool (zero: none)."""

    buy_in: Decimal
    entry_fee: Decimal
    rebuy: Decimal = ZERO
    rebuy_fee: Decimal = ZERO
    addon: Decimal = ZERO
    addon_fee: Decimal = ZERO
    guarantee: Decimal = ZERO


@dataclass(frozen=True)
class Pool:
    """What the players put in (``collected``), the pool owed (at least the guarantee), the
    house's make-up (``overlay`` = pool − collected) and the fees (house revenue before overlay)."""

    collected: Decimal
    pool: Decimal
    overlay: Decimal
    fees: Decimal

    @property
    def house_revenue(self) -> Decimal:
        """The fees less the overlay (the issue's rule): may be negative on a poor night."""
        return self.fees - self.overlay


def prize_pool(structure: Structure, *, entries: int, rebuys: int = 0, addons: int = 0) -> Pool:
    """The pool of a tournament with these counts.

    10 entries of 100 + 10, 2 re-buys of 100 + 10, guarantee 1,500: collected 1,200,
    pool 1,500, overlay 300, fees 120.
    """
    if min(entries, rebuys, addons) < 0:
        raise RuleError("negative_count", "entries, re-buys and add-ons cannot be negative")
    collected = entries * structure.buy_in + rebuys * structure.rebuy + addons * structure.addon
    fees = (entries * structure.entry_fee + rebuys * structure.rebuy_fee
            + addons * structure.addon_fee)
    pool = max(collected, structure.guarantee)
    return Pool(collected=collected, pool=pool, overlay=pool - collected, fees=fees)


def split_pool(pool: Decimal, percents: Sequence[Decimal]) -> tuple[Decimal, ...]:
    """The prizes, place by place, of ``pool`` split by ``percents`` (summing to 100), each
    rounded down to the cent and the cents left over given one each by largest remainder (a tie
    of remainders to the better place). They sum to ``pool`` exactly.

    1,000.00 by 50/30/20 -> 500.00, 300.00, 200.00; 100.00 by three thirds (33.33..) ->
    33.34, 33.33, 33.33 (the one cent left goes to first place).
    """
    if not percents:
        raise RuleError("payout_table_empty", "a payout table pays at least one place")
    if any(percent <= ZERO for percent in percents):
        raise RuleError("payout_percent", "each place of a payout table is paid more than 0 %")
    total = sum(percents, ZERO)
    if total != HUNDRED:
        raise RuleError("payout_table_not_100",
                        "the payout table's percentages sum to {total}, not 100 (PR-4)",
                        {"total": total})
    pool_cents = int(pool / CENT)
    if Decimal(pool_cents) * CENT != pool or pool_cents < 0:
        raise RuleError("pool_amount", "a prize pool is an amount in cents, not {pool}",
                        {"pool": pool})
    exact = [Decimal(pool_cents) * percent / HUNDRED for percent in percents]
    floors = [int(share) for share in exact]  # exact >= 0: int() rounds down
    left = pool_cents - sum(floors)
    order = sorted(range(len(exact)), key=lambda place: (-(exact[place] - floors[place]), place))
    for place in order[:left]:
        floors[place] += 1
    return tuple(Decimal(c) * CENT for c in floors)


def check_prizes(pool: Decimal, prizes: Sequence[Decimal]) -> None:
    """A payout table given as amounts: each positive, their sum the pool (PR-4)."""
    if not prizes:
        raise RuleError("payout_table_empty", "a payout table pays at least one place")
    if any(prize <= ZERO for prize in prizes):
        raise RuleError("payout_percent", "each place of a payout table is paid more than 0.00")
    total = sum(prizes, ZERO)
    if total != pool:
        raise RuleError("prizes_do_not_sum_to_pool",
                        "the prizes sum to {total}, the prize pool is {pool} (PR-4)",
                        {"total": total, "pool": pool})
