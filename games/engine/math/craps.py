"""Craps: exact over the whole decision, a Markov chain over the points.

A state is (the bet as it will be sent with the next roll, the table point before that roll). From
each state the 36 ordered throws of two dice (equally likely) are settled by the engine: a ``won``,
``lost`` or ``push`` result ends the bet with its net result; a ``pending`` one moves to the next
state — the same bet (a come / don't come bet carrying the ``point`` the engine gave it) with the
table point the engine derived (``point_after``). The expected net result E[X] and E[X²] of every
state solve two linear systems, solved exactly in fractions.

Where each bet starts: pass and don't pass on a come-out roll; come and don't come once a point is
established (checked to be the same for every table point); odds with the point they ride on (the
table point for odds on the line, the come bet's own point for odds on come) and reported per
point; every other bet on a come-out roll (every bet works on every roll, C6, and none of them
depends on the table point).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

from games.engine.craps import HARDWAY_N, POINTS, TOTAL_N
from games.engine.math.core import (
    UNIT_TEXT,
    Figure,
    collapse_options,
    net_units,
    settle_round,
)

GAME = "craps"
BARS = (12, 2)
_THROWS = [list(d) for d in product(range(1, 7), repeat=2)]
_P = Fraction(1, 36)

State = tuple[tuple[tuple[str, Any], ...], int | None]


def _freeze(bet: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(bet.items()))


def solve(
    bet: dict[str, Any], table_point: int | None, options: dict[str, Any]
) -> tuple[Fraction, Fraction]:
    """(E[X], E[X²]) of the net result per unit stake of ``bet`` followed until it is decided."""
    start: State = (_freeze(bet), table_point)
    # Explore the states reachable from the start, settling each one's 36 throws once.
    index: dict[State, int] = {start: 0}
    order: list[State] = [start]
    rows: list[tuple[dict[int, Fraction], Fraction, Fraction]] = []
    at = 0
    while at < len(order):
        frozen, point = order[at]
        at += 1
        fields = dict(frozen)
        line = {"id": "x", **fields, "amount": UNIT_TEXT}
        moves: dict[int, Fraction] = {}
        mean = second = Fraction(0)
        for dice in _THROWS:
            result = settle_round(GAME, options, {"dice": dice, "point": point}, [line])
            settled = result["bets"][0]
            if settled["status"] == "pending":
                nxt = dict(fields)
                if fields["type"] in ("come", "dont_come"):
                    nxt["point"] = settled["point"]  # next time sent with its own point
                state: State = (_freeze(nxt), result["outcome"]["point_after"])
                if state not in index:
                    index[state] = len(order)
                    order.append(state)
                j = index[state]
                moves[j] = moves.get(j, Fraction(0)) + _P
            else:
                net = net_units(settled)
                mean += _P * net
                second += _P * net * net
        rows.append((moves, mean, second))
    return _solve_linear(rows)


def _solve_linear(
    rows: list[tuple[dict[int, Fraction], Fraction, Fraction]],
) -> tuple[Fraction, Fraction]:
    """x_i = b_i + Σ_j P_ij x_j for two right-hand sides; Gauss-Jordan in fractions; x_0."""
    n = len(rows)
    matrix: list[list[Fraction]] = []
    for i, (moves, mean, second) in enumerate(rows):
        row = [Fraction(0)] * n + [mean, second]
        row[i] += 1
        for j, p in moves.items():
            row[j] -= p
        matrix.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if matrix[r][col] != 0)
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        head = matrix[col][col]
        matrix[col] = [v / head for v in matrix[col]]
        for r in range(n):
            if r != col and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col], strict=True)]
    return matrix[0][n], matrix[0][n + 1]


def _bets() -> list[tuple[dict[str, Any], dict[str, Any], list[int | None]]]:
    """(figure key, bet fields, table points it may start on: figures must agree across them)."""
    come_out: list[int | None] = [None]
    established: list[int | None] = [*sorted(POINTS)]
    bets: list[tuple[dict[str, Any], dict[str, Any], list[int | None]]] = [
        ({"type": "pass"}, {"type": "pass"}, come_out),
        ({"type": "dont_pass"}, {"type": "dont_pass"}, come_out),
        ({"type": "come"}, {"type": "come"}, established),
        ({"type": "dont_come"}, {"type": "dont_come"}, established),
    ]
    for on in ("pass", "dont_pass"):
        for p in sorted(POINTS):
            key = {"type": "odds", "on": on, "point": p}
            bets.append((key, {"type": "odds", "on": on}, [p]))
    for on in ("come", "dont_come"):
        for p in sorted(POINTS):
            key = {"type": "odds", "on": on, "point": p}
            bets.append((key, dict(key), come_out))
    for kind in ("big_6", "big_8", "under_7", "over_7", "field", "craps"):
        bets.append(({"type": kind}, {"type": kind}, come_out))
    for n in sorted(HARDWAY_N):
        bets.append(({"type": "hardway", "number": n}, {"type": "hardway", "number": n}, come_out))
    for t in sorted(TOTAL_N):
        bets.append(({"type": "total", "total": t}, {"type": "total", "total": t}, come_out))
    for kind in ("place", "lay"):
        for n in sorted(POINTS):
            bets.append(({"type": kind, "number": n}, {"type": kind, "number": n}, come_out))
    return bets


def figures() -> list[Figure]:
    out: list[Figure] = []
    for key, fields, starts in _bets():
        pairs: list[tuple[dict[str, Any], Figure]] = []
        for bar in BARS:
            options = {"bar": bar}
            moments = {solve(fields, point, options) for point in starts}
            if len(moments) != 1:
                raise AssertionError(f"craps {key}: the figure depends on the table point")
            mean, second = moments.pop()
            fig = Figure(GAME, options, key, "exact", -mean, second - mean * mean)
            pairs.append((options, fig))
        # The bar decides which come-out throw is a push for the wrong side: its figure is given
        # for each bar even though bar 12 and bar 2 come out equal (2 and 12 are equally likely).
        keep = ("bar",) if key["type"] in ("dont_pass", "dont_come") else ()
        out.extend(collapse_options(GAME, pairs, keep))
    return out
