"""``bench/soak.py``'s own figures, which the soak closes the day on: a round's result worked out
apart from the game engine (by hand here, then against the engine on every number), and a tray
counted in chips."""

from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import soak

from games.engine.roulette import FRENCH_ROULETTE

BETS = [
    {"seat": 1, "player": "P-b001", "type": "straight", "numbers": [17], "amount": "5"},
    {"seat": 1, "player": "P-b001", "type": "red", "amount": "20"},
    {"seat": 2, "player": "P-b002", "type": "split", "numbers": [14, 17], "amount": "10"},
    {"seat": 2, "player": "P-b002", "type": "dozen", "dozen": 2, "amount": "15"},
    {"seat": 3, "player": "P-b003", "type": "column", "column": 2, "amount": "10"},
    {"seat": 3, "player": "P-b003", "type": "even", "amount": "25"},
]


@pytest.mark.parametrize(("number", "kept"), [
    # 17 (black, odd, dozen 2, column 2): pays 175 + 170 + 30 + 20, keeps 20 + 25
    (17, Decimal("-350.00")),
    # 0: every bet lost, 85 kept
    (0, Decimal("85.00")),
    # 36 (red, even, dozen 3, column 3): pays 20 + 25, keeps 5 + 10 + 15 + 10
    (36, Decimal("-5.00")),
])
def test_the_soak_works_out_a_rounds_result_by_itself(number: int, kept: Decimal) -> None:
    assert soak.house_win(BETS, number) == kept


def test_the_soaks_result_is_the_engines_on_every_number() -> None:
    # the engine's bet: its id, type and amount and what it covers (seats are the pit's)
    bets = [{"id": f"b{i}", **{k: v for k, v in bet.items() if k not in ("seat", "player")}}
            for i, bet in enumerate(BETS)]
    stakes = [Decimal(str(bet["amount"])).quantize(Decimal("0.01")) for bet in BETS]
    for number in range(37):
        settled = FRENCH_ROULETTE.settle_bets({}, {"number": number}, bets, stakes)
        engine = sum((s - Decimal(r["returned"]) for s, r in zip(stakes, settled, strict=True)),
                     Decimal("0.00"))
        assert soak.house_win(BETS, number) == engine, number


def test_a_tray_is_counted_largest_chip_first() -> None:
    assert soak.tray_count(Decimal("16131")) == {"100.00": 161, "25.00": 1, "5.00": 1,
                                                 "1.00": 1}
    with pytest.raises(ValueError, match="not whole chips"):
        soak.tray_count(Decimal("10.50"))
