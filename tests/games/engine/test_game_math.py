"""Game math (issue 3, item 3): ``games.engine.math`` and ``python manage.py game_math``.

The exact figures are checked against fractions derived here BY HAND from the regulation's payouts
and the count of outcomes (roulette: 37 pockets; cussec and banca francesa: 216 throws; craps: the
classic pass / don't pass figures), the baccarat figures against the published ones (PB-1,
docs/settlement.md § Interpretations: the tableau is the standard one), blackjack insurance against
P(ten | ace up). The command is run once, ``--fast --format json``, and its output checked for shape
and coverage.

Only the command test needs Django (through a subprocess); the rest is the pure package.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from decimal import Decimal
from fractions import Fraction as F
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import settle
from games.engine.errors import RoundError
from games.engine.math import NoFigure, house_edge_of, report
from games.engine.math import baccarat as baccarat_math
from games.engine.math import blackjack as blackjack_math
from games.engine.math.core import UNIT_TEXT, Distribution, Figure, decimal_text, net_cents
from games.engine.math.figures import FIGURES

ROOT = Path(__file__).resolve().parents[3]


def moments(outcomes: list[tuple[F, F]]) -> tuple[F, F]:
    """(house edge, variance) of a bet from (probability, net result per unit) pairs."""
    assert sum(p for p, _ in outcomes) == 1
    mean = sum(p * x for p, x in outcomes)
    second = sum(p * x * x for p, x in outcomes)
    return -mean, second - mean * mean


@cache
def figures_of(game: str) -> dict[str, Figure]:
    """The report's figures for ``game`` keyed by bet and options (fast: only sims are shorter)."""
    return {key(f.bet, f.options): f for f in report([game], fast=True)}


def key(bet: dict[str, Any], options: dict[str, Any] | None = None) -> str:
    return json.dumps([bet, options or {}], sort_keys=True)


def exact(game: str, bet: dict[str, Any], options: dict[str, Any] | None = None) -> Figure:
    fig = figures_of(game)[key(bet, options)]
    assert fig.method == "exact"
    return fig


def check(game: str, bet: dict[str, Any], outcomes: list[tuple[F, F]], **options: Any) -> None:
    edge, variance = moments(outcomes)
    fig = exact(game, bet, options)
    assert (fig.house_edge, fig.variance) == (edge, variance), (game, bet, fig)


# --- roulette: 37 pockets, «N vezes» with the stake kept -------------------------------------------


def single(covered: int, n: F | int) -> list[tuple[F, F]]:
    """A one-chip bet covering ``covered`` of 37 numbers paying N to 1."""
    return [(F(covered, 37), F(n)), (F(37 - covered, 37), F(-1))]


ROULETTE_SINGLE = [
    ("straight", 1, 35),
    ("split", 2, 17),
    ("street", 3, 11),
    ("corner", 4, 8),
    ("line", 6, 5),
    ("dozen", 12, 2),
    ("column", 12, 2),
    ("double_dozen", 24, F(1, 2)),  # «metade do seu valor»
    ("double_column", 24, F(1, 2)),
    ("red", 18, 1),
    ("black", 18, 1),
    ("even", 18, 1),  # 0 is neither even nor odd (n.º 28)
    ("odd", 18, 1),
    ("low", 18, 1),
    ("high", 18, 1),
]


@pytest.mark.parametrize("game", ["american_roulette", "french_roulette"])
@pytest.mark.parametrize(("bet", "covered", "n"), ROULETTE_SINGLE)
def test_roulette_single_chip_bets_by_hand(game: str, bet: str, covered: int, n: F | int) -> None:
    check(game, {"type": bet}, single(covered, n))
    # Every one of them is 1/37 on a single-zero wheel: covered/37 x (N + 1) = 36/37 back.
    assert exact(game, {"type": bet}).house_edge == F(1, 37)


