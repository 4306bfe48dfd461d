"""Roulette (Portaria 217/2007 Tít. I Cap. I): the layout tables, series, neighbours, both paths.

The golden cases (``cases/*_roulette.jsonl``) hold the settlement examples; these tests check the
precomputed tables against the regulation's own words and the two settlement paths against each
other.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise
from typing import Any

import pytest

from games.engine import GAMES, check_bet, settle, settle_or_raise
from games.engine.errors import RoundError
from games.engine.roulette import (
    COLOR,
    NUMBER_BETS,
    RED,
    SERIES,
    SERIES_CHIPS,
    WHEEL_AMERICAN,
    WHEEL_FRENCH,
    neighbours_of,
)

# n.º 2 a) and b), copied from the regulation's text.
SEED_FRENCH = "0-32-15-19-4-21-2-25-17-34-6-27-13-36-11-30-8-23-10-5-24-16-33-1-20-14-31-9-22-18-29-7-28-12-35-3-26"
SEED_AMERICAN = "0-28-9-26-30-11-7-20-32-17-5-22-34-15-3-24-36-13-1-27-10-25-29-12-8-19-31-18-6-21-33-16-4-23-35-14-2"


def test_wheels_are_the_seed_numberings_of_37_pockets() -> None:
    assert "-".join(map(str, WHEEL_FRENCH)) == SEED_FRENCH
    assert "-".join(map(str, WHEEL_AMERICAN)) == SEED_AMERICAN
    assert sorted(WHEEL_FRENCH) == list(range(37))
    assert sorted(WHEEL_AMERICAN) == list(range(37))


def test_colours_alternate_on_the_french_wheel_and_zero_is_green() -> None:
    # n.º 6: «inscrito alternadamente sobre fundo encarnado e preto, não tendo o número 0 nenhuma
    # destas cores». The standard red set alternates on the French numbering.
    assert len(RED) == 18
    assert COLOR[0] == "green"
    ring = [COLOR[n] for n in WHEEL_FRENCH[1:]]
    assert all(a != b for a, b in pairwise(ring))


def test_layout_selection_counts_match_the_regulation() -> None:
    counts = {name: len(table) for name, (_, table) in NUMBER_BETS.items()}
    assert counts == {"straight": 37, "split": 60, "street": 14, "corner": 23, "line": 11}


def _adjacent(a: int, b: int) -> bool:
    """Adjacent on the layout by geometry: row = (n-1)//3, column = (n-1)%3; 0 borders 1, 2, 3."""
    if 0 in (a, b):
        return max(a, b) in (1, 2, 3)
    (ra, ca), (rb, cb) = divmod(a - 1, 3), divmod(b - 1, 3)
    return (ra == rb and abs(ca - cb) == 1) or (ca == cb and abs(ra - rb) == 1)


def test_splits_are_exactly_the_adjacent_pairs() -> None:
    splits = set(NUMBER_BETS["split"][1])
    adjacent = {frozenset((a, b)) for a in range(37) for b in range(a + 1, 37) if _adjacent(a, b)}
    assert splits == adjacent


def test_series_have_the_chips_and_numbers_of_n25() -> None:
    # n.º 25 a): big 9 chips / 17 numbers, small 6 / 12, orphans 5 / 8.
    assert SERIES_CHIPS == {"big": 9, "small": 6, "orphans": 5}
    numbers = {name: set().union(*(set(ns) for _, ns, _ in p)) for name, p in SERIES.items()}
    assert {name: len(ns) for name, ns in numbers.items()} == {"big": 17, "small": 12, "orphans": 8}
    assert numbers["big"] == {0, 2, 3, 4, 7, 12, 15, 18, 19, 21, 22, 25, 26, 28, 29, 32, 35}
    assert numbers["small"] == {5, 8, 10, 11, 13, 16, 23, 24, 27, 30, 33, 36}
    assert numbers["orphans"] == {1, 6, 9, 14, 17, 20, 31, 34}
    # The three series are the three sectors of the French wheel: together every number, once.
    assert numbers["big"] | numbers["small"] | numbers["orphans"] == set(range(37))
    assert sum(len(ns) for ns in numbers.values()) == 37


def test_each_series_is_one_arc_of_the_french_wheel() -> None:
    # The series are sectors of the wheel (voisins du zéro, tiers, orphelins): each one's numbers
    # make one run of the French numbering (orphans: two runs, 17-34-6 and 1-20-14-31-9).
    for name, runs in (("big", 1), ("small", 1), ("orphans", 2)):
        covered = set().union(*(set(ns) for _, ns, _ in SERIES[name]))
        inside = [n in covered for n in WHEEL_FRENCH]
        starts = sum(1 for i in range(37) if inside[i] and not inside[i - 1])
        assert starts == runs, name


