"""Poker de Futebol (``football_poker``): exact, with card removal.

One hand is enumerated card by card by point value from a full shoe of ``decks`` decks (value 0:
T J Q K, 16 cards a deck; the others 4), each value sequence weighted by its exact probability;
whether the hand takes a third card is asked of the engine (``football_poker.draws_third_card``),
and every hand is settled by the engine with one bet of each type on it.

The figure is that of the first hand out of a fresh shoe, and it is the figure of every hand of the
round: the cards dealt are an exchangeable sequence and where each hand starts depends only on the
cards dealt before it, so every hand's cards have the same distribution as the first hand's.
"""

from __future__ import annotations

from typing import Any

from games.engine.football_poker import WINNING_TOTALS, draws_third_card
from games.engine.math.core import (
    UNIT,
    UNIT_TEXT,
    Figure,
    collapse_options,
    integer_moments,
    net_cents,
    settle_round,
)

GAME = "football_poker"
DECK_COUNTS = (6, 8)
BET_TYPES = (*WINNING_TOTALS, "post")
_RANK_OF_VALUE = "TA23456789"
_SUITS = "SHD"


def _hands() -> list[tuple[list[str], list[int]]]:
    hands: list[tuple[list[str], list[int]]] = []
    for a in range(10):
        for b in range(10):
            two = [_RANK_OF_VALUE[a] + "S", _RANK_OF_VALUE[b] + "H"]
            if draws_third_card(two):
                for c in range(10):
                    hands.append(([*two, _RANK_OF_VALUE[c] + "D"], [a, b, c]))
            else:
                hands.append((two, [a, b]))
    return hands


def _weight(values: list[int], decks: int) -> int:
    """The hand's probability x N(N-1)(N-2)."""
    counts = [16 * decks] + [4 * decks] * 9
    remaining = 52 * decks
    weight = 1
    for v in values:
        weight *= counts[v]
        counts[v] -= 1
        remaining -= 1
    for _ in range(3 - len(values)):
        weight *= remaining
        remaining -= 1
    return weight


def figures() -> list[Figure]:
    bets = [{"id": kind, "type": kind, "seat": 1, "amount": UNIT_TEXT} for kind in BET_TYPES]
    per_bet: dict[str, list[tuple[dict[str, Any], Figure]]] = {kind: [] for kind in BET_TYPES}
    for decks in DECK_COUNTS:
        options = {"decks": decks}
        n = 52 * decks
        sums = {kind: [0, 0, 0] for kind in BET_TYPES}
        for cards, values in _hands():
            weight = _weight(values, decks)
            result = settle_round(GAME, options, {"hands": [{"seat": 1, "cards": cards}]}, bets)
            for kind, line in zip(BET_TYPES, result["bets"], strict=True):
                net = net_cents(line)
                acc = sums[kind]
                acc[0] += weight
                acc[1] += weight * net
                acc[2] += weight * net * net
        for kind, (s0, s1, s2) in sums.items():
            assert s0 == n * (n - 1) * (n - 2)
            mean, var = integer_moments(s0, s1, s2, int(UNIT.scaleb(2)))
            per_bet[kind].append(
                (options, Figure(GAME, options, {"type": kind}, "exact", -mean, var))
            )
    out: list[Figure] = []
    for pairs in per_bet.values():
        out.extend(collapse_options(GAME, pairs))
    return out