def test_roulette_straight_and_even_chance_in_numbers() -> None:
    straight = exact("french_roulette", {"type": "straight"})
    assert straight.house_edge == F(1, 37)
    assert straight.variance == F(35 * 35 + 36, 37) - F(1, 37 * 37) == F(46656, 1369)
    red = exact("french_roulette", {"type": "red"})
    assert (red.house_edge, red.variance) == (F(1, 37), F(1368, 1369))
    assert red.as_json()["house_edge"] == "0.027027"
    assert red.as_json()["rtp"] == "0.972973"
    assert red.as_json()["fraction"] == "1/37"


def series_outcomes(chips: int, per_number_returned: dict[int, int]) -> list[tuple[F, F]]:
    """Chip by chip (n.º 27 c): per winning number, the chips returned (stakes + prizes) in
    chips; every other number loses the whole bet. Net per unit = (returned - chips) / chips."""
    out = [(F(1, 37), F(r - chips, chips)) for r in per_number_returned.values()]
    losing = 37 - len(per_number_returned)
    return [*out, (F(losing, 37), F(-1))]


def test_roulette_series_chip_by_chip_by_hand() -> None:
    # Big (9 chips): 2 on street 0-2-3 (12 back each), 1 on each of five splits (18 back),
    # 2 on corner 25-26-28-29 (9 back each) — the per-chip table of I n.º 25 (R5).
    big = {n: 24 for n in (0, 2, 3)}
    big |= {n: 18 for n in (25, 26, 28, 29)}
    big |= {n: 18 for n in (4, 7, 12, 15, 18, 19, 21, 22, 32, 35)}
    check("american_roulette", {"type": "series", "series": "big"}, series_outcomes(9, big))
    # Small (6 chips): six splits, 12 numbers, 18 back.
    small = {n: 18 for n in (5, 8, 10, 11, 13, 16, 23, 24, 27, 30, 33, 36)}
    check("american_roulette", {"type": "series", "series": "small"}, series_outcomes(6, small))
    # Orphans (5 chips): straight 1 (36 back), 17 on two splits (36 back), six more split numbers.
    orphans = {1: 36, 17: 36} | {n: 18 for n in (6, 9, 14, 20, 31, 34)}
    check("american_roulette", {"type": "series", "series": "orphans"}, series_outcomes(5, orphans))
    # Big: E = (3 x 15 + 14 x 9 - 20 x 9) / 37 chips = -9/37 chips = -1/37 of the bet.
    assert exact("american_roulette", {"type": "series", "series": "big"}).house_edge == F(1, 37)


@pytest.mark.parametrize("k", [2, 4, 6])
def test_roulette_neighbours_chip_by_chip_by_hand(k: int) -> None:
    chips = k + 1  # one on the number, k/2 either side; the chip on the pocket is a straight
    outcomes = [(F(chips, 37), F(36 - chips, chips)), (F(37 - chips, 37), F(-1))]
    check("american_roulette", {"type": "neighbours", "neighbours": k}, outcomes)


def test_series_and_neighbours_only_on_american_roulette() -> None:
    french = figures_of("french_roulette")
    assert not any(f.bet["type"] in ("series", "neighbours") for f in french.values())


# --- cussec: 216 throws -------------------------------------------------------------------------

# Ways of 216 for each total of three dice (by hand: the coefficients of (x + ... + x⁶)³).
WAYS = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27,
        11: 27, 12: 25, 13: 21, 14: 15, 15: 10, 16: 6, 17: 3, 18: 1}  # fmt: skip
TOTAL_PAYS = {4: 65, 17: 65, 5: 32, 16: 32, 6: 19, 15: 19, 7: 12, 14: 12,
              8: 8, 13: 8, 9: 7, 12: 7, 10: 6, 11: 6}  # fmt: skip


def t216(ways: int) -> F:
    return F(ways, 216)


def test_cussec_small_and_big_by_hand() -> None:
    # small: totals 4-10 (3+6+10+15+21+25+27 = 107 ways) less the triples 2-2-2 and 3-3-3.
    wins = sum(WAYS[t] for t in range(4, 11)) - 2
    assert wins == 105
    for bet in ("small", "big"):
        check("cussec", {"type": bet}, [(t216(wins), F(1)), (t216(216 - wins), F(-1))])
    assert exact("cussec", {"type": "small"}).house_edge == F(1, 36)


