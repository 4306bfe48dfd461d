"""Hypothesis properties of the roulette and dice games (contract § Result, § Errors).

- settling is deterministic and leaves its input alone;
- random valid rounds are never rejected, and bets come back in order;
- every amount has two decimals; won single-chip bets return stake + win, push the stake,
  half_lost half the stake rounded down, lost nothing, pending nothing (and carry ``point``);
- a bet settles the same alone as among others (bets are independent in these games);
- random invalid rounds (number 37, a die 7, a split that is not adjacent, ...) are rejected with
  the right code and the right bet.
"""

from __future__ import annotations

import copy
from decimal import ROUND_FLOOR, Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import settle
from games.engine.roulette import NUMBER_BETS, SERIES_CHIPS

SETTINGS = settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

# --- amounts -----------------------------------------------------------------------------------


@st.composite
def amounts(draw: st.DrawFn, multiple_of_cents: int = 1) -> str:
    """A money string for a whole number of ``multiple_of_cents`` cents, in any accepted spelling."""
    cents = draw(st.integers(1, 10**8)) * multiple_of_cents
    whole, frac = divmod(cents, 100)
    zeros = "0" * draw(st.integers(0, 2))
    if frac == 0 and draw(st.booleans()):
        return f"{zeros}{whole}"
    if frac % 10 == 0 and draw(st.booleans()):
        return f"{zeros}{whole}.{frac // 10}"
    return f"{zeros}{whole}.{frac:02d}"


# --- bets per game -----------------------------------------------------------------------------

SELECTIONS = {name: [sorted(sel) for sel in table] for name, (_, table) in NUMBER_BETS.items()}
SINGLE_CHIP_N = {"straight": 35, "split": 17, "street": 11, "corner": 8, "line": 5, "dozen": 2, "column": 2,
                 "double_dozen": Decimal("0.5"), "double_column": Decimal("0.5"),
                 "red": 1, "black": 1, "even": 1, "odd": 1, "low": 1, "high": 1}  # fmt: skip


@st.composite
def roulette_bet(draw: st.DrawFn, series: bool) -> dict[str, Any]:
    kinds = list(SINGLE_CHIP_N) + (["series", "neighbours"] if series else [])
    t = draw(st.sampled_from(kinds))
    if t in SELECTIONS:
        numbers = draw(st.sampled_from(SELECTIONS[t]))
        return {"type": t, "numbers": draw(st.permutations(numbers)), "amount": draw(amounts())}
    if t in ("dozen", "column"):
        return {"type": t, t: draw(st.sampled_from([1, 2, 3])), "amount": draw(amounts())}
    if t in ("double_dozen", "double_column"):
        pair = draw(st.sampled_from([[1, 2], [2, 1], [2, 3], [3, 2]]))
        return {
            "type": t,
            ("dozens" if t == "double_dozen" else "columns"): pair,
            "amount": draw(amounts()),
        }
    if t == "series":
        name = draw(st.sampled_from(sorted(SERIES_CHIPS)))
        return {"type": t, "series": name, "amount": draw(amounts(SERIES_CHIPS[name]))}
    if t == "neighbours":
        k = draw(st.sampled_from([2, 4, 6]))
        return {
            "type": t,
            "number": draw(st.integers(0, 36)),
            "neighbours": k,
            "amount": draw(amounts(k + 1)),
        }
    return {"type": t, "amount": draw(amounts())}


@st.composite
def banca_bet(draw: st.DrawFn) -> dict[str, Any]:
    t = draw(st.sampled_from(["aces", "small", "big", "small_line", "big_line"]))
    return {"type": t, "amount": draw(amounts(1000 if t.endswith("_line") else 1))}


@st.composite
def cussec_bet(draw: st.DrawFn) -> dict[str, Any]:
    t = draw(
        st.sampled_from(
            ["small", "big", "single", "combination", "double", "triple", "any_triple", "total"]
        )
    )
    bet: dict[str, Any] = {"type": t}
    if t in ("single", "double", "triple"):
        bet["number"] = draw(st.integers(1, 6))
    elif t == "combination":
        bet["numbers"] = draw(st.lists(st.integers(1, 6), min_size=2, max_size=2, unique=True))
    elif t == "total":
        bet["total"] = draw(st.integers(4, 17))
    bet["amount"] = draw(amounts())
    return bet


