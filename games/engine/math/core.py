"""What every game's math shares: the figure, settling through the engine, exact and simulated
statistics.

Every payout comes from :func:`games.engine.settle`: a game module builds rounds (an outcome and
the bets), settles them, and weights the results. Nothing here knows a rule of any game.

Money never meets a float: stakes are :class:`~decimal.Decimal`, an exact figure is a
:class:`~fractions.Fraction`, a simulated one is a ``Decimal`` computed from integer sums of cents.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext
from fractions import Fraction
from typing import Any

from games.engine import settle
from games.engine.registry import GAMES

#: The stake every figure is computed with: 27,720 = lcm(1, 2, ..., 12), so it divides by every
#: denominator a prize or a chip split uses (½, 3:2, 0.95 = 19/20, 6:5, 7:6, 5:11, 5:8, 9/6/5 series
#: chips, 3/5/7 neighbours chips, a multiple of 10 for a banca line bet): no prize is ever rounded
#: down to the cent and the figures are those of the paytables themselves. (At a stake a ratio does
#: not divide, the cent rounding can only make a prize smaller: see docs/game-math.md.)
UNIT = Decimal("27720.00")
UNIT_TEXT = "27720.00"

EXACT = "exact"
SIMULATION = "simulation"

#: The Decimal context for reported statistics (far more digits than any figure needs).
STATS_CONTEXT = Context(prec=50, rounding=ROUND_HALF_EVEN)
_SIX = Decimal("0.000001")
_Z95 = Decimal("1.959963984540054")  # the two-sided 95 % normal quantile


class EngineRejected(AssertionError):
    """The engine rejected a round the math built: a bug on one side or the other, never ignored."""


@dataclass(frozen=True)
class Figure:
    """The house edge of one bet under one set of table options.

    ``house_edge`` and ``variance`` are per unit of the initial stake (per ante for stud poker, per
    initial main bet for blackjack): a ``Fraction`` when ``method`` is ``"exact"``, a ``Decimal``
    when it is ``"simulation"`` (then ``ci95`` is the 95 % confidence interval of the house edge,
    ``rounds`` the rounds simulated and ``seed`` the seed of the ``random.Random`` that dealt them).
    """

    game: str
    options: dict[str, Any]
    bet: dict[str, Any]
    method: str
    house_edge: Fraction | Decimal
    variance: Fraction | Decimal
    ci95: tuple[Decimal, Decimal] | None = None
    rounds: int | None = None
    seed: int | None = None
    note: str = field(default="", compare=False)

    @property
    def rtp(self) -> Fraction | Decimal:
        return 1 - self.house_edge

    def as_json(self) -> dict[str, Any]:
        """The element of ``game_math --format json`` (decimal strings, six places)."""
        element: dict[str, Any] = {
            "game": self.game,
            "options": dict(self.options),
            "bet": dict(self.bet),
            "house_edge": decimal_text(self.house_edge),
            "rtp": decimal_text(self.rtp),
            "variance": decimal_text(self.variance),
            "method": self.method,
        }
        if self.method == EXACT:
            edge = self.house_edge
            assert isinstance(edge, Fraction)
            element["fraction"] = f"{edge.numerator}/{edge.denominator}"
        else:
            assert self.ci95 is not None
            assert self.rounds is not None
            element["ci95"] = [decimal_text(self.ci95[0]), decimal_text(self.ci95[1])]
            element["rounds"] = self.rounds
        return element


def to_decimal(value: Fraction | Decimal) -> Decimal:
    """A Fraction as a Decimal of 50 significant digits (a Decimal as it is)."""
    if isinstance(value, Decimal):
        return value
    with localcontext(STATS_CONTEXT):
        return Decimal(value.numerator) / Decimal(value.denominator)


def decimal_text(value: Fraction | Decimal, places: Decimal = _SIX) -> str:
    """Six decimal places, half to even: 1/37 -> "0.027027"; -0 is written "0.000000"."""
    text = str(to_decimal(value).quantize(places, rounding=ROUND_HALF_EVEN, context=STATS_CONTEXT))
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


# --- settling through the engine ----------------------------------------------------------------


def settle_round(
    game: str, options: Mapping[str, Any], outcome: dict[str, Any], bets: list[dict[str, Any]]
) -> dict[str, Any]:
    """``games.engine.settle`` of one round the math built; a rejection raises."""
    result = settle({"game": game, "options": dict(options), "outcome": outcome, "bets": bets})
    if "error" in result:
        raise EngineRejected(f"{game}: the engine rejected a round: {result['error']} {outcome}")
    return result


def net_units(result: Mapping[str, Any], stake: Decimal = UNIT) -> Fraction:
    """A settled bet's net result (returned - stake) per unit of ``stake``."""
    return Fraction(Decimal(result["returned"]) - Decimal(result["stake"])) / Fraction(stake)


def net_cents(result: Mapping[str, Any]) -> int:
    """A settled bet's net result in cents (an exact integer)."""
    return int((Decimal(result["returned"]) - Decimal(result["stake"])).scaleb(2))


def default_options(game: str) -> dict[str, Any]:
    """The table's options when none are given (the engine's defaults)."""
    return GAMES[game].check_options({})