def test_cussec_single_by_hand() -> None:
    # The face on exactly one die: 3 x 5 x 5 = 75; on two: 3 x 5 = 15; on three: 1; none: 125.
    outcomes = [(t216(75), F(1)), (t216(15), F(2)), (t216(1), F(3)), (t216(125), F(-1))]
    check("cussec", {"type": "single"}, outcomes)
    assert exact("cussec", {"type": "single"}).house_edge == F(17, 216)


def test_cussec_combination_double_triple_any_triple_by_hand() -> None:
    # Both faces a and b: a, b, x — 6 orders for each of the 4 x not a or b (24), plus a-a-b and
    # a-b-b, 3 orders each (6): 30 ways. Pays 5 once (S4).
    check("cussec", {"type": "combination"}, [(t216(30), F(5)), (t216(186), F(-1))])
    assert exact("cussec", {"type": "combination"}).house_edge == F(1, 6)
    # Double: exactly two of the face (15 ways) pays 10; the triple (1 way) pays 30 (S2).
    check("cussec", {"type": "double"}, [(t216(15), F(10)), (t216(1), F(30)), (t216(200), F(-1))])
    assert exact("cussec", {"type": "double"}).house_edge == F(5, 54)
    check("cussec", {"type": "triple"}, [(t216(1), F(190)), (t216(215), F(-1))])
    assert exact("cussec", {"type": "triple"}).house_edge == F(25, 216)
    check("cussec", {"type": "any_triple"}, [(t216(6), F(32)), (t216(210), F(-1))])
    assert exact("cussec", {"type": "any_triple"}).house_edge == F(1, 12)


@pytest.mark.parametrize("total", range(4, 18))
def test_cussec_totals_by_hand(total: int) -> None:
    ways = WAYS[total]
    outcomes = [(t216(ways), F(TOTAL_PAYS[total])), (t216(216 - ways), F(-1))]
    check("cussec", {"type": "total", "total": total}, outcomes)


def test_cussec_totals_in_numbers() -> None:
    expected = {4: F(1, 12), 5: F(1, 12), 6: F(2, 27), 7: F(7, 72), 8: F(1, 8), 9: F(2, 27),
                10: F(1, 8)}  # fmt: skip
    for total, edge in expected.items():
        assert exact("cussec", {"type": "total", "total": total}).house_edge == edge
        assert exact("cussec", {"type": "total", "total": 21 - total}).house_edge == edge


# --- banca francesa: 216 throws, non-deciding totals push (B1) --------------------------------------


def test_banca_francesa_by_hand() -> None:
    aces, small, big = 1, 6 + 10 + 15, 15 + 10 + 6  # totals 3; 5-7; 14-16
    push = 216 - aces - small - big
    check("banca_francesa", {"type": "aces"},
          [(t216(aces), F(61)), (t216(small + big), F(-1)), (t216(push), F(0))])  # fmt: skip
    check("banca_francesa", {"type": "small"},
          [(t216(small), F(1)), (t216(aces + big), F(-1)), (t216(push), F(0))])  # fmt: skip
    # Line bets play half the chips: win half the amount, lose half (half_lost).
    check("banca_francesa", {"type": "big_line"},
          [(t216(big), F(1, 2)), (t216(aces + small), F(-1, 2)), (t216(push), F(0))])  # fmt: skip
    assert exact("banca_francesa", {"type": "aces"}).house_edge == F(1, 216)
    assert exact("banca_francesa", {"type": "small_line"}).house_edge == F(1, 432)


# --- craps: the classic figures over the whole decision ----------------------------------------------