POINTS = [4, 5, 6, 8, 9, 10]


@st.composite
def craps_bet(draw: st.DrawFn, table_point: int | None) -> dict[str, Any]:
    kinds = ["pass", "dont_pass", "come", "dont_come", "odds", "big_6", "big_8", "under_7", "over_7", "field", "craps",
             "hardway", "total", "place", "lay"]  # fmt: skip
    t = draw(st.sampled_from(kinds))
    bet: dict[str, Any] = {"type": t}
    if t in ("come", "dont_come"):
        if table_point is None or draw(st.booleans()):
            # a come bet without a point needs a table point
            bet["point"] = draw(st.sampled_from(POINTS))
        elif draw(st.booleans()):
            bet["point"] = None
    elif t == "odds":
        ons = ["come", "dont_come"] + (["pass", "dont_pass"] if table_point is not None else [])
        bet["on"] = draw(st.sampled_from(ons))
        if bet["on"] in ("come", "dont_come"):
            bet["point"] = draw(st.sampled_from(POINTS))
    elif t == "hardway":
        bet["number"] = draw(st.sampled_from([4, 6, 8, 10]))
    elif t in ("place", "lay"):
        bet["number"] = draw(st.sampled_from(POINTS))
    elif t == "total":
        bet["total"] = draw(st.sampled_from([2, 3, 7, 11, 12]))
    bet["amount"] = draw(amounts())
    return bet


def _with_ids(bets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"id": f"b{i}", **bet} for i, bet in enumerate(bets)]


@st.composite
def valid_round(draw: st.DrawFn) -> dict[str, Any]:
    game = draw(
        st.sampled_from(
            ["american_roulette", "french_roulette", "banca_francesa", "craps", "cussec"]
        )
    )
    r: dict[str, Any] = {"game": game}
    if game == "american_roulette":
        wheel = draw(st.sampled_from([None, "french", "american"]))
        if wheel is not None:
            r["options"] = {"wheel": wheel}
        r["outcome"] = {"number": draw(st.integers(0, 36))}
        bets = draw(st.lists(roulette_bet(series=wheel != "american"), max_size=12))
    elif game == "french_roulette":
        r["outcome"] = {"number": draw(st.integers(0, 36))}
        bets = draw(st.lists(roulette_bet(series=False), max_size=12))
    elif game == "banca_francesa":
        r["outcome"] = {"dice": draw(st.lists(st.integers(1, 6), min_size=3, max_size=3))}
        if draw(st.booleans()):
            r["outcome"]["touched"] = draw(st.booleans())
        bets = draw(st.lists(banca_bet(), max_size=12))
    elif game == "cussec":
        r["outcome"] = {"dice": draw(st.lists(st.integers(1, 6), min_size=3, max_size=3))}
        bets = draw(st.lists(cussec_bet(), max_size=12))
    else:
        point = draw(st.sampled_from([None, *POINTS]))
        r["options"] = {"bar": draw(st.sampled_from([12, 2]))}
        r["outcome"] = {"dice": draw(st.lists(st.integers(1, 6), min_size=2, max_size=2))}
        if point is not None or draw(st.booleans()):
            r["outcome"]["point"] = point
        bets = draw(st.lists(craps_bet(point), max_size=12))
    r["bets"] = _with_ids(bets)
    return r


# --- properties of valid rounds ----------------------------------------------------------------

STATUSES = {
    "american_roulette": {"won", "lost"},
    "french_roulette": {"won", "lost"},
    "cussec": {"won", "lost"},
    "banca_francesa": {"won", "lost", "push", "half_lost"},
    "craps": {"won", "lost", "push", "pending"},
}


def _two_decimals(text: str) -> bool:
    whole, dot, frac = text.partition(".")
    return whole.isdigit() and dot == "." and len(frac) == 2 and frac.isdigit()


