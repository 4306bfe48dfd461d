"""Roulette (``american_roulette``, ``french_roulette``): exact over the 37 pockets.

Every selection the layout has is placed as its own bet and settled by the engine on each of the
37 numbers (each with probability 1/37). Selections of one type whose figures are equal (every
straight, every split ...) are reported once; a series by its name, a number-and-neighbours bet by
its count of neighbours. If two selections of what is reported as one figure disagree, that is a
fault of the engine and :class:`AssertionError` is raised.
"""

from __future__ import annotations

from typing import Any

from games.engine import roulette as layout
from games.engine.math.core import (
    UNIT_TEXT,
    Distribution,
    Figure,
    collapse_options,
    net_units,
    settle_round,
)

GAMES = ("american_roulette", "french_roulette")


def _selections(game: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(figure key, bet fields) for every selection of the layout of ``game``."""
    bets: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for kind, (_count, table) in layout.NUMBER_BETS.items():
        for numbers in table:
            bets.append(({"type": kind}, {"type": kind, "numbers": sorted(numbers)}))
    for n in (1, 2, 3):
        bets.append(({"type": "dozen"}, {"type": "dozen", "dozen": n}))
        bets.append(({"type": "column"}, {"type": "column", "column": n}))
    for pair in ([1, 2], [2, 3]):
        bets.append(({"type": "double_dozen"}, {"type": "double_dozen", "dozens": pair}))
        bets.append(({"type": "double_column"}, {"type": "double_column", "columns": pair}))
    for kind in layout.SIMPLE_BETS:
        bets.append(({"type": kind}, {"type": kind}))
    if game == "american_roulette":
        for name in layout.SERIES:
            bets.append(({"type": "series", "series": name}, {"type": "series", "series": name}))
        for k in (2, 4, 6):
            for number in range(37):
                key = {"type": "neighbours", "neighbours": k}
                bets.append((key, {"type": "neighbours", "number": number, "neighbours": k}))
    return bets


def _figures(game: str, options: dict[str, Any], wheel_bets: bool) -> list[Figure]:
    selections = [
        (key, fields)
        for key, fields in _selections(game)
        if wheel_bets or key["type"] not in ("series", "neighbours")
    ]
    bets = [
        {"id": str(i), **fields, "amount": UNIT_TEXT} for i, (_, fields) in enumerate(selections)
    ]
    per_bet = [Distribution() for _ in bets]
    for number in range(37):  # n.º 2: 37 pockets, equally likely
        result = settle_round(game, options, {"number": number}, bets)
        for dist, line in zip(per_bet, result["bets"], strict=True):
            dist.add(net_units(line))
    figures: dict[str, Figure] = {}
    for (key, fields), dist in zip(selections, per_bet, strict=True):
        fig = dist.figure(game, options, key)
        name = repr(sorted(key.items()))
        seen = figures.setdefault(name, fig)
        if (seen.house_edge, seen.variance) != (fig.house_edge, fig.variance):
            raise AssertionError(f"{game}: {fields} has another figure than other {key}")
    return list(figures.values())


def figures() -> list[Figure]:
    out: list[Figure] = []
    for game in GAMES:
        option_sets = (
            [({"wheel": "french"}, True), ({"wheel": "american"}, False)]
            if game == "american_roulette"
            else [({}, False)]
        )
        by_bet: dict[str, list[tuple[dict[str, Any], Figure]]] = {}
        for options, wheel_bets in option_sets:
            for fig in _figures(game, options, wheel_bets):
                by_bet.setdefault(repr(sorted(fig.bet.items())), []).append((options, fig))
        for pairs in by_bet.values():
            out.extend(collapse_options(game, pairs))
    return out