def test_craps_pass_and_dont_pass_classic() -> None:
    # Pass: 8/36 on the come-out, then each point p (ways w) is made before 7 with w / (w + 6).
    win = F(8, 36) + sum(F(w, 36) * F(w, w + 6) for w in (3, 4, 5, 5, 4, 3))
    assert win == F(244, 495)
    check("craps", {"type": "pass"}, [(win, F(1)), (1 - win, F(-1))])
    assert exact("craps", {"type": "pass"}).house_edge == F(7, 495)
    assert exact("craps", {"type": "come"}).house_edge == F(7, 495)
    # Don't pass: the bar (12, or 2: 1/36 either way) pushes; it wins where pass loses but the bar.
    for bar in (12, 2):
        outcomes = [(F(1, 36), F(0)), (1 - win - F(1, 36), F(1)), (win, F(-1))]
        check("craps", {"type": "dont_pass"}, outcomes, bar=bar)
        assert exact("craps", {"type": "dont_pass"}, {"bar": bar}).house_edge == F(3, 220)
        assert exact("craps", {"type": "dont_come"}, {"bar": bar}).house_edge == F(3, 220)


def test_craps_other_bets_by_hand() -> None:
    # Place 6 at 7:6: 5 ways against 6 -> (5 x 7/6 - 6) / 11 = -1/66.
    check("craps", {"type": "place", "number": 6}, [(F(5, 11), F(7, 6)), (F(6, 11), F(-1))])
    # Lay 4 at 5:11: 6 ways against 3.
    check("craps", {"type": "lay", "number": 4}, [(F(6, 9), F(5, 11)), (F(3, 9), F(-1))])
    # Hard 8 at 9:1: 1 way (4-4) against 6 (sevens) + 4 (easy eights).
    check("craps", {"type": "hardway", "number": 8}, [(F(1, 11), F(9)), (F(10, 11), F(-1))])
    # Field: 3, 4, 9, 10, 11 even money (14 ways), 2 and 12 double (2 ways).
    check("craps", {"type": "field"}, [(F(14, 36), F(1)), (F(2, 36), F(2)), (F(20, 36), F(-1))])
    check("craps", {"type": "total", "total": 7}, [(F(6, 36), F(4)), (F(30, 36), F(-1))])
    # Odds are true odds: no house edge.
    for on in ("pass", "dont_pass", "come", "dont_come"):
        for point in (4, 5, 6, 8, 9, 10):
            assert exact("craps", {"type": "odds", "on": on, "point": point}).house_edge == 0
    check("craps", {"type": "odds", "on": "pass", "point": 4}, [(F(1, 3), F(2)), (F(2, 3), F(-1))])


# --- blackjack insurance: exact -------------------------------------------------------------------


@pytest.mark.parametrize("decks", [4, 6])
def test_blackjack_insurance_by_hand(decks: int) -> None:
    # With an ace up, the hole card is a ten with probability 16d / (52d - 1), averaged over the
    # player's unseen-to-us cards; insurance pays 2 to 1.
    ten = F(16 * decks, 52 * decks - 1)
    edge, variance = moments([(ten, F(2)), (1 - ten, F(-1))])
    fig = blackjack_math.insurance_figure(decks)
    assert (fig.method, fig.house_edge, fig.variance) == ("exact", edge, variance)
    assert fig.house_edge == {4: F(5, 69), 6: F(23, 311)}[decks]


# --- baccarat: the published figures of the standard tableau (PB-1) --------------------------------

PUBLISHED = {  # (decks, bet, deduction): house edge in percent, Wizard of Odds "Baccarat"
    (8, "banker", "five_percent"): "1.0579",
    (8, "player", None): "1.2351",
    (8, "tie", None): "14.3596",
    (6, "banker", "five_percent"): "1.0558",
    (6, "player", None): "1.2374",
    (6, "tie", None): "14.4382",
    (8, "player_pair", None): "10.3614",
    (6, "player_pair", None): "11.2540",
}