@SETTINGS
@given(valid_round())
def test_valid_rounds_settle_deterministically_with_the_contract_s_amounts(
    round_: dict[str, Any],
) -> None:
    before = copy.deepcopy(round_)
    result = settle(round_)
    assert "error" not in result, result
    assert round_ == before  # the input is left alone
    assert settle(copy.deepcopy(round_)) == result  # deterministic
    assert result["game"] == round_["game"]
    assert [line["id"] for line in result["bets"]] == [bet["id"] for bet in round_["bets"]]
    multi_chip = {"series", "neighbours"}
    for bet, line in zip(round_["bets"], result["bets"], strict=True):
        assert line["status"] in STATUSES[round_["game"]]
        for key in ("stake", "win", "returned"):
            assert _two_decimals(line[key]), line
        stake, win, returned = (Decimal(line[k]) for k in ("stake", "win", "returned"))
        assert stake == Decimal(bet["amount"])
        assert win >= 0
        assert ("point" in line) == (line["status"] == "pending")
        if line["status"] == "won":
            if bet["type"] in multi_chip:
                assert returned > win  # the winning chips come back with their prize
                assert returned - win <= stake
            else:
                assert returned == stake + win
        elif line["status"] == "push":
            assert (win, returned) == (0, stake)
        elif line["status"] == "half_lost":
            assert win == 0
            assert returned == (stake / 2).quantize(Decimal("0.01"), rounding=ROUND_FLOOR)
        else:  # lost, pending
            assert (win, returned) == (0, 0)


@SETTINGS
@given(valid_round())
def test_a_bet_settles_the_same_alone(round_: dict[str, Any]) -> None:
    together = settle(round_)["bets"]
    for bet, line in zip(round_["bets"], together, strict=True):
        assert settle({**round_, "bets": [bet]})["bets"] == [line]


@SETTINGS
@given(st.integers(0, 36), st.lists(roulette_bet(series=False), min_size=1, max_size=8))
def test_single_chip_roulette_prizes_are_n_times_the_stake_rounded_down(
    number: int, bets: list[dict[str, Any]]
) -> None:
    result = settle(
        {"game": "french_roulette", "outcome": {"number": number}, "bets": _with_ids(bets)}
    )
    for bet, line in zip(bets, result["bets"], strict=True):
        if line["status"] == "won":
            n = SINGLE_CHIP_N[bet["type"]]
            expected = (Decimal(bet["amount"]) * n).quantize(Decimal("0.01"), rounding=ROUND_FLOOR)
            assert Decimal(line["win"]) == expected
        if "numbers" in bet:
            assert (line["status"] == "won") == (number in bet["numbers"])


# --- invalid rounds ----------------------------------------------------------------------------


def _adjacent(a: int, b: int) -> bool:
    if 0 in (a, b):
        return max(a, b) in (1, 2, 3)
    (ra, ca), (rb, cb) = divmod(a - 1, 3), divmod(b - 1, 3)
    return (ra == rb and abs(ca - cb) == 1) or (ca == cb and abs(ra - rb) == 1)


@SETTINGS
@given(valid_round(), st.integers(0, 36), st.integers(0, 36), st.data())
def test_a_split_is_accepted_exactly_when_the_numbers_are_adjacent(
    round_: dict[str, Any], a: int, b: int, data: st.DataObject
) -> None:
    game = data.draw(st.sampled_from(["american_roulette", "french_roulette"]))
    bets = [
        {"id": "ok", "type": "red", "amount": "1"},
        {"id": "x", "type": "split", "numbers": [a, b], "amount": "1"},
    ]
    result = settle({"game": game, "outcome": {"number": 17}, "bets": bets})
    if a != b and _adjacent(a, b):
        assert "error" not in result
    else:
        assert result["error"]["code"] == "invalid_bet"
        assert result["error"]["bet"] == "x"


