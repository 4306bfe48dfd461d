"""Craps (Portaria 217/2007 Tít. I Cap. II Secç. II): exhaustive checks beyond the golden cases.

The strongest check here is independent of the engine's code: following each bet roll after roll
(``pending`` -> the next state) gives its exact expected value, which must be the house edge the
payouts of n.ºs 10-13 and C4/C5 (docs/settlement.md § Interpretations) imply (pass 7/495, place 6
1/66, ...). A wrong decision rule or payout anywhere moves some edge.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from games.engine import GAMES, check_bet, settle

DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]
POINTS = (4, 5, 6, 8, 9, 10)
STAKE = "1320.00"  # divisible by 2, 3, 5, 6, 8, 11: every prize in whole cents, edges exact


def _roll(
    bet: dict[str, Any], point: int | None, dice: tuple[int, int], bar: int = 12
) -> dict[str, Any]:
    result = settle({"game": "craps", "options": {"bar": bar}, "outcome": {"dice": list(dice), "point": point},
                     "bets": [{"id": "b", **bet, "amount": STAKE}]})  # fmt: skip
    assert "error" not in result, result
    return result


def _state(
    bet: tuple[tuple[str, Any], ...], point: int | None
) -> tuple[tuple[tuple[str, Any], ...], int | None]:
    """Table point matters only to pass / don't pass and odds on them."""
    d = dict(bet)
    uses_point = d["type"] in ("pass", "dont_pass") or d.get("on") in ("pass", "dont_pass")
    if d["type"] in ("come", "dont_come") and "point" not in d:
        return bet, 4 if point is None else point  # needs an established table point, any one
    return bet, point if uses_point else None


@cache
def expected_value(bet: tuple[tuple[str, Any], ...], point: int | None, bar: int = 12) -> Fraction:
    """Exact EV per unit staked, following ``pending`` results roll after roll."""
    bet, point = _state(bet, point)
    decided = Fraction(0)
    stay = Fraction(0)
    for dice in DICE:
        result = _roll(dict(bet), point, dice, bar)
        line = result["bets"][0]
        p = Fraction(1, 36)
        if line["status"] == "won":
            decided += p * Fraction(line["win"]) / Fraction(STAKE)
        elif line["status"] == "lost":
            decided -= p
        elif line["status"] == "pending":
            d = dict(bet)
            if d["type"] in ("come", "dont_come"):
                d["point"] = line["point"]
            nxt = _state(tuple(sorted(d.items())), result["outcome"]["point_after"])
            if nxt == (bet, point):
                stay += p
            else:
                decided += p * expected_value(nxt[0], nxt[1], bar)
        else:
            assert line["status"] == "push"
    return decided / (1 - stay)


def ev(table_point: int | None, bet: dict[str, Any], bar: int = 12) -> Fraction:
    return expected_value(tuple(sorted(bet.items())), table_point, bar)


EDGES: list[tuple[dict[str, Any], int | None, Fraction]] = [
    ({"type": "pass"}, None, Fraction(-7, 495)),  # the classic 1.414 %
    ({"type": "dont_pass"}, None, Fraction(-3, 220)),  # 1.364 % with the bar on 12
    ({"type": "come"}, 6, Fraction(-7, 495)),
    ({"type": "dont_come"}, 6, Fraction(-3, 220)),
    *[({"type": "odds", "on": "pass"}, n, Fraction(0)) for n in POINTS],  # n.º 11.1 true odds
    *[({"type": "odds", "on": "dont_pass"}, n, Fraction(0)) for n in POINTS],  # C4
    *[({"type": "odds", "on": "come", "point": n}, None, Fraction(0)) for n in POINTS],
    *[({"type": "odds", "on": "dont_come", "point": n}, 8, Fraction(0)) for n in POINTS],
    *[({"type": "place", "number": n}, None, e) for n, e in
      ((6, Fraction(-1, 66)), (8, Fraction(-1, 66)), (5, Fraction(-1, 25)), (9, Fraction(-1, 25)), (4, Fraction(-1, 15)), (10, Fraction(-1, 15)))],
    *[({"type": "lay", "number": n}, None, e) for n, e in
      ((6, Fraction(-1, 55)), (8, Fraction(-1, 55)), (5, Fraction(-1, 40)), (9, Fraction(-1, 40)), (4, Fraction(-1, 33)), (10, Fraction(-1, 33)))],
    ({"type": "big_6"}, None, Fraction(-1, 11)),
    ({"type": "big_8"}, 5, Fraction(-1, 11)),
    ({"type": "hardway", "number": 4}, None, Fraction(-1, 9)),
    ({"type": "hardway", "number": 10}, None, Fraction(-1, 9)),
    ({"type": "hardway", "number": 6}, None, Fraction(-1, 11)),
    ({"type": "hardway", "number": 8}, None, Fraction(-1, 11)),
    ({"type": "field"}, None, Fraction(-1, 18)),
    ({"type": "craps"}, None, Fraction(-1, 9)),
    ({"type": "under_7"}, None, Fraction(-1, 6)),
    ({"type": "over_7"}, 4, Fraction(-1, 6)),
    ({"type": "total", "total": 7}, None, Fraction(-1, 6)),
    ({"type": "total", "total": 2}, None, Fraction(-5, 36)),
    ({"type": "total", "total": 12}, None, Fraction(-5, 36)),
    ({"type": "total", "total": 3}, None, Fraction(-1, 9)),
    ({"type": "total", "total": 11}, None, Fraction(-1, 9)),
]  # fmt: skip