def test_baccarat_published_figures(command_json: list[dict[str, Any]]) -> None:
    for game in ("punto_banco", "punto_banco_macau"):
        for (decks, bet, deduction), percent in PUBLISHED.items():
            options: dict[str, Any] = {"decks": decks}
            if deduction:
                options["banker_deduction"] = deduction
            if bet.endswith("pair") and game == "punto_banco_macau":
                options["pairs"] = True
            element = element_of(command_json, game, {"type": bet}, options)
            edge = F(element["fraction"])
            assert f"{float(edge) * 100:.4f}" == percent, (game, decks, bet)


def test_baccarat_no_deduction_is_the_player_bet_mirrored(
    command_json: list[dict[str, Any]],
) -> None:
    for decks in (6, 8):
        banker = element_of(command_json, "punto_banco", {"type": "banker"},
                            {"decks": decks, "banker_deduction": "none"})  # fmt: skip
        player = element_of(command_json, "punto_banco", {"type": "player"}, {"decks": decks})
        assert F(banker["fraction"]) == -F(player["fraction"])


def test_baccarat_fast_groups_coups_that_settle_alike() -> None:
    """``--fast`` settles one coup per (totals, card counts); every coup of a sample settles as its
    group's representative did (player, banker under each deduction, tie)."""
    coups = [coup for coup, _ in baccarat_math.coups()]
    representative: dict[Any, Any] = {}
    for coup in coups:
        representative.setdefault(baccarat_math.fast_key(coup), coup)
    rng = random.Random(3)
    bets = [{"id": k, "type": k, "amount": "10.05"} for k in ("player", "banker", "tie")]
    for coup in rng.sample(coups, 3000):
        for deduction in ("none", "five_percent", "half_on_five"):
            results = []
            for player, banker in (coup, representative[baccarat_math.fast_key(coup)]):
                result = settle({"game": "punto_banco", "options": {"banker_deduction": deduction},
                                 "outcome": {"player": list(player), "banker": list(banker)},
                                 "bets": bets})  # fmt: skip
                results.append([net_cents(line) for line in result["bets"]])
            assert results[0] == results[1], coup


# --- the lookup for the hold check --------------------------------------------------------------


def test_house_edge_of_exact_and_simulated() -> None:
    edge, variance = house_edge_of("french_roulette", {}, {"type": "straight", "numbers": [17]})
    assert edge == F(1, 37)
    assert isinstance(variance, Decimal)
    assert abs(variance - Decimal(46656) / Decimal(1369)) < Decimal("1e-20")
    edge, _ = house_edge_of("cussec", {}, {"type": "total", "total": 9, "amount": "5"})
    assert edge == F(2, 27)
    edge, _ = house_edge_of("craps", {"bar": 2}, {"type": "dont_pass"})
    assert edge == F(3, 220)
    edge, _ = house_edge_of("punto_banco", {}, {"type": "banker"})  # 8 decks, 5 % by default
    assert f"{float(edge):.6f}" == "0.010579"
    edge, variance = house_edge_of("blackjack", {"decks": 6}, {"type": "main", "seat": 1})
    assert isinstance(edge, Decimal)
    assert Decimal("-0.01") < edge < Decimal("0.02")
    assert Decimal(1) < variance < Decimal("1.5")
    edge, _ = house_edge_of("stud_poker", {}, {"type": "ante", "seat": 3})
    assert isinstance(edge, Decimal)
    assert Decimal("0.03") < edge < Decimal("0.08")


def test_house_edge_of_odds_point_and_conservative_default() -> None:
    _, on_six = house_edge_of("craps", {}, {"type": "odds", "on": "pass", "point": 6})
    assert on_six == Decimal("1.2")
    # Without the point: the largest variance of the six (4 and 10: win 2 w.p. 1/3).
    edge, unknown = house_edge_of("craps", {}, {"type": "odds", "on": "pass"})
    assert (edge, unknown) == (0, Decimal(2))