# I n.º 25 (series; R5): per chip c, (returned, win) by number.
SERIES_TABLE = {
    "big": {**dict.fromkeys((0, 2, 3), (24, 22)), **dict.fromkeys((25, 26, 28, 29), (18, 16)),
            **dict.fromkeys((4, 7, 12, 15, 18, 19, 21, 22, 32, 35), (18, 17))},
    "small": dict.fromkeys((5, 8, 10, 11, 13, 16, 23, 24, 27, 30, 33, 36), (18, 17)),
    "orphans": {1: (36, 35), 17: (36, 34), **dict.fromkeys((6, 9, 14, 20, 31, 34), (18, 17))},
}  # fmt: skip


@pytest.mark.parametrize("name", ["big", "small", "orphans"])
@pytest.mark.parametrize("number", range(37))
def test_series_settle_chip_by_chip_per_the_regulation_table(name: str, number: int) -> None:
    chips = SERIES_CHIPS[name]
    result = settle(
        {
            "game": "american_roulette",
            "outcome": {"number": number},
            "bets": [{"id": "s", "type": "series", "series": name, "amount": f"{chips * 3}.00"}],
        }
    )["bets"][0]
    if number in SERIES_TABLE[name]:
        returned, win = SERIES_TABLE[name][number]
        assert result == {"id": "s", "status": "won", "stake": f"{chips * 3}.00",
                          "win": f"{win * 3}.00", "returned": f"{returned * 3}.00"}  # fmt: skip
    else:
        assert result["status"] == "lost"
        assert (result["win"], result["returned"]) == ("0.00", "0.00")


def test_neighbours_examples_of_docs_settlement() -> None:
    assert neighbours_of(0, 2) == (26, 0, 32)
    assert neighbours_of(17, 4) == (2, 25, 17, 34, 6)
    assert neighbours_of(5, 6) == (8, 23, 10, 5, 24, 16, 33)
    assert neighbours_of(26, 2) == (3, 26, 0)


