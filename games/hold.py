"""The hold check: a table's result against the game math for the bets actually staked.

For every bet staked, ``edge_key`` names its kind (``straight``, ``place:6``, ``banker:five_percent``);
``FIGURES`` gives, per unit staked, the house edge (expected house win) and the variance of the
player's net result, each *per decision* (a carried craps bet or a banca francesa push is staked
once, as the handle counts it). A session's theoretical win is Σ stake × edge; its standard
deviation √(Σ stake² × variance) (bets independent: an approximation, since bets of one round
share the outcome); the check flags a result outside the 95% interval (± 1.96 σ).

Where the figures come from (``figure``): the engine's game math
(``games.engine.math.house_edge_of``, the ``game_math`` command) for every bet it has a figure
for; a blackjack split or double stake and a stud poker call have none of their own (they are
inside the main bet's or the ante's figure, so they count in the handle with no edge of their
own). Two exceptions and a fallback, derived here by exact enumeration from each game's rules:

- banca francesa: the platform leaves a pushed bet where it is (it carries, staked once), so its
  figure is per *decision* (1/63 for every chance), not per throw as a push that settles;
- the fallback ``figures(game)`` when the engine's module is not there or has no figure (roulette,
  dice, craps, football poker and punto banco on an infinite deck; blackjack and stud poker
  published approximations). TO REPLACE entirely by the engine's figures once they cover every
  case above.

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction as F
from functools import cache
from itertools import product
from typing import Any

Dist = list[tuple[F, F]]  # (probability, player's net result per unit staked)
Z95 = Decimal("1.96")


# --- edge keys ----------------------------------------------------------------------------------


def edge_key(game: str, bet: dict[str, Any], options: dict[str, Any] | None = None) -> str:
    kind = str(bet.get("type"))
    if game in ("american_roulette", "french_roulette"):
        if kind == "series":
            return f"series:{bet.get('series')}"
        if kind == "neighbours":
            return f"neighbours:{bet.get('neighbours')}"
        return kind
    if game == "craps":
        if kind in ("place", "lay", "hardway"):
            return f"{kind}:{bet.get('number')}"
        if kind == "total":
            return f"total:{bet.get('total')}"
        if kind == "odds":
            return "odds:right" if bet.get("on") in ("pass", "come") else "odds:wrong"
        return kind
    if game == "cussec" and kind == "total":
        return f"total:{bet.get('total')}"
    if game in ("punto_banco", "punto_banco_macau") and kind == "banker":
        return f"banker:{(options or {}).get('banker_deduction', 'five_percent')}"
    return kind


# --- distributions ------------------------------------------------------------------------------


def _bet(p_win: F, pays: F, p_push: F = F(0)) -> Dist:
    return [(p_win, pays), (p_push, F(0)), (1 - p_win - p_push, F(-1))]


def _roulette() -> dict[str, Dist]:
    k37 = F(1, 37)
    out = {name: _bet(k37 * covered, F(n)) for name, covered, n in (
        ("straight", 1, 35), ("split", 2, 17), ("street", 3, 11), ("corner", 4, 8),
        ("line", 6, 5), ("dozen", 12, 2), ("column", 12, 2), ("red", 18, 1), ("black", 18, 1),
        ("even", 18, 1), ("odd", 18, 1), ("low", 18, 1), ("high", 18, 1))}
    out["double_dozen"] = out["double_column"] = _bet(24 * k37, F(1, 2))
    # Series (I n.º 25, R5: per chip c = amount / chips): numbers -> returned units.
    out["series:big"] = [(3 * k37, F(24, 9) - 1), (14 * k37, F(1)), (20 * k37, F(-1))]
    out["series:small"] = [(12 * k37, F(18, 6) - 1), (25 * k37, F(-1))]
    out["series:orphans"] = [(2 * k37, F(36, 5) - 1), (6 * k37, F(18, 5) - 1), (29 * k37, F(-1))]
    for k in (2, 4, 6):
        out[f"neighbours:{k}"] = [((k + 1) * k37, F(36, k + 1) - 1), ((36 - k) * k37, F(-1))]
    return out


def _dice(count: int) -> list[tuple[int, ...]]:
    return list(product(range(1, 7), repeat=count))


def _from_outcomes(outcomes: list[tuple[int, ...]], net: Callable[[tuple[int, ...]], F]) -> Dist:
    p = F(1, len(outcomes))
    return [(p, net(d)) for d in outcomes]


def _cussec() -> dict[str, Dist]:
    throws = _dice(3)
    total_pays = {4: 65, 17: 65, 5: 32, 16: 32, 6: 19, 15: 19, 7: 12, 14: 12, 8: 8, 13: 8,
                  9: 7, 12: 7, 10: 6, 11: 6}

    def triple(d: tuple[int, ...]) -> bool:
        return d[0] == d[1] == d[2]

    out: dict[str, Dist] = {
        "small": _from_outcomes(throws, lambda d: F(1) if 4 <= sum(d) <= 10 and not triple(d)
                                else F(-1)),
        "big": _from_outcomes(throws, lambda d: F(1) if 11 <= sum(d) <= 17 and not triple(d)
                              else F(-1)),
        "single": _from_outcomes(throws, lambda d: F(d.count(1)) if 1 in d else F(-1)),
        "combination": _from_outcomes(throws, lambda d: F(5) if 1 in d and 2 in d else F(-1)),
        "double": _from_outcomes(throws, lambda d: F({2: 10, 3: 30}.get(d.count(1), -1))),
        "triple": _from_outcomes(throws, lambda d: F(190) if d == (1, 1, 1) else F(-1)),
        "any_triple": _from_outcomes(throws, lambda d: F(32) if triple(d) else F(-1)),
    }
    for total, pays in total_pays.items():
        out[f"total:{total}"] = _from_outcomes(throws, _total_bet(total, pays))
    return out


def _total_bet(total: int, pays: int) -> Callable[[tuple[int, ...]], F]:
    def net(dice: tuple[int, ...]) -> F:
        return F(pays) if sum(dice) == total else F(-1)

    return net


def _banca_francesa() -> dict[str, Dist]:
    # Per decision: totals 4, 8-13, 17, 18 push and the bet stays (B1), so condition on the
    # deciding totals: 3 (1 way), 5-7 (31 ways), 14-16 (31 ways): 63 ways.
    d = F(1, 63)
    return {
        "aces": [(d, F(61)), (62 * d, F(-1))],
        "small": [(31 * d, F(1)), (32 * d, F(-1))],
        "big": [(31 * d, F(1)), (32 * d, F(-1))],
        "small_line": [(31 * d, F(1, 2)), (32 * d, F(-1, 2))],
        "big_line": [(31 * d, F(1, 2)), (32 * d, F(-1, 2))],
    }


_WAYS = {n: 6 - abs(7 - n) for n in range(2, 13)}
_POINTS = (4, 5, 6, 8, 9, 10)


def _craps() -> dict[str, Dist]:
    p = {n: F(w, 36) for n, w in _WAYS.items()}

    def before_seven(n: int) -> F:
        return F(_WAYS[n], _WAYS[n] + 6)

    pass_win = p[7] + p[11] + sum((p[n] * before_seven(n) for n in _POINTS), F(0))
    dont_push = p[12]
    dont_win = p[2] + p[3] + sum((p[n] * (1 - before_seven(n)) for n in _POINTS), F(0))
    out: dict[str, Dist] = {
        "pass": _bet(pass_win, F(1)), "come": _bet(pass_win, F(1)),
        "dont_pass": _bet(dont_win, F(1), dont_push), "dont_come": _bet(dont_win, F(1), dont_push),
        "big_6": _bet(before_seven(6), F(1)), "big_8": _bet(before_seven(8), F(1)),
        "under_7": _bet(sum((p[n] for n in range(2, 7)), F(0)), F(1)),
        "over_7": _bet(sum((p[n] for n in range(8, 13)), F(0)), F(1)),
        "field": [(p[3] + p[4] + p[9] + p[10] + p[11], F(1)), (p[2] + p[12], F(2)),
                  (p[5] + p[6] + p[7] + p[8], F(-1))],
        "craps": _bet(p[2] + p[3] + p[12], F(7)),
    }
    for total, pays in {2: 30, 3: 15, 7: 4, 11: 15, 12: 30}.items():
        out[f"total:{total}"] = _bet(p[total], F(pays))
    place = {4: F(9, 5), 10: F(9, 5), 5: F(7, 5), 9: F(7, 5), 6: F(7, 6), 8: F(7, 6)}
    lay = {4: F(5, 11), 10: F(5, 11), 5: F(5, 8), 9: F(5, 8), 6: F(4, 5), 8: F(4, 5)}
    true = {4: F(2), 10: F(2), 5: F(3, 2), 9: F(3, 2), 6: F(6, 5), 8: F(6, 5)}
    for n in _POINTS:
        out[f"place:{n}"] = _bet(before_seven(n), place[n])
        out[f"lay:{n}"] = _bet(1 - before_seven(n), lay[n])
    for n, pays in {4: 7, 10: 7, 6: 9, 8: 9}.items():
        out[f"hardway:{n}"] = _bet(F(1, 6 + _WAYS[n]), F(pays))
    # Odds: true odds (no edge); the point is the table's, weighted by how often each comes.
    weight = sum((p[n] for n in _POINTS), F(0))
    right: Dist = []
    wrong: Dist = []
    for n in _POINTS:
        w = p[n] / weight
        right += [(w * before_seven(n), true[n]), (w * (1 - before_seven(n)), F(-1))]
        wrong += [(w * (1 - before_seven(n)), 1 / true[n]), (w * before_seven(n), F(-1))]
    out["odds:right"], out["odds:wrong"] = right, wrong
    return out


_CARD_VALUE = {0: F(4, 13), **{v: F(1, 13) for v in range(1, 10)}}  # infinite deck, baccarat values


@cache
def _two_card_totals() -> dict[int, F]:
    totals: dict[int, F] = dict.fromkeys(range(10), F(0))
    for a, pa in _CARD_VALUE.items():
        for b, pb in _CARD_VALUE.items():
            totals[(a + b) % 10] += pa * pb
    return totals


def _football_poker() -> dict[str, Dist]:
    final: dict[tuple[int, bool], F] = {}
    for total, pt in _two_card_totals().items():
        if total in (0, 9):  # draws a third card
            for c, pc in _CARD_VALUE.items():
                key = ((total + c) % 10, True)
                final[key] = final.get(key, F(0)) + pt * pc
        else:
            final[(total, False)] = final.get((total, False), F(0)) + pt
    sets = {"upper": {1, 2, 3, 4}, "lower": {5, 6, 7, 8}, "even": {2, 4, 6, 8},
            "odd": {1, 3, 5, 7}}
    out: dict[str, Dist] = {}
    for name, wins in sets.items():
        dist: Dist = []
        for (total, three), pr in final.items():
            if three and total == 0:
                dist.append((pr, F(-1, 2)))
            elif three and total == 9:
                dist.append((pr, F(0)))
            else:
                dist.append((pr, F(1) if total in wins else F(-1)))
        out[name] = dist
    post = sum((pr for (total, three), pr in final.items() if three and total in (0, 9)), F(0))
    out["post"] = _bet(post, F(8))
    return out


def _baccarat() -> dict[str, Dist]:
    """Infinite-deck punto banco with the standard tableau (PB-1)."""
    cards = _CARD_VALUE
    two = _two_card_totals()
    outcome: dict[tuple[str, int], F] = {}  # (winner, banker total) -> probability

    def record(p_total: int, b_total: int, pr: F) -> None:
        winner = "player" if p_total > b_total else "banker" if b_total > p_total else "tie"
        key = (winner, b_total)
        outcome[key] = outcome.get(key, F(0)) + pr

    def banker_draws(b2: int, p3: int | None) -> bool:
        if p3 is None:
            return b2 <= 5
        return (b2 <= 2 or (b2 == 3 and p3 != 8) or (b2 == 4 and 2 <= p3 <= 7)
                or (b2 == 5 and 4 <= p3 <= 7) or (b2 == 6 and 6 <= p3 <= 7))

    for p2, pp in two.items():
        for b2, pb in two.items():
            base = pp * pb
            if p2 >= 8 or b2 >= 8:
                record(p2, b2, base)
                continue
            if p2 <= 5:
                for p3, pc in cards.items():
                    pt = (p2 + p3) % 10
                    if banker_draws(b2, p3):
                        for b3, pd in cards.items():
                            record(pt, (b2 + b3) % 10, base * pc * pd)
                    else:
                        record(pt, b2, base * pc)
            elif banker_draws(b2, None):
                for b3, pd in cards.items():
                    record(p2, (b2 + b3) % 10, base * pd)
            else:
                record(p2, b2, base)
    p_player = sum((v for (w, _), v in outcome.items() if w == "player"), F(0))
    p_tie = sum((v for (w, _), v in outcome.items() if w == "tie"), F(0))
    p_banker = 1 - p_player - p_tie
    p_banker_five = outcome.get(("banker", 5), F(0))
    pair = F(4 * 8 - 1, 52 * 8 - 1)  # same rank, 8 decks (the default)
    return {
        "player": _bet(p_player, F(1), p_tie),
        "banker:none": _bet(p_banker, F(1), p_tie),
        "banker:five_percent": _bet(p_banker, F(95, 100), p_tie),
        "banker:half_on_five": [(p_banker - p_banker_five, F(1)), (p_banker_five, F(1, 2)),
                                (p_tie, F(0)), (p_player, F(-1))],
        "tie": _bet(p_tie, F(8)),
        "player_pair": _bet(pair, F(11)),
        "banker_pair": _bet(pair, F(11)),
    }


# Published approximations (not derived here): (house edge, variance) per unit staked.
_APPROXIMATE: dict[str, dict[str, tuple[str, str]]] = {
    # Blackjack: 6 decks, no hole card (BJ-1), bank stands on soft 17, double on 9-11, double
    # after split, surrender, 6-7-8 bonus: about 0.45% of the initial stake, sd about 1.15.
    # Splits and doubles are counted at no edge (they are the player's choice, priced into the
    # initial stake's figure). Insurance (6 decks): 7.4%.
    "blackjack": {"main": ("0.0045", "1.32"), "back": ("0.0045", "1.32"),
                  "split": ("0", "1.0"), "double": ("0", "1.0"), "insurance": ("0.074", "1.92")},
    # Caribbean stud (n.º 6 paytable, no jackpot): 5.22% of the ante per hand, variance of the
    # whole hand per ante unit about 3.6; the call stake is counted at no edge.
    "stud_poker": {"ante": ("0.0522", "3.6"), "call": ("0", "0.25")},
}


def _exact(dist: Dist) -> tuple[Decimal, Decimal]:
    total = sum((p for p, _ in dist), F(0))
    assert total == 1, total
    mean = sum((p * x for p, x in dist), F(0))
    var = sum((p * x * x for p, x in dist), F(0)) - mean * mean
    return _dec(-mean), _dec(var)


def _dec(value: F) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


@cache
def figures(game: str) -> dict[str, tuple[Decimal, Decimal]]:
    """Edge key -> (house edge, variance) per unit staked, for ``game``."""
    if game in _APPROXIMATE:
        return {k: (Decimal(e), Decimal(v)) for k, (e, v) in _APPROXIMATE[game].items()}
    builders: dict[str, Callable[[], dict[str, Dist]]] = {
        "american_roulette": _roulette, "french_roulette": _roulette, "cussec": _cussec,
        "banca_francesa": _banca_francesa, "craps": _craps, "football_poker": _football_poker,
        "punto_banco": _baccarat, "punto_banco_macau": _baccarat,
    }
    builder = builders.get(game)
    if builder is None:
        return {}
    return {k: _exact(d) for k, d in builder().items()}


def representative_bet(game: str, key: str) -> dict[str, Any]:
    """A bet of the edge key ``key``, as the engine reads it (for the engine's figures)."""
    kind, _, detail = key.partition(":")
    bet: dict[str, Any] = {"type": kind}
    fields: dict[str, dict[str, Any]]
    if game in ("american_roulette", "french_roulette"):
        fields = {"straight": {"numbers": [17]}, "split": {"numbers": [17, 20]},
                "street": {"numbers": [1, 2, 3]}, "corner": {"numbers": [1, 2, 4, 5]},
                "line": {"numbers": [1, 2, 3, 4, 5, 6]}, "dozen": {"dozen": 1},
                "column": {"column": 1}, "double_dozen": {"dozens": [1, 2]},
                "double_column": {"columns": [1, 2]}}
        bet |= fields.get(kind, {})
        if kind == "series":
            bet["series"] = detail
        elif kind == "neighbours":
            bet |= {"number": 17, "neighbours": int(detail)}
    elif game == "craps":
        if kind == "odds":
            bet["on"] = "pass" if detail == "right" else "dont_pass"
        elif kind in ("place", "lay", "hardway"):
            bet["number"] = int(detail)
        elif kind == "total":
            bet["total"] = int(detail)
    elif game == "cussec":
        fields = {"single": {"number": 1}, "double": {"number": 1}, "triple": {"number": 1},
                  "combination": {"numbers": [1, 2]}}
        bet |= fields.get(kind, {})
        if kind == "total":
            bet["total"] = int(detail)
    elif game in ("blackjack", "stud_poker", "football_poker"):
        bet |= {"seat": 1} if kind in ("main", "back", "ante", "call") or game == (
            "football_poker") else {"bet": "b1"}
    return bet


def _engine_figure(game: str, options: dict[str, Any], key: str
                   ) -> tuple[Decimal, Decimal] | None:
    """The engine's figure for the edge key, (0, 0) for a stake with none of its own, or None."""
    if game == "banca_francesa":
        return None
    try:
        from games.engine import math as game_math
    except ImportError:
        return None
    kind, _, detail = key.partition(":")
    table_options = dict(options)
    if game in ("punto_banco", "punto_banco_macau") and kind == "banker":
        table_options["banker_deduction"] = detail
    try:
        edge, var = game_math.house_edge_of(game, table_options,
                                            representative_bet(game, key))
    except game_math.NoFigure:
        return Decimal(0), Decimal(0)
    except Exception:  # no figure from the engine (a bet it does not know): the local one
        return None
    if not isinstance(edge, Decimal):
        edge = _dec(edge)
    return edge, Decimal(var)


def check(game: str, stakes: dict[str, list[str]], actual_win: Decimal,
          options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The hold check for one table session (or any set of stakes of one game).

    ``stakes``: edge key -> [sum of stakes, sum of squared stakes]. Returns the handle, the
    theoretical win and hold %, the 95% interval of the win, and ``flag`` when ``actual_win``
    falls outside it; ``sources`` says where each key's figure came from.
    """
    table = figures(game)
    handle = expected = variance = Decimal(0)
    unknown: list[str] = []
    sources: dict[str, str] = {}
    for key, (total, squares) in stakes.items():
        amount, square = Decimal(total), Decimal(squares)
        handle += amount
        figure = _engine_figure(game, options or {}, key)
        sources[key] = "engine"
        if figure is None:
            figure = table.get(key)
            sources[key] = "local"
        if figure is None:
            sources.pop(key)
            unknown.append(key)
            continue
        edge, var = figure
        expected += amount * edge
        variance += square * var
    sd = variance.sqrt() if variance > 0 else Decimal(0)
    low, high = expected - Z95 * sd, expected + Z95 * sd
    pct = Decimal(100)
    result: dict[str, Any] = {
        "handle": _q(handle), "actual_win": _q(actual_win), "theoretical_win": _q(expected),
        "sd": _q(sd), "low": _q(low), "high": _q(high),
        "theoretical_hold_percent": _q(expected / handle * pct, 4) if handle else None,
        "actual_hold_percent": _q(actual_win / handle * pct, 4) if handle else None,
        "interval_percent": ([_q(low / handle * pct, 4), _q(high / handle * pct, 4)]
                             if handle else None),
        "unknown": sorted(unknown),
        "sources": sources,
        "flag": bool(handle) and not (low <= actual_win <= high),
    }
    return result


def _q(value: Decimal, places: int = 2) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places))