def test_house_edge_of_refuses_what_has_no_figure() -> None:
    with pytest.raises(NoFigure):
        house_edge_of("blackjack", {}, {"type": "double", "bet": "m"})
    with pytest.raises(NoFigure):
        house_edge_of("stud_poker", {}, {"type": "call", "seat": 1})
    with pytest.raises(RoundError):  # no series at French roulette (F1)
        house_edge_of("french_roulette", {}, {"type": "series", "series": "big"})
    with pytest.raises(RoundError):  # pair bets need the Macau table's option
        house_edge_of("punto_banco_macau", {}, {"type": "player_pair"})
    edge, _ = house_edge_of(
        "punto_banco_macau", {"pairs": True, "decks": 6}, {"type": "player_pair"}
    )
    assert edge == F(35, 311)


def test_generated_figures_match_the_exact_report() -> None:
    """``figures.py`` (from the last full report) holds the figures the code computes now."""
    games = ("american_roulette", "french_roulette", "cussec", "banca_francesa", "craps",
             "football_poker")  # fmt: skip
    stored = {(e["game"], key(e["bet"], e["options"])): e for e in FIGURES if e["game"] in games}
    fresh = {(game, k): fig for game in games for k, fig in figures_of(game).items()}
    assert stored.keys() == fresh.keys()
    for name, fig in fresh.items():
        entry = stored[name]
        assert entry["method"] == "exact"
        assert F(entry["house_edge"]) == fig.house_edge
        assert F(entry["variance"]) == fig.variance


# --- simulations ------------------------------------------------------------------------------


def test_simulations_are_seeded_and_settle_through_the_engine() -> None:
    one = blackjack_math.simulate(6, 300, seed=5)
    two = blackjack_math.simulate(6, 300, seed=5)
    assert (one[0].total, one[0].total_sq) == (two[0].total, two[0].total_sq)
    # The back bet follows every split and double of the holder: the same result every round.
    assert (one[0].total, one[0].total_sq) == (one[1].total, one[1].total_sq)


def test_blackjack_strategy_plays_only_what_the_engine_allows() -> None:
    assert blackjack_math.decide(["8S", "8H"], False, "TD") == "surrender"
    assert blackjack_math.decide(["8S", "8H"], False, "AD") == "hit"  # no surrender against an ace
    assert blackjack_math.decide(["AS", "8H"], False, "5D") == "stand"  # A-8 never doubled
    assert blackjack_math.decide(["6S", "5H"], False, "TD") == "hit"  # no double of 11 against 10
    assert blackjack_math.decide(["6S", "5H"], True, "6D") == "double"  # after a split too
    assert blackjack_math.decide(["AS", "AH"], True, "6D") == "split"  # split aces resplit
    assert blackjack_math.decide(["4S", "3H", "4D"], False, "6D") == "hit"  # 11: never stand


# --- the command ---------------------------------------------------------------------------------

ELEMENT_KEYS = {"game", "options", "bet", "house_edge", "rtp", "variance", "method"}


@pytest.fixture(scope="module")
def command_json() -> list[dict[str, Any]]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "manage.py", "game_math", "--fast", "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert time.monotonic() - started < 60
    data = json.loads(done.stdout)
    assert isinstance(data, list)
    return data