# --- exact statistics ----------------------------------------------------------------------------


class Distribution:
    """The weighted net results of one bet: weight -> exact mean and variance.

    Weights are exact (ints or Fractions); they need not add up to 1 (they are normalised).
    """

    __slots__ = ("_sum", "_sum_sq", "_total")

    def __init__(self) -> None:
        self._total: Fraction = Fraction(0)
        self._sum: Fraction = Fraction(0)
        self._sum_sq: Fraction = Fraction(0)

    def add(self, net: Fraction, weight: Fraction | int = 1) -> None:
        self._total += weight
        self._sum += weight * net
        self._sum_sq += weight * net * net

    def add_moments(self, weight: Fraction | int, mean: Fraction, second: Fraction) -> None:
        """Add an outcome whose own net result is random with this mean and E[X²]."""
        self._total += weight
        self._sum += weight * mean
        self._sum_sq += weight * second

    @property
    def mean(self) -> Fraction:
        return self._sum / self._total

    @property
    def variance(self) -> Fraction:
        mean = self.mean
        return self._sum_sq / self._total - mean * mean

    def figure(
        self, game: str, options: Mapping[str, Any], bet: Mapping[str, Any], note: str = ""
    ) -> Figure:
        return Figure(game, dict(options), dict(bet), EXACT, -self.mean, self.variance, note=note)


def integer_moments(
    total_weight: int, sum_net: int, sum_sq: int, scale: int
) -> tuple[Fraction, Fraction]:
    """Exact (mean, variance) per unit from integer sums of weight, weight·net, weight·net²,
    where net = scale x (net per unit)."""
    mean = Fraction(sum_net, total_weight * scale)
    second = Fraction(sum_sq, total_weight * scale * scale)
    return mean, second - mean * mean


# --- simulated statistics ------------------------------------------------------------------------


class Sample:
    """Running integer sums of a simulated per-round net result (in cents of a ``stake``)."""

    __slots__ = ("count", "stake_cents", "total", "total_sq")

    def __init__(self, stake: Decimal = UNIT) -> None:
        self.count = 0
        self.total = 0
        self.total_sq = 0
        self.stake_cents = int(stake.scaleb(2))

    def add(self, cents: int) -> None:
        self.count += 1
        self.total += cents
        self.total_sq += cents * cents

    def figure(
        self,
        game: str,
        options: Mapping[str, Any],
        bet: Mapping[str, Any],
        seed: int,
        note: str = "",
    ) -> Figure:
        """House edge = -mean per unit; 95 % CI from the sample variance (normal approximation)."""
        n, scale = self.count, self.stake_cents
        mean = Fraction(self.total, n * scale)
        second = Fraction(self.total_sq, n * scale * scale)
        variance = (second - mean * mean) * Fraction(n, n - 1)  # unbiased
        with localcontext(STATS_CONTEXT):
            edge = to_decimal(-mean)
            var = to_decimal(variance)
            half = _Z95 * (var / n).sqrt()
            ci = (edge - half, edge + half)
        return Figure(game, dict(options), dict(bet), SIMULATION, edge, var, ci, n, seed, note=note)


# --- which options change a figure ---------------------------------------------------------------


def collapse_options(
    game: str,
    computed: Iterable[tuple[dict[str, Any], Figure]],
    keep: Sequence[str] = (),
) -> list[Figure]:
    """Keep, for one bet computed under several option sets, only the options that change its
    figure (or that the bet needs and the table does not have by default, or named in ``keep``:
    an option that changes how the bet settles even where the figure comes out the same).

    ``computed``: (full options, figure) pairs for the same bet. Option names are dropped one by
    one while every group of option sets that agree on the remaining names has one figure.
    """
    pairs = list(computed)
    defaults = default_options(game)
    names = list(dict.fromkeys(name for options, _ in pairs for name in options))
    kept = list(names)

    def signature(fig: Figure) -> tuple[Any, ...]:
        return (fig.method, fig.house_edge, fig.variance)

    for name in names:
        trial = [n for n in kept if n != name]
        groups: dict[tuple[Any, ...], set[tuple[Any, ...]]] = {}
        values = {repr(options.get(name)) for options, _ in pairs}
        for options, fig in pairs:
            groups.setdefault(tuple(repr(options.get(n)) for n in trial), set()).add(signature(fig))
        same = all(len(sigs) == 1 for sigs in groups.values())
        needed = len(values) == 1 and pairs[0][0].get(name) != defaults.get(name)
        if same and not needed and name not in keep:
            kept = trial
    out: dict[tuple[Any, ...], Figure] = {}
    for options, fig in pairs:
        key = tuple(repr(options.get(n)) for n in kept)
        if key not in out:
            shown = {n: options[n] for n in kept if n in options}
            out[key] = Figure(
                fig.game, shown, fig.bet, fig.method, fig.house_edge, fig.variance,
                fig.ci95, fig.rounds, fig.seed, fig.note,
            )  # fmt: skip
    return list(out.values())


def option_sets(choices: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every combination of the given option values."""
    sets: list[dict[str, Any]] = [{}]
    for name, values in choices.items():
        sets = [{**options, name: value} for options in sets for value in values]
    return sets
