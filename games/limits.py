"""Table limits: which limit each bet falls under, and the regulation's max/min ratios.

Pure (no Django): the services and the admin use it when a table is configured and when a bet is
placed. Limits are configured per *limit group* (``straight``, ``even_chances``, ``main`` ...):
``{"min": "5.00", "max": "150.00"}``. A configuration whose maximum is more than the ratio the
regulation allows times the minimum is refused naming the article (``RATIOS``). Where the
regulation's text has no ratio for a group, none is enforced; where the platform reads one in, it
says so (``interpretation``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from games.rules.money import MONEY_MAX

# --- limit groups per game --------------------------------------------------------------------

_ROULETTE_GROUPS = {
    "straight": "straight",
    "split": "split",
    "street": "street",
    "corner": "corner",
    "line": "line",
    "dozen": "dozen",
    "column": "column",
    "double_dozen": "double_dozen",
    "double_column": "double_column",
    "red": "even_chances",
    "black": "even_chances",
    "even": "even_chances",
    "odd": "even_chances",
    "low": "even_chances",
    "high": "even_chances",
}

_CRAPS_TYPES = ("pass", "dont_pass", "come", "dont_come", "odds", "big_6", "big_8", "under_7",
                "over_7", "field", "craps", "hardway", "total", "place", "lay")
# n.º 12: place and lay bets are multiples of their minimums, which follow the payout ratio:
# place 4/10 pays 9:5 and 5/9 7:5 (minimums of 5), 6/8 7:6 (of 6); lay 4/10 5:11 (of 11),
# 5/9 5:8 (of 8), 6/8 4:5 (of 5).
CRAPS_NUMBER_GROUPS = {
    "place": {4: "place_4_10", 10: "place_4_10", 5: "place_5_9", 9: "place_5_9",
              6: "place_6_8", 8: "place_6_8"},
    "lay": {4: "lay_4_10", 10: "lay_4_10", 5: "lay_5_9", 9: "lay_5_9", 6: "lay_6_8",
            8: "lay_6_8"},
}
_NUMBER_UNIT = {"place_4_10": 5, "place_5_9": 5, "place_6_8": 6, "lay_4_10": 11, "lay_5_9": 8,
                "lay_6_8": 5}


def limit_groups(game: str, options: dict[str, Any] | None = None) -> dict[str, str]:
    """Bet type -> limit group, for the bets a player places before "no more bets"."""
    options = options or {}
    if game == "american_roulette":
        groups = dict(_ROULETTE_GROUPS)
        if options.get("wheel", "french") == "french":
            groups |= {"series": "series", "neighbours": "neighbours"}
        return groups
    if game == "french_roulette":
        return dict(_ROULETTE_GROUPS)
    if game == "banca_francesa":
        return {"aces": "aces", "small": "small_big", "big": "small_big",
                "small_line": "small_big", "big_line": "small_big"}
    if game == "craps":
        return {t: t for t in _CRAPS_TYPES}
    if game == "cussec":
        return {t: t for t in ("small", "big", "single", "combination", "double", "triple",
                               "any_triple", "total")}
    if game == "blackjack":
        return {"main": "main", "back": "main"}
    if game == "stud_poker":
        return {"ante": "ante"}
    if game in ("punto_banco", "punto_banco_macau"):
        return {"player": "player_banker", "banker": "player_banker", "tie": "tie",
                "player_pair": "pairs", "banker_pair": "pairs"}
    if game == "football_poker":
        return {t: t for t in ("upper", "lower", "even", "odd", "post")}
    return {}


def required_groups(game: str, options: dict[str, Any] | None = None) -> list[str]:
    groups = sorted(set(limit_groups(game, options).values()))
    if game == "american_roulette" and "series" in groups:
        groups.remove("series")
        groups += ["series_big", "series_small", "series_orphans"]
    if game == "craps":
        groups = [g for g in groups if g not in CRAPS_NUMBER_GROUPS]
        groups += sorted(set(_NUMBER_UNIT))
    return sorted(groups)


def group_of(game: str, options: dict[str, Any], bet: dict[str, Any]) -> str | None:
    """The limit group of one bet (as the rules engine reads it)."""
    kind = bet.get("type")
    if kind == "series":
        return SERIES_GROUPS.get(str(bet.get("series")))
    if game == "craps" and kind in CRAPS_NUMBER_GROUPS:
        return CRAPS_NUMBER_GROUPS[str(kind)].get(bet.get("number"))  # type: ignore[arg-type]
    return limit_groups(game, options).get(str(kind))


# --- ratios (max at most N x min) -----------------------------------------------------------


@dataclass(frozen=True)
class Ratio:
    times: int
    article: str
    interpretation: str = ""


_AMERICAN_32A = {
    "straight": 30, "split": 60, "street": 90, "corner": 120, "line": 180,
    "dozen": 360, "column": 360, "double_dozen": 720, "double_column": 720,
}

RATIOS: dict[str, dict[str, Ratio]] = {
    "american_roulette": {
        **{g: Ratio(n, "Portaria 217/2007, roleta americana, n.º 32 a)")
           for g, n in _AMERICAN_32A.items()},
        "even_chances": Ratio(540, "Portaria 217/2007, roleta americana, n.º 32 b)"),
        # n.º 32 c): big 9-135 chips, small 6-120, orphans 5-50, in whole units of the series.
        "series_big": Ratio(15, "Portaria 217/2007, roleta americana, n.º 32 c) i)",
                            "the minimum is one unit of 9 chips, the maximum 135 chips"),
        "series_small": Ratio(20, "Portaria 217/2007, roleta americana, n.º 32 c) ii)",
                              "the minimum is one unit of 6 chips, the maximum 120 chips"),
        "series_orphans": Ratio(10, "Portaria 217/2007, roleta americana, n.º 32 c) iii)",
                                "the minimum is one unit of 5 chips, the maximum 50 chips"),
    },
    "french_roulette": {
        **{g: Ratio(n, "Portaria 217/2007, roleta americana, n.º 32 a)",
                    "the French section's n.º 24 a) is missing from the text; the American "
                    "section's ratios apply (docs/settlement.md § Interpretations, Roulette)")
           for g, n in _AMERICAN_32A.items()},
        "even_chances": Ratio(540, "Portaria 217/2007, roleta francesa, n.º 24 b)"),
    },
    "banca_francesa": {
        "aces": Ratio(6, "Portaria 217/2007, banca francesa, n.º 17 a)"),
        "small_big": Ratio(200, "Portaria 217/2007, banca francesa, n.º 17 b)"),
    },
    "blackjack": {"main": Ratio(30, "Portaria 217/2007, blackjack, n.º 37")},
    "stud_poker": {"ante": Ratio(25, "Portaria 217/2007, póquer sem descarte, n.º 14")},
    "punto_banco": {
        "player_banker": Ratio(70, "Portaria 217/2007, bacará ponto e banca, n.º 21"),
        "tie": Ratio(15, "Portaria 217/2007, bacará ponto e banca, n.º 21"),
        "pairs": Ratio(8, "Portaria 217/2007, bacará ponto e banca, n.º 21"),
    },
    "punto_banco_macau": {
        g: Ratio(r.times, r.article,
                 "Secção IV's text stops at n.º 12; Secção III's ratios apply (PBM-1)")
        for g, r in {
            "player_banker": Ratio(70, "Portaria 217/2007, bacará ponto e banca, n.º 21"),
            "tie": Ratio(15, "Portaria 217/2007, bacará ponto e banca, n.º 21"),
            "pairs": Ratio(8, "Portaria 217/2007, bacará ponto e banca, n.º 21"),
        }.items()
    },
}

# The articles that let a table cap the prizes the bank pays in one coup.
PRIZE_CAP_ARTICLE = {"stud_poker": "Portaria 217/2007, póquer sem descarte, n.º 15"}

SERIES_GROUPS = {"big": "series_big", "small": "series_small", "orphans": "series_orphans"}


class LimitError(ValueError):
    """A configuration or a bet that breaks a limit; ``article`` names the rule."""

    def __init__(self, message: str, *, article: str = "", group: str = "",
                 params: dict[str, Any] | None = None) -> None:
        self.template = message
        self.params = params
        self.message = message if params is None else message.format(**params)
        super().__init__(self.message)
        self.article = article
        self.group = group


def parse_limits(game: str, options: dict[str, Any], limits: object) -> dict[str, dict[str, Decimal]]:
    """Check a table's limits: every group of the game, min <= max, and the ratios."""
    if not isinstance(limits, dict):
        raise LimitError("limits must map each bet group to its minimum and maximum")
    wanted = required_groups(game, options)
    unknown = sorted(set(limits) - set(wanted))
    if unknown:
        raise LimitError("{game} has no limit group {unknown!r} (groups: {wanted})",
                         params={"game": game, "unknown": unknown[0], "wanted": ', '.join(wanted)},
                         group=unknown[0])
    missing = [g for g in wanted if g not in limits]
    if missing:
        raise LimitError("limits for {missing} are missing",
                         params={"missing": ', '.join(missing)}, group=missing[0])
    parsed: dict[str, dict[str, Decimal]] = {}
    for group in wanted:
        pair = limits[group]
        if not isinstance(pair, dict) or set(pair) != {"min", "max"}:
            raise LimitError("limits of {group} must be {{\"min\": ..., \"max\": ...}}",
                             params={"group": group},
                             group=group)
        low, high = _amount(pair["min"], group), _amount(pair["max"], group)
        if high < low:
            raise LimitError("{group}: the maximum {high} is below the minimum {low}",
                             params={"group": group, "high": high, "low": low}, group=group)
        ratio = RATIOS.get(game, {}).get(group)
        if ratio is not None and high > low * ratio.times:
            note = f" (interpretation: {ratio.interpretation})" if ratio.interpretation else ""
            raise LimitError(
                "{group}: the maximum {high} is more than {times} times the minimum {low}, "
                "which {article} does not allow{note}",
                params={"group": group, "high": high, "times": ratio.times, "low": low, "article": ratio.article, "note": note},
                article=ratio.article, group=group,
            )
        parsed[group] = {"min": low, "max": high}
    return parsed