def element_of(
    data: list[dict[str, Any]], game: str, bet: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    found = [e for e in data if e["game"] == game and e["bet"] == bet and e["options"] == options]
    assert len(found) == 1, (game, bet, options, found)
    return found[0]


def test_command_json_shape(command_json: list[dict[str, Any]]) -> None:
    games = {e["game"] for e in command_json}
    assert games == {"american_roulette", "french_roulette", "banca_francesa", "craps", "cussec",
                     "blackjack", "stud_poker", "punto_banco", "punto_banco_macau",
                     "football_poker"}  # fmt: skip
    for element in command_json:
        if element["method"] == "exact":
            assert set(element) == ELEMENT_KEYS | {"fraction"}, element
            edge = F(element["fraction"])
            assert element["house_edge"] == decimal_text(edge)
            assert element["rtp"] == decimal_text(1 - edge)
        else:
            assert element["method"] == "simulation"
            assert set(element) == ELEMENT_KEYS | {"ci95", "rounds"}, element
            lo, hi = (Decimal(x) for x in element["ci95"])
            assert lo <= Decimal(element["house_edge"]) <= hi
            assert element["rounds"] == 20_000
        for field in ("house_edge", "rtp", "variance"):
            text = element[field]
            assert isinstance(text, str)
            assert len(text.split(".")[1]) == 6, text
        assert Decimal(element["variance"]) >= 0


def test_command_has_every_option_value_that_changes_a_figure(
    command_json: list[dict[str, Any]],
) -> None:
    for bar in (12, 2):
        for bet in ("dont_pass", "dont_come"):
            element_of(command_json, "craps", {"type": bet}, {"bar": bar})
    for game in ("punto_banco", "punto_banco_macau"):
        for decks in (6, 8):
            for deduction in ("none", "five_percent", "half_on_five"):
                element_of(command_json, game, {"type": "banker"},
                           {"decks": decks, "banker_deduction": deduction})  # fmt: skip
    for decks in (4, 6):
        for bet in ("main", "back", "insurance"):
            element_of(command_json, "blackjack", {"type": bet}, {"decks": decks})
    for decks in (6, 8):
        for bet in ("upper", "lower", "even", "odd", "post"):
            element_of(command_json, "football_poker", {"type": bet}, {"decks": decks})
    element_of(command_json, "stud_poker", {"type": "ante"}, {})
    element_of(command_json, "american_roulette", {"type": "series", "series": "orphans"}, {})


def test_every_figure_is_for_a_bet_the_engine_takes(command_json: list[dict[str, Any]]) -> None:
    """Each element's bet (with its options) passes the engine's own placement check."""
    from games.engine import check_bet

    for element in command_json:
        bet = dict(element["bet"])
        if (
            element["game"] == "craps"
            and bet["type"] == "odds"
            and bet["on"] in ("pass", "dont_pass")
        ):
            del bet["point"]  # the table point, not a field of the bet
        if element["game"] == "american_roulette" and bet["type"] == "neighbours":
            bet["number"] = 0
        if element["game"] == "cussec" and bet["type"] in ("single", "double", "triple"):
            bet["number"] = 1
        if element["game"] == "cussec" and bet["type"] == "combination":
            bet["numbers"] = [1, 2]
        if element["game"] in ("blackjack", "stud_poker", "football_poker"):
            if bet["type"] == "insurance":
                bet["bet"] = "m"
            else:
                bet["seat"] = 1
        layout = {"straight": [17], "split": [17, 20], "street": [16, 17, 18],
                  "corner": [13, 14, 16, 17], "line": [13, 14, 15, 16, 17, 18]}  # fmt: skip
        if "roulette" in element["game"] and bet["type"] in layout:
            bet["numbers"] = layout[bet["type"]]
        own_field = {"dozen": ("dozen", 1), "column": ("column", 1),
                     "double_dozen": ("dozens", [1, 2]), "double_column": ("columns", [1, 2])}  # fmt: skip
        if "roulette" in element["game"] and bet["type"] in own_field:
            field, value = own_field[bet["type"]]
            bet[field] = value
        check_bet(element["game"], element["options"], {"id": "x", "amount": UNIT_TEXT, **bet})


def test_distribution_is_exact() -> None:
    dist = Distribution()
    dist.add(F(35), 1)
    dist.add(F(-1), 36)
    assert dist.mean == F(-1, 37)


@given(
    number=st.integers(0, 36),
    bet=st.sampled_from(["straight", "red", "dozen", "double_column", "neighbours"]),
)
@settings(max_examples=40, deadline=None)
def test_every_roulette_bet_is_one_in_37(number: int, bet: str) -> None:
    fields: dict[str, Any] = {
        "straight": {"numbers": [number]},
        "red": {},
        "dozen": {"dozen": number % 3 + 1},
        "double_column": {"columns": [1, 2] if number % 2 else [3, 2]},
        "neighbours": {"number": number, "neighbours": 2 * (number % 3) + 2},
    }[bet]
    edge, _ = house_edge_of("american_roulette", {}, {"type": bet, **fields})
    assert edge == F(1, 37)