@SETTINGS
@given(valid_round(), st.data())
def test_an_impossible_outcome_is_invalid_outcome(
    round_: dict[str, Any], data: st.DataObject
) -> None:
    outcome = round_["outcome"]
    if "number" in outcome:
        outcome["number"] = data.draw(st.one_of(st.integers(37, 10**6), st.integers(-(10**6), -1),
                                                st.sampled_from(["17", 17.0, True, None, [17]])))  # fmt: skip
    else:
        dice = outcome["dice"]
        i = data.draw(st.integers(0, len(dice) - 1))
        dice[i] = data.draw(
            st.one_of(
                st.integers(7, 100), st.integers(-100, 0), st.sampled_from(["3", 3.0, False, None])
            )
        )
    assert settle(round_)["error"]["code"] == "invalid_outcome"


@SETTINGS
@given(valid_round(), st.data())
def test_a_wrong_number_of_dice_is_invalid_outcome(
    round_: dict[str, Any], data: st.DataObject
) -> None:
    if "dice" not in round_["outcome"]:
        return
    wanted = len(round_["outcome"]["dice"])
    count = data.draw(st.integers(0, 6).filter(lambda n: n != wanted))
    round_["outcome"]["dice"] = [1] * count
    assert settle(round_)["error"]["code"] == "invalid_outcome"


BAD_BETS: dict[str, list[dict[str, Any]]] = {
    "american_roulette": [{"type": "straight", "numbers": [37]}, {"type": "corner", "numbers": [3, 4, 6, 7]},
                          {"type": "dozen", "dozen": 0}, {"type": "series", "series": "big", "amount": "10"},
                          {"type": "neighbours", "number": 1, "neighbours": 5, "amount": "6"}],
    "french_roulette": [{"type": "line", "numbers": [0, 1, 2, 3, 4, 5]}, {"type": "series", "series": "big", "amount": "9"},
                        {"type": "double_dozen", "dozens": [1, 3]}, {"type": "red", "numbers": []}],
    "banca_francesa": [{"type": "small_line", "amount": "15"}, {"type": "aces", "number": 1}, {"type": "triple"}],
    "cussec": [{"type": "single", "number": 7}, {"type": "combination", "numbers": [4, 4]}, {"type": "total", "total": 3}],
    "craps": [{"type": "hardway", "number": 5}, {"type": "place", "number": 7}, {"type": "odds", "on": "field"},
              {"type": "come", "point": 7}, {"type": "total", "total": 4}],
}  # fmt: skip


@SETTINGS
@given(valid_round(), st.data())
def test_an_invalid_bet_anywhere_rejects_the_round_naming_it(
    round_: dict[str, Any], data: st.DataObject
) -> None:
    bad = {"amount": "1", **data.draw(st.sampled_from(BAD_BETS[round_["game"]])), "id": "bad"}
    at = data.draw(st.integers(0, len(round_["bets"])))
    round_["bets"].insert(at, bad)
    result = settle(round_)
    assert result["error"]["code"] == "invalid_bet"
    assert result["error"]["bet"] == "bad"


@SETTINGS
@given(valid_round(), st.data())
def test_a_bad_amount_is_invalid_bet(round_: dict[str, Any], data: st.DataObject) -> None:
    if not round_["bets"]:
        return
    i = data.draw(st.integers(0, len(round_["bets"]) - 1))
    round_["bets"][i]["amount"] = data.draw(
        st.sampled_from(["0", "0.00", "-1", "1.001", "1e2", " 1", "1.", ".1", ""])
    )
    result = settle(round_)
    assert result["error"]["code"] == "invalid_bet"
    assert result["error"]["bet"] == round_["bets"][i]["id"]


@SETTINGS
@given(valid_round(), st.data())
def test_an_amount_that_is_not_a_string_is_malformed(
    round_: dict[str, Any], data: st.DataObject
) -> None:
    if not round_["bets"]:
        return
    i = data.draw(st.integers(0, len(round_["bets"]) - 1))
    round_["bets"][i]["amount"] = data.draw(st.sampled_from([1, 1.5, None, True, ["1"]]))
    assert settle(round_)["error"]["code"] == "malformed"
