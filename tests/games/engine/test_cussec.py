"""Cussec (Portaria 217/2007 Tít. I Cap. II Secç. III): every throw, every bet, and the edges.

An independent reading of n.ºs 7-10 (and S1-S5, docs/settlement.md § Interpretations) is compared
with the engine on all 216 throws for every one of the 50 bets of the layout; the exact house edges
those payouts imply are checked.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import combinations, product
from typing import Any

import pytest

from games.engine import GAMES, settle

THROWS = list(product(range(1, 7), repeat=3))
TOTAL_PRIZE = {
    4: 65,
    17: 65,
    5: 32,
    16: 32,
    6: 19,
    15: 19,
    7: 12,
    14: 12,
    8: 8,
    13: 8,
    9: 7,
    12: 7,
    10: 6,
    11: 6,
}

LAYOUT: list[dict[str, Any]] = [
    {"type": "small"}, {"type": "big"}, {"type": "any_triple"},
    *[{"type": t, "number": f} for t in ("single", "double", "triple") for f in range(1, 7)],
    *[{"type": "combination", "numbers": list(pair)} for pair in combinations(range(1, 7), 2)],
    *[{"type": "total", "total": t} for t in range(4, 18)],
]  # fmt: skip
BETS = [{"id": str(i), **bet, "amount": "2.5"} for i, bet in enumerate(LAYOUT)]


def prize(bet: dict[str, Any], dice: tuple[int, ...]) -> int:
    """N to 1, or 0 for a losing bet, read from n.º 8 bet by bet."""
    total, triple = sum(dice), len(set(dice)) == 1
    t = bet["type"]
    if t == "small":
        return 1 if 4 <= total <= 10 and not triple else 0  # n.º 7 a), n.º 9
    if t == "big":
        return 1 if 11 <= total <= 17 and not triple else 0
    if t == "single":
        return dice.count(bet["number"])  # S1
    if t == "double":
        return {2: 10, 3: 30}.get(dice.count(bet["number"]), 0)  # S2
    if t == "triple":
        return 190 if dice.count(bet["number"]) == 3 else 0
    if t == "any_triple":
        return 32 if triple else 0
    if t == "combination":
        a, b = bet["numbers"]
        return 5 if a in dice and b in dice else 0  # S4
    return TOTAL_PRIZE[total] if total == bet["total"] else 0


@pytest.mark.parametrize("dice", THROWS)
def test_every_throw_every_bet(dice: tuple[int, int, int]) -> None:
    result = settle({"game": "cussec", "outcome": {"dice": list(dice)}, "bets": BETS})
    assert result["outcome"] == {
        "dice": list(dice),
        "total": sum(dice),
        "triple": len(set(dice)) == 1,
    }
    for bet, line in zip(BETS, result["bets"], strict=True):
        n = prize(bet, dice)
        if n:
            win = Decimal("2.50") * n
            assert line == {
                "id": bet["id"],
                "status": "won",
                "stake": "2.50",
                "win": f"{win:.2f}",
                "returned": f"{win + Decimal('2.50'):.2f}",
            }
        else:
            assert line == {
                "id": bet["id"],
                "status": "lost",
                "stake": "2.50",
                "win": "0.00",
                "returned": "0.00",
            }


def _edge(bet: dict[str, Any]) -> Fraction:
    total = Fraction(0)
    for dice in THROWS:
        line = settle(
            {
                "game": "cussec",
                "outcome": {"dice": list(dice)},
                "bets": [{"id": "b", **bet, "amount": "1"}],
            }
        )["bets"][0]
        total += Fraction(line["returned"]) - 1
    return total / 216


@pytest.mark.parametrize(
    ("bet", "edge"),
    [
        ({"type": "small"}, Fraction(-6, 216)),  # 105 ways win, 111 lose: 2.78 %
        ({"type": "big"}, Fraction(-6, 216)),
        ({"type": "single", "number": 4}, Fraction(-17, 216)),  # 75x1 + 15x2 + 1x3 - 125
        ({"type": "double", "number": 2}, Fraction(-20, 216)),  # 15x10 + 1x30 - 200
        ({"type": "triple", "number": 6}, Fraction(-25, 216)),  # 190 - 215
        ({"type": "any_triple"}, Fraction(-18, 216)),  # 6x32 - 210
        ({"type": "combination", "numbers": [3, 5]}, Fraction(-36, 216)),  # 30x5 - 186
        ({"type": "total", "total": 4}, Fraction(-18, 216)),  # 3x65 - 213
        ({"type": "total", "total": 5}, Fraction(-18, 216)),  # 6x32 - 210
        ({"type": "total", "total": 6}, Fraction(-16, 216)),  # 10x19 - 206
        ({"type": "total", "total": 7}, Fraction(-21, 216)),  # 15x12 - 201
        ({"type": "total", "total": 8}, Fraction(-27, 216)),  # 21x8 - 195
        ({"type": "total", "total": 9}, Fraction(-16, 216)),  # 25x7 - 191
        ({"type": "total", "total": 10}, Fraction(-27, 216)),  # 27x6 - 189
        ({"type": "total", "total": 17}, Fraction(-18, 216)),
    ],
    ids=lambda v: str(v),
)
def test_house_edges(bet: dict[str, Any], edge: Fraction) -> None:
    assert _edge(bet) == edge


def test_settle_bets_path_equals_the_per_bet_path() -> None:
    engine = GAMES["cussec"]
    options = engine.check_options({})
    for dice in THROWS:
        outcome = engine.check_outcome(options, {"dice": list(dice)})
        for bet in BETS:
            engine.check_bet(options, bet)
        stakes = [Decimal("2.50")] * len(BETS)
        fast = settle({"game": "cussec", "outcome": {"dice": list(dice)}, "bets": BETS})
        assert engine.settle_bets(options, outcome, BETS, stakes) == fast["bets"]