@pytest.mark.parametrize("k", [2, 4, 6])
@pytest.mark.parametrize("centre", range(37))
def test_neighbours_win_exactly_on_their_pockets(centre: int, k: int) -> None:
    at = WHEEL_FRENCH.index(centre)
    pockets = {WHEEL_FRENCH[(at + i) % 37] for i in range(-(k // 2), k // 2 + 1)}
    assert len(pockets) == k + 1
    bets = [
        {"id": "n", "type": "neighbours", "number": centre, "neighbours": k, "amount": f"{k + 1}"}
    ]
    for number in range(37):
        result = settle({"game": "american_roulette", "outcome": {"number": number}, "bets": bets})[
            "bets"
        ][0]
        if number in pockets:
            assert (result["status"], result["win"], result["returned"]) == (
                "won",
                "35.00",
                "36.00",
            )
        else:
            assert result["status"] == "lost"


def _every_valid_bet() -> list[dict[str, Any]]:
    bets: list[dict[str, Any]] = []
    for name, (_, table) in NUMBER_BETS.items():
        bets += [{"type": name, "numbers": sorted(sel)} for sel in table]
    bets += [{"type": "dozen", "dozen": d} for d in (1, 2, 3)]
    bets += [{"type": "column", "column": c} for c in (1, 2, 3)]
    bets += [{"type": "double_dozen", "dozens": p} for p in ([1, 2], [2, 3])]
    bets += [{"type": "double_column", "columns": p} for p in ([1, 2], [2, 3])]
    bets += [{"type": t} for t in ("red", "black", "even", "odd", "low", "high")]
    return [{"id": f"b{i}", **bet, "amount": "1.02"} for i, bet in enumerate(bets)]


def _covers(bet: dict[str, Any], n: int) -> bool:
    """An independent reading of n.º 24: does ``bet`` cover ``n``?"""
    t = bet["type"]
    if "numbers" in bet:
        return n in bet["numbers"]
    if n == 0:
        return False  # n.º 28: 0 loses every chance below
    return {
        "dozen": lambda: (n - 1) // 12 + 1 == bet.get("dozen"),
        "column": lambda: (n - 1) % 3 + 1 == bet.get("column"),
        "double_dozen": lambda: (n - 1) // 12 + 1 in bet.get("dozens", ()),
        "double_column": lambda: (n - 1) % 3 + 1 in bet.get("columns", ()),
        "red": lambda: n in RED,
        "black": lambda: n not in RED,
        "even": lambda: n % 2 == 0,
        "odd": lambda: n % 2 == 1,
        "low": lambda: n <= 18,
        "high": lambda: n >= 19,
    }[t]()


N = {"straight": 35, "split": 17, "street": 11, "corner": 8, "line": 5, "dozen": 2, "column": 2}


@pytest.mark.parametrize("game", ["american_roulette", "french_roulette"])
@pytest.mark.parametrize("number", range(37))
def test_every_layout_bet_on_every_number(game: str, number: int) -> None:
    bets = _every_valid_bet()
    result = settle({"game": game, "outcome": {"number": number}, "bets": bets})
    assert result["outcome"] == {"number": number, "color": COLOR[number]}
    for bet, line in zip(bets, result["bets"], strict=True):
        assert line["id"] == bet["id"]
        if _covers(bet, number):
            if bet["type"] in ("double_dozen", "double_column"):
                expected_win = "0.51"  # half of 1.02
            else:
                expected_win = str(Decimal("1.02") * N.get(bet["type"], 1))
            assert line == {"id": bet["id"], "status": "won", "stake": "1.02", "win": expected_win,
                            "returned": str(Decimal("1.02") + Decimal(expected_win))}  # fmt: skip
        else:
            assert line == {
                "id": bet["id"],
                "status": "lost",
                "stake": "1.02",
                "win": "0.00",
                "returned": "0.00",
            }


@pytest.mark.parametrize("game", ["american_roulette", "french_roulette"])
def test_settle_bets_path_equals_the_per_bet_path(game: str) -> None:
    # The reference path (check_bet, then settle_bets) must give what settle() gives.
    engine = GAMES[game]
    bets = _every_valid_bet()
    if game == "american_roulette":
        bets += [
            {"id": "s1", "type": "series", "series": "orphans", "amount": "5"},
            {"id": "s2", "type": "neighbours", "number": 4, "neighbours": 6, "amount": "7"},
        ]
    options = engine.check_options({})
    for number in (0, 1, 17, 36):
        outcome = engine.check_outcome(options, {"number": number})
        for bet in bets:
            engine.check_bet(options, bet)
        stakes = [Decimal(bet["amount"]).quantize(Decimal("0.01")) for bet in bets]
        reference = engine.settle_bets(options, outcome, bets, stakes)
        assert (
            reference == settle({"game": game, "outcome": {"number": number}, "bets": bets})["bets"]
        )


def test_check_bet_at_placement_returns_the_table_options() -> None:
    assert check_bet(
        "american_roulette", {}, {"id": "a", "type": "split", "numbers": [17, 20], "amount": "5"}
    ) == {"wheel": "french"}
    assert check_bet("french_roulette", {}, {"id": "a", "type": "red", "amount": "5"}) == {}


@pytest.mark.parametrize(
    ("game", "options", "bet", "code"),
    [
        (
            "american_roulette",
            {},
            {"id": "a", "type": "split", "numbers": [17, 19], "amount": "5"},
            "invalid_bet",
        ),
        (
            "american_roulette",
            {"wheel": "american"},
            {"id": "a", "type": "series", "series": "big", "amount": "9"},
            "invalid_bet",
        ),
        (
            "american_roulette",
            {},
            {"id": "a", "type": "series", "series": "big", "amount": "10"},
            "invalid_bet",
        ),
        (
            "american_roulette",
            {"wheel": "x"},
            {"id": "a", "type": "red", "amount": "5"},
            "invalid_option",
        ),
        (
            "french_roulette",
            {},
            {"id": "a", "type": "neighbours", "number": 1, "neighbours": 2, "amount": "3"},
            "invalid_bet",
        ),
        ("french_roulette", {}, {"id": "a", "type": "red", "amount": 5}, "malformed"),
        ("french_roulette", {}, {"id": "a", "type": "red", "amount": "5.555"}, "invalid_bet"),
        ("roleta", {}, {"id": "a", "type": "red", "amount": "5"}, "unknown_game"),
    ],
)
def test_check_bet_at_placement_rejects(
    game: str, options: dict[str, Any], bet: dict[str, Any], code: str
) -> None:
    with pytest.raises(RoundError) as raised:
        check_bet(game, options, bet)
    assert raised.value.code == code
    if code == "invalid_bet":
        assert raised.value.bet == "a"


def test_settle_or_raise_raises_what_settle_returns() -> None:
    round_ = {"game": "french_roulette", "outcome": {"number": 1},
              "bets": [{"id": "x", "type": "split", "numbers": [3, 4], "amount": "1"}]}  # fmt: skip
    with pytest.raises(RoundError) as raised:
        settle_or_raise(round_)
    assert raised.value.as_dict() == settle(round_)
    assert raised.value.as_dict()["error"]["bet"] == "x"  # type: ignore[index]


def test_settle_does_not_mutate_its_input() -> None:
    bets = [{"id": "a", "type": "street", "numbers": [3, 1, 2], "amount": "007.5"}]
    round_ = {"game": "american_roulette", "outcome": {"number": 2}, "bets": bets}
    before = repr(round_)
    result = settle(round_)
    assert repr(round_) == before
    assert result["bets"][0]["stake"] == "7.50"
