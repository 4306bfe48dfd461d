"""Banca francesa (Portaria 217/2007 Tít. I Cap. II Secç. I): every throw, every bet.

An independent reading of n.ºs 7 d), 9-14 and of B1-B5 (docs/settlement.md § Interpretations) is
compared with the engine on all 216 throws, touched or not; the house edges the payouts imply are
checked exactly.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import product

import pytest

from games.engine import GAMES, check_bet, settle
from games.engine.errors import RoundError

THROWS = list(product(range(1, 7), repeat=3))
BETS = [
    {"id": "aces", "type": "aces", "amount": "10"},
    {"id": "small", "type": "small", "amount": "10"},
    {"id": "big", "type": "big", "amount": "10"},
    {"id": "small_line", "type": "small_line", "amount": "20"},
    {"id": "big_line", "type": "big_line", "amount": "20"},
]


def expected(bet: str, total: int, touched: bool) -> tuple[str, str, str]:
    """(status, win, returned) read from the regulation, bet by bet."""
    chance = (
        "aces"
        if total == 3
        else "small"
        if total in (5, 6, 7)
        else "big"
        if total in (14, 15, 16)
        else None
    )
    line = bet.endswith("_line")
    amount = Decimal(20 if line else 10)
    if chance is None:
        return ("push", "0.00", f"{amount:.2f}")  # B1
    if bet.removesuffix("_line") == chance:
        win = amount / 2 if line else amount * (61 if chance == "aces" else 1)  # n.ºs 11, 13
        return ("won", f"{win:.2f}", f"{amount + win:.2f}")
    if touched:
        return ("push", "0.00", f"{amount:.2f}")  # n.º 7 d)
    if line:
        return ("half_lost", "0.00", f"{amount / 2:.2f}")  # n.º 11, B3
    return ("lost", "0.00", "0.00")


@pytest.mark.parametrize("touched", [False, True])
@pytest.mark.parametrize("dice", THROWS)
def test_every_throw_every_bet(dice: tuple[int, int, int], touched: bool) -> None:
    result = settle(
        {
            "game": "banca_francesa",
            "outcome": {"dice": list(dice), "touched": touched},
            "bets": BETS,
        }
    )
    total = sum(dice)
    assert result["outcome"]["total"] == total
    assert result["outcome"]["touched"] is touched
    for bet, line in zip(BETS, result["bets"], strict=True):
        status, win, returned = expected(bet["type"], total, touched)
        assert line == {
            "id": bet["id"],
            "status": status,
            "stake": f"{Decimal(bet['amount']):.2f}",
            "win": win,
            "returned": returned,
        }


def _edge(bet_type: str) -> tuple[Fraction, Fraction]:
    """(EV per throw, EV per deciding throw) per unit staked."""
    amount = Fraction(20 if bet_type.endswith("_line") else 10)
    total_ev = Fraction(0)
    deciding = 0
    for dice in THROWS:
        line = settle({"game": "banca_francesa", "outcome": {"dice": list(dice)},
                       "bets": [{"id": "b", "type": bet_type, "amount": str(amount)}]})["bets"][0]  # fmt: skip
        if line["status"] != "push":
            deciding += 1
        total_ev += (Fraction(line["returned"]) - amount) / amount
    return total_ev / 216, total_ev / deciding


def test_house_edges() -> None:
    # Aces: 1 way pays 61, 62 ways lose -> -1/216 a throw, -1/63 (1.59 %) a decision (B2).
    assert _edge("aces") == (Fraction(-1, 216), Fraction(-1, 63))
    # Small / big: 31 ways win, 32 lose -> -1/216 (0.46 %) a throw.
    assert _edge("small") == (Fraction(-1, 216), Fraction(-1, 63))
    assert _edge("big")[0] == Fraction(-1, 216)
    # Lines play half: 31 ways win 1/2, 32 ways lose 1/2 -> -1/432.
    assert _edge("small_line")[0] == Fraction(-1, 432)
    assert _edge("big_line")[0] == Fraction(-1, 432)


def test_settle_bets_path_equals_the_per_bet_path() -> None:
    engine = GAMES["banca_francesa"]
    options = engine.check_options({})
    for dice in THROWS[::7]:
        for touched in (False, True):
            outcome = engine.check_outcome(options, {"dice": list(dice), "touched": touched})
            for bet in BETS:
                engine.check_bet(options, bet)
            stakes = [Decimal(b["amount"]).quantize(Decimal("0.01")) for b in BETS]
            fast = settle(
                {
                    "game": "banca_francesa",
                    "outcome": {"dice": list(dice), "touched": touched},
                    "bets": BETS,
                }
            )
            assert engine.settle_bets(options, outcome, BETS, stakes) == fast["bets"]


@pytest.mark.parametrize("amount", ["10", "10.00", "20", "990", "1000000"])
def test_line_amounts_in_multiples_of_10_are_placed(amount: str) -> None:
    assert check_bet("banca_francesa", {}, {"id": "l", "type": "big_line", "amount": amount}) == {}


@pytest.mark.parametrize("amount", ["5", "15", "10.01", "9.99", "25.50"])
def test_line_amounts_off_the_multiple_of_10_are_refused(amount: str) -> None:
    with pytest.raises(RoundError) as raised:
        check_bet("banca_francesa", {}, {"id": "l", "type": "small_line", "amount": amount})
    assert (raised.value.code, raised.value.bet) == ("invalid_bet", "l")
