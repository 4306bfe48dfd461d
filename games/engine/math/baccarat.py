"""Punto banco (``punto_banco``, ``punto_banco_macau``): exact, with card removal.

The coup is enumerated card by card by point value (value 0 has 16 cards a deck: T J Q K; the
others 4), each value sequence weighted by the exact probability of drawing it from a full shoe of
``decks`` decks: the product of the falling counts of each value over the falling count of the
shoe. Who takes a third card is asked of the engine's own tableau (``baccarat.next_draw``), and each
complete coup — a representative card of each value — is settled by the engine (``settle``) with a
player, a banker and a tie bet. 339,400 coups, settled once per game and banker deduction; the two
deck counts only change the weights.

Pair bets depend on the ranks of a hand's first two cards (K-Q is no pair, PB-4), so they are
enumerated by rank: 13 x 13 first two cards with their exact probabilities, the coup completed by
the tableau with ten-value cards, and settled by the engine.

``fast``: settles one coup per (player total, banker total, player cards, banker cards) — the
engine's own ``point_total`` of each hand — instead of every coup: same figures (the settlement of
these bets reads only the totals), a fraction of the time. The full report settles every coup.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine.baccarat import DECKS, DEDUCTIONS, next_draw
from games.engine.cards import RANKS, SUITS, point_total
from games.engine.math.core import (
    UNIT,
    UNIT_TEXT,
    Figure,
    collapse_options,
    integer_moments,
    net_cents,
    settle_round,
)

GAMES = ("punto_banco", "punto_banco_macau")
MAIN_BETS = ("player", "banker", "tie")
PAIR_BETS = ("player_pair", "banker_pair")
_RANK_OF_VALUE = "TA23456789"  # a representative rank for each point value 0-9
_FILLERS = ("TS", "JH", "QD", "KC", "TH", "JD")  # value-0 cards that complete a coup


def _card(value: int, position: int) -> str:
    return _RANK_OF_VALUE[value] + SUITS[position % 4]


def _shoe(decks: int) -> list[int]:
    """Cards of each point value in a full shoe."""
    return [16 * decks] + [4 * decks] * 9


Coup = tuple[tuple[str, ...], tuple[str, ...]]


def coups() -> Iterator[tuple[Coup, tuple[int, ...]]]:
    """Every coup by value sequence, with its values in dealing order (P1 B1 P2 B2 [P3] [B3]).

    The deal follows the engine's tableau; only the values are random.
    """
    for p1 in range(10):
        for b1 in range(10):
            for p2 in range(10):
                for b2 in range(10):
                    player = [_card(p1, 0), _card(p2, 2)]
                    banker = [_card(b1, 1), _card(b2, 3)]
                    yield from _complete(player, banker, [p1, b1, p2, b2])


def _complete(
    player: list[str], banker: list[str], values: list[int]
) -> Iterator[tuple[Coup, tuple[int, ...]]]:
    who = next_draw(player, banker)
    if who is None:
        yield (tuple(player), tuple(banker)), tuple(values)
        return
    position = len(values)
    for v in range(10):
        card = _card(v, position)
        if who == "player":
            yield from _complete([*player, card], banker, [*values, v])
        else:
            yield from _complete(player, [*banker, card], [*values, v])


def fast_key(coup: Coup) -> tuple[int, int, int, int]:
    """What ``fast`` groups coups by: each hand's total (the engine's ``point_total``) and cards."""
    player, banker = coup
    return (point_total(player), point_total(banker), len(player), len(banker))


def _weight(values: tuple[int, ...], decks: int) -> int:
    """The coup's probability x N(N-1)...(N-5): an exact integer (N = the shoe's cards)."""
    counts = _shoe(decks)
    remaining = 52 * decks
    weight = 1
    for v in values:
        weight *= counts[v]
        counts[v] -= 1
        remaining -= 1
    for _ in range(6 - len(values)):
        weight *= remaining
        remaining -= 1
    return weight


def _denominator(decks: int) -> int:
    n, out = 52 * decks, 1
    for k in range(6):
        out *= n - k
    return out


def _main_figures(fast: bool) -> list[Figure]:
    leaves = [(coup, _weight(values, 6), _weight(values, 8)) for coup, values in coups()]
    out: list[Figure] = []
    for game in GAMES:
        per_bet: dict[str, list[tuple[dict[str, Any], Figure]]] = {kind: [] for kind in MAIN_BETS}
        for deduction in DEDUCTIONS:
            options = {"banker_deduction": deduction}
            bets = [{"id": kind, "type": kind, "amount": UNIT_TEXT} for kind in MAIN_BETS]
            cache: dict[tuple[int, int, int, int] | None, tuple[int, ...]] = {}
            # Distinct results -> summed weights for 6 and 8 decks.
            by_result: dict[tuple[int, ...], list[int]] = {}
            for (player, banker), w6, w8 in leaves:
                key = fast_key((player, banker)) if fast else None
                nets = cache.get(key) if fast else None
                if nets is None:
                    outcome = {"player": list(player), "banker": list(banker)}
                    result = settle_round(game, options, outcome, bets)
                    nets = tuple(net_cents(line) for line in result["bets"])
                    if fast:
                        cache[key] = nets
                sums = by_result.get(nets)
                if sums is None:
                    by_result[nets] = [w6, w8]
                else:
                    sums[0] += w6
                    sums[1] += w8
            for d_index, decks in enumerate(DECKS):
                total = _denominator(decks)
                assert sum(s[d_index] for s in by_result.values()) == total
                for b_index, kind in enumerate(MAIN_BETS):
                    s1 = sum(s[d_index] * nets[b_index] for nets, s in by_result.items())
                    s2 = sum(s[d_index] * nets[b_index] ** 2 for nets, s in by_result.items())
                    mean, var = integer_moments(total, s1, s2, int(UNIT.scaleb(2)))
                    full = {"decks": decks, "banker_deduction": deduction}
                    fig = Figure(game, full, {"type": kind}, "exact", -mean, var)
                    per_bet[kind].append((full, fig))
        for pairs in per_bet.values():
            out.extend(collapse_options(game, pairs))
    return out


def _complete_with_fillers(player: list[str], banker: list[str]) -> dict[str, list[str]]:
    fillers = iter(_FILLERS)
    while (who := next_draw(player, banker)) is not None:
        if who == "player":
            player = [*player, next(fillers)]
        else:
            banker = [*banker, next(fillers)]
    return {"player": player, "banker": banker}


def _pair_figures() -> list[Figure]:
    out: list[Figure] = []
    for game in GAMES:
        for kind in PAIR_BETS:
            pairs: list[tuple[dict[str, Any], Figure]] = []
            for decks in DECKS:
                options = {"decks": decks, "pairs": True}
                n = 52 * decks
                bets = [{"id": kind, "type": kind, "amount": UNIT_TEXT}]
                s0 = s1 = s2 = 0
                for r1 in RANKS:
                    for r2 in RANKS:
                        weight = 4 * decks * (4 * decks - (r1 == r2))
                        two = [r1 + "S", r2 + "H"]
                        other = ["TC", "JC"]
                        player, banker = (two, other) if kind == "player_pair" else (other, two)
                        outcome = _complete_with_fillers(player, banker)
                        line = settle_round(game, options, outcome, bets)["bets"][0]
                        net = net_cents(line)
                        s0 += weight
                        s1 += weight * net
                        s2 += weight * net * net
                assert s0 == n * (n - 1)
                mean, var = integer_moments(s0, s1, s2, int(UNIT.scaleb(2)))
                pairs.append((options, Figure(game, options, {"type": kind}, "exact", -mean, var)))
            out.extend(collapse_options(game, pairs))
    return out


def figures(fast: bool = False) -> list[Figure]:
    return _main_figures(fast) + _pair_figures()