@pytest.mark.parametrize(("bet", "point", "edge"), EDGES, ids=[f"{b}@{p}" for b, p, _ in EDGES])
def test_every_bet_has_the_expected_value_its_payout_implies(
    bet: dict[str, Any], point: int | None, edge: Fraction
) -> None:
    assert ev(point, bet) == edge


def test_dont_pass_with_bar_2_has_the_same_edge() -> None:
    # Barring 2 instead of 12 moves one way of 36 from win to push either way: 3/220 still.
    assert ev(None, {"type": "dont_pass"}, bar=2) == Fraction(-3, 220)


@pytest.mark.parametrize("point", [None, *POINTS])
@pytest.mark.parametrize("dice", DICE)
def test_point_after(point: int | None, dice: tuple[int, int]) -> None:
    total = sum(dice)
    outcome = settle(
        {"game": "craps", "outcome": {"dice": list(dice), "point": point}, "bets": []}
    )["outcome"]
    if point is None:
        expected = total if total in POINTS else None
    else:
        expected = None if total in (7, point) else point
    assert outcome == {"dice": list(dice), "point": point, "total": total, "point_after": expected}


ALL_BETS: list[dict[str, Any]] = [
    {"type": "pass"}, {"type": "dont_pass"},
    *[{"type": t, "point": n} for t in ("come", "dont_come") for n in POINTS],
    *[{"type": "odds", "on": on, "point": n} for on in ("come", "dont_come") for n in POINTS],
    {"type": "odds", "on": "pass"}, {"type": "odds", "on": "dont_pass"},
    {"type": "big_6"}, {"type": "big_8"}, {"type": "under_7"}, {"type": "over_7"}, {"type": "field"}, {"type": "craps"},
    *[{"type": "hardway", "number": n} for n in (4, 6, 8, 10)],
    *[{"type": "total", "total": n} for n in (2, 3, 7, 11, 12)],
    *[{"type": t, "number": n} for t in ("place", "lay") for n in POINTS],
]  # fmt: skip
ONE_ROLL = {"under_7", "over_7", "field", "craps", "total"}


@pytest.mark.parametrize("bar", [12, 2])
@pytest.mark.parametrize("point", POINTS)
def test_only_pending_results_carry_a_point_and_only_dont_bets_push(bar: int, point: int) -> None:
    bets = [{"id": str(i), **bet, "amount": "6"} for i, bet in enumerate(ALL_BETS)]
    for dice in DICE:
        result = settle(
            {
                "game": "craps",
                "options": {"bar": bar},
                "outcome": {"dice": list(dice), "point": point},
                "bets": bets,
            }
        )
        for bet, line in zip(bets, result["bets"], strict=True):
            base = {"id", "status", "stake", "win", "returned"}
            if line["status"] == "pending":
                assert set(line) == base | {"point"}
                assert line["point"] in POINTS
                assert bet["type"] not in ONE_ROLL
                assert (line["win"], line["returned"]) == ("0.00", "0.00")
            else:
                assert set(line) == base
            # with a point on, a bet with its own point never meets the bar: no push at all
            assert line["status"] != "push"


def test_the_bar_pushes_only_the_first_roll_of_dont_bets() -> None:
    for bar in (12, 2):
        dice = [6, 6] if bar == 12 else [1, 1]
        result = settle({"game": "craps", "options": {"bar": bar}, "outcome": {"dice": dice, "point": 5},
                         "bets": [{"id": "dc", "type": "dont_come", "amount": "1"},
                                  {"id": "dc4", "type": "dont_come", "point": 4, "amount": "1"},
                                  {"id": "dp", "type": "dont_pass", "amount": "1"}]})  # fmt: skip
        assert [b["status"] for b in result["bets"]] == ["push", "pending", "pending"]


def test_settle_bets_path_equals_the_per_bet_path() -> None:
    engine = GAMES["craps"]
    bets = [{"id": str(i), **bet, "amount": "7.77"} for i, bet in enumerate(ALL_BETS)]
    for bar in (12, 2):
        options = engine.check_options({"bar": bar})
        for point in POINTS:
            for dice in DICE:
                outcome = engine.check_outcome(options, {"dice": list(dice), "point": point})
                for bet in bets:
                    engine.check_bet(options, bet)
                reference = engine.settle_bets(
                    options, outcome, bets, [Decimal("7.77")] * len(bets)
                )
                fast = settle(
                    {
                        "game": "craps",
                        "options": {"bar": bar},
                        "outcome": {"dice": list(dice), "point": point},
                        "bets": bets,
                    }
                )
                assert reference == fast["bets"]


def test_placement_check_does_not_need_the_table_point() -> None:
    # A come bet is placed once a point is on (n.º 10.3); check_bet has no outcome, so it only
    # checks the bet itself; settle() then refuses it on a come-out roll.
    assert check_bet("craps", {}, {"id": "c", "type": "come", "amount": "5"}) == {"bar": 12}
    assert check_bet(
        "craps", {"bar": 2}, {"id": "o", "type": "odds", "on": "pass", "amount": "5"}
    ) == {"bar": 2}
    rejected = settle(
        {
            "game": "craps",
            "outcome": {"dice": [1, 2]},
            "bets": [{"id": "c", "type": "come", "amount": "5"}],
        }
    )
    assert rejected == {
        "error": {"code": "invalid_bet", "message": rejected["error"]["message"], "bet": "c"}
    }