def limits_as_data(parsed: dict[str, dict[str, Decimal]]) -> dict[str, dict[str, str]]:
    return {g: {"min": str(v["min"]), "max": str(v["max"])} for g, v in sorted(parsed.items())}


def limits_from_data(data: dict[str, dict[str, str]]) -> dict[str, dict[str, Decimal]]:
    return {g: {"min": Decimal(v["min"]), "max": Decimal(v["max"])} for g, v in data.items()}


def default_limits(game: str, minimum: Decimal, options: dict[str, Any] | None = None
                   ) -> dict[str, dict[str, str]]:
    """Limits at the regulation's widest ratio from one minimum (the demo and the tests)."""
    out: dict[str, dict[str, str]] = {}
    for group in required_groups(game, options):
        low = minimum * 9 if group == "series_big" else minimum
        if group == "series_small":
            low = minimum * 6
        elif group == "series_orphans":
            low = minimum * 5
        if group in _NUMBER_UNIT:
            unit = _NUMBER_UNIT[group]
            low = (minimum / unit).to_integral_value(rounding="ROUND_CEILING") * unit
        ratio = RATIOS.get(game, {}).get(group)
        times = ratio.times if ratio else 100
        out[group] = {"min": str(low.quantize(Decimal("0.01"))),
                      "max": str((low * times).quantize(Decimal("0.01")))}
    return out


def _amount(value: object, group: str) -> Decimal:
    if isinstance(value, float | bool) or not isinstance(value, str | int | Decimal):
        raise LimitError("{group}: limits are amounts written as strings",
                         params={"group": group}, group=group)
    try:
        amount = Decimal(str(value))
    except ArithmeticError:
        raise LimitError("{group}: {value!r} is not an amount",
                         params={"group": group, "value": value}, group=group) from None
    if amount.is_finite() and amount > MONEY_MAX:  # checked first: 1e40 has no cents to quantize
        raise LimitError("{group}: {amount:,.2f} is more than the largest amount the books hold "
                         "({money_max:,})",
                         params={"group": group, "amount": amount, "money_max": MONEY_MAX}, group=group)
    if not amount.is_finite() or amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise LimitError("{group}: {value!r} is not a positive amount with at most two decimals",
                         params={"group": group, "value": value},
                         group=group)
    return amount.quantize(Decimal("0.01"))
