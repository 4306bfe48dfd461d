"""Roulette: ``american_roulette`` and ``french_roulette``.

Portaria 217/2007, Anexo, Título I, Capítulo I: Secção I «Roleta americana» (n.ºs 1-33) and
Secção II «Roleta francesa» (n.ºs 1-25). Interpretations R1-R6, F1-F5:
``docs/settlement.md`` § Interpretations.

Both are single-zero wheels (0-36) with the same layout and the same chances (Secção I n.º 24 =
Secção II n.º 16) and prizes (I n.º 27 = II n.º 18); only the American game has the series and the
number-and-neighbours bets (I n.º 25), and only with the French numbering (I n.º 2 a).

Every selection is precomputed at import: a bet resolves to a token ``(kind, data, multiplier)``
by dictionary look-ups, and settles by one bit test (or one table look-up for multi-chip bets).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from games.engine.errors import RoundError, invalid_bet, invalid_option, invalid_outcome, show
from games.engine.frame import bet_fields_fault, is_int
from games.engine.money import HALF, floor_cents, parse_amount
from games.engine.registry import register

# --- The wheel and the colours ---------------------------------------------------------------

#: I n.º 2 a) / II n.º 2: the French numbering, clockwise from 0.
WHEEL_FRENCH: tuple[int, ...] = (
    0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
    5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26,
)  # fmt: skip
#: I n.º 2 b): the American numbering, clockwise from 0.
WHEEL_AMERICAN: tuple[int, ...] = (
    0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1,
    27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2,
)  # fmt: skip

#: The layout's red numbers (n.º 24 b «encarnado»); R2: colours belong to the numbers.
RED: frozenset[int] = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
#: n.º 6: 0 has neither colour, reported "green".
COLOR: tuple[str, ...] = tuple(
    "green" if n == 0 else "red" if n in RED else "black" for n in range(37)
)

# --- Prizes: «N vezes o seu valor», the stake stays with its owner (I n.º 27, II n.º 18) ------

_N35, _N17, _N11, _N8, _N5, _N2, _N1 = (Decimal(n) for n in (35, 17, 11, 8, 5, 2, 1))

# Token kinds.
_SINGLE = 0  # (kind, covered-numbers bitmask, N): one chip, N a whole number
_HALF = 1  # (kind, bitmask, 0.5): cavalo de dúzia / de coluna, «metade do seu valor»
_MULTI = 2  # (kind, per-number (win units, returned units), chip): series and neighbours

Token = tuple[int, Any, Decimal]


def _mask(numbers: Any) -> int:
    mask = 0
    for n in numbers:
        mask |= 1 << n
    return mask


# --- The layout: rows r = 0..11 hold 3r+1, 3r+2, 3r+3; 0 borders 1, 2, 3 ---------------------


def _selections() -> dict[str, tuple[int, dict[frozenset[int], Token]]]:
    """Every «chance múltipla» on numbers (n.º 24 a / 16 a; n.º 26: every one the layout makes)."""
    splits = [(n, n + 1) for n in range(1, 36) if n % 3]  # same row
    splits += [(n, n + 3) for n in range(1, 34)]  # same column
    splits += [(0, 1), (0, 2), (0, 3)]  # R3
    streets = [(3 * r + 1, 3 * r + 2, 3 * r + 3) for r in range(12)] + [(0, 1, 2), (0, 2, 3)]
    corners = [(n, n + 1, n + 3, n + 4) for n in range(1, 33) if n % 3] + [(0, 1, 2, 3)]
    lines = [tuple(range(3 * r + 1, 3 * r + 7)) for r in range(11)]
    kinds: list[tuple[str, int, Sequence[tuple[int, ...]], Decimal]] = [
        ("straight", 1, [(n,) for n in range(37)], _N35),
        ("split", 2, splits, _N17),
        ("street", 3, streets, _N11),
        ("corner", 4, corners, _N8),
        ("line", 6, lines, _N5),
    ]
    return {
        name: (count, {frozenset(sel): (_SINGLE, _mask(sel), n) for sel in sels})
        for name, count, sels, n in kinds
    }


#: type -> (how many numbers, {frozenset of numbers: token}).
NUMBER_BETS = _selections()
DOZENS = {d: frozenset(range(12 * d - 11, 12 * d + 1)) for d in (1, 2, 3)}
COLUMNS = {c: frozenset(range(c, 37, 3)) for c in (1, 2, 3)}
_DOZEN = {d: (_SINGLE, _mask(ns), _N2) for d, ns in DOZENS.items()}
_COLUMN = {c: (_SINGLE, _mask(ns), _N2) for c, ns in COLUMNS.items()}
# R4: the «cavalo» between two adjacent dozens or columns, [1, 2] or [2, 3].
_DOUBLE_DOZEN = {
    frozenset(p): (_HALF, _mask(DOZENS[p[0]] | DOZENS[p[1]]), HALF) for p in ((1, 2), (2, 3))
}
_DOUBLE_COLUMN = {
    frozenset(p): (_HALF, _mask(COLUMNS[p[0]] | COLUMNS[p[1]]), HALF) for p in ((1, 2), (2, 3))
}
#: «Chances simples» (n.º 24 b / 16 b): even money; 0 is none of them (n.º 28 / 19).
SIMPLE_BETS: dict[str, Token] = {
    "red": (_SINGLE, _mask(RED), _N1),
    "black": (_SINGLE, _mask(set(range(1, 37)) - RED), _N1),
    "even": (_SINGLE, _mask(range(2, 37, 2)), _N1),
    "odd": (_SINGLE, _mask(range(1, 37, 2)), _N1),
    "low": (_SINGLE, _mask(range(1, 19)), _N1),
    "high": (_SINGLE, _mask(range(19, 37)), _N1),
}


def _units(placements: list[tuple[int, tuple[int, ...], int]]) -> tuple[tuple[int, int], ...]:
    """Per number 0-36: (win, returned) in chips, for chips placed as (count, numbers, N).

    n.º 27 c)/d): each chip is paid as the chance it sits on and stays; the others are lost.
    """
    table = []
    for number in range(37):
        win = returned = 0
        for chips, numbers, n in placements:
            if number in numbers:
                win += chips * n
                returned += chips * (n + 1)
        table.append((win, returned))
    return tuple(table)


#: I n.º 25 a): the series, as (chips, numbers, N) placements.
SERIES: dict[str, list[tuple[int, tuple[int, ...], int]]] = {
    # «Série grande ou série 0-2-3»: 9 chips, 17 numbers.
    "big": [
        (2, (0, 2, 3), 11),
        (1, (4, 7), 17), (1, (12, 15), 17), (1, (18, 21), 17), (1, (19, 22), 17),
        (2, (25, 26, 28, 29), 8),
        (1, (32, 35), 17),
    ],
    # «Série pequena ou série 5-8»: 6 chips, 12 numbers.
    "small": [(1, pair, 17) for pair in ((5, 8), (10, 11), (13, 16), (23, 24), (27, 30), (33, 36))],
    # «Série "vadios" ou "órfãos"»: 5 chips, 8 numbers.
    "orphans": [(1, (1,), 35)] + [(1, pair, 17) for pair in ((6, 9), (14, 17), (17, 20), (31, 34))],
}  # fmt: skip
SERIES_CHIPS = {name: sum(c for c, _, _ in placements) for name, placements in SERIES.items()}
_SERIES_UNITS = {name: _units(placements) for name, placements in SERIES.items()}


def neighbours_of(number: int, neighbours: int) -> tuple[int, ...]:
    """I n.º 25 b): the number and ``neighbours``/2 pockets either side on the French wheel."""
    at = WHEEL_FRENCH.index(number)
    half = neighbours // 2
    return tuple(WHEEL_FRENCH[(at + i) % 37] for i in range(-half, half + 1))


#: (number, k) -> per-number units: the chip on the winning pocket is paid as a «pleno» (n.º 27 d).
_NEIGHBOUR_UNITS = {
    (number, k): _units([(1, (pocket,), 35) for pocket in neighbours_of(number, k)])
    for number in range(37)
    for k in (2, 4, 6)
}


class Roulette:
    """One of the two roulette games; ``has_series``: whether the I n.º 25 bets exist at all."""

    def __init__(self, code: str, *, has_series: bool) -> None:
        self.code = code
        self.has_series = has_series

    # --- options ------------------------------------------------------------------------------

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if not self.has_series:
            # French roulette: one numbering (II n.º 2), no options.
            if options:
                raise invalid_option(
                    "french_roulette has no options (got {options})",
                    params={"options": ', '.join(sorted(map(str, options)))}
                )
            return {}
        unknown = sorted(str(k) for k in options if k != "wheel")
        if unknown:
            raise invalid_option(
                "unknown option {unknown} (american_roulette has only wheel)",
                params={"unknown": ', '.join(unknown)}
            )
        wheel = options.get("wheel", "french")  # R1: French numbering by default
        if type(wheel) is not str or wheel not in ("french", "american"):
            raise invalid_option(
                'wheel must be "french" or "american" (I n.º 2), not {wheel}',
                params={"wheel": show(wheel)}
            )
        return {"wheel": wheel}

    # --- outcome ------------------------------------------------------------------------------

    def check_outcome(self, options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
        if len(outcome) != 1 or "number" not in outcome:
            extra = sorted(str(k) for k in outcome if k != "number")
            raise (
                invalid_outcome("the outcome has unknown field {extra}",
                                params={"extra": ", ".join(extra)})
                if extra
                else invalid_outcome("the outcome has no number")
            )
        number = outcome["number"]
        if not is_int(number):
            raise invalid_outcome("number must be a whole number, not {number}",
                                  params={"number": show(number)})
        if not 0 <= number <= 36:
            raise invalid_outcome("there is no pocket {number} (0 to 36, n.º 2)",
                                  params={"number": number})
        return {"number": number, "color": COLOR[number]}

    # --- bets ---------------------------------------------------------------------------------

    def _token(self, options: dict[str, Any], bet: dict[str, Any], stake: Decimal | None) -> Token:
        """Validate one bet (fields, kinds, layout, chips) and return what settles it."""
        bet_type = bet["type"]
        simple = SIMPLE_BETS.get(bet_type)
        if simple is not None:
            if len(bet) != 3:
                raise bet_fields_fault(bet, ())
            return simple
        numbered = NUMBER_BETS.get(bet_type)
        if numbered is not None:
            if len(bet) != 4 or "numbers" not in bet:
                raise bet_fields_fault(bet, ("numbers",))
            count, table = numbered
            numbers = bet["numbers"]
            if type(numbers) is list and len(numbers) == count:
                for n in numbers:
                    if type(n) is not int:
                        break
                else:
                    token = table.get(frozenset(numbers))
                    if token is not None:
                        return token
            raise _selection_fault(bet, bet_type, numbers, count)
        if bet_type in ("dozen", "column"):
            if len(bet) != 4 or bet_type not in bet:
                raise bet_fields_fault(bet, (bet_type,))
            value = bet[bet_type]  # «Dúzia», «Coluna» (I n.º 24 a) / II n.º 16 a)
            token = (
                (_DOZEN if bet_type == "dozen" else _COLUMN).get(value) if is_int(value) else None
            )
            if token is None:
                raise invalid_bet("{bet_type} must be 1, 2 or 3, not {value}", bet["id"],
                                                                                      params={"bet_type": bet_type, "value": show(value)})
            return token
        if bet_type in ("double_dozen", "double_column"):
            field = "dozens" if bet_type == "double_dozen" else "columns"
            if len(bet) != 4 or field not in bet:
                raise bet_fields_fault(bet, (field,))
            value = bet[field]
            token = None
            if type(value) is list and len(value) == 2 and all(is_int(v) for v in value):
                token = (_DOUBLE_DOZEN if field == "dozens" else _DOUBLE_COLUMN).get(
                    frozenset(value)
                )
            if token is None:
                raise invalid_bet(
                    "{field} must be [1, 2] or [2, 3] (two adjacent ones), not {value}",
                    bet["id"], params={"field": field, "value": show(value)},
                )
            return token
        if self.has_series and bet_type in ("series", "neighbours"):
            if options["wheel"] != "french":
                raise invalid_bet(
                    "{bet_type} bets exist only with the French numbering (I n.º 25)", bet["id"],
                                                                                        params={"bet_type": bet_type}
                )
            if stake is None:
                stake = parse_amount(bet["amount"], bet["id"])
            if bet_type == "series":
                return _series_token(bet, stake)
            return _neighbours_token(bet, stake)
        raise invalid_bet("{code} has no bet {bet_type}", bet["id"],
                                                                      params={"code": self.code, "bet_type": show(bet_type)})

    def check_bet(self, options: dict[str, Any], bet: dict[str, Any]) -> None:
        self._token(options, bet, None)

    def settle_bet(
        self, options: dict[str, Any], outcome: dict[str, Any], bet: dict[str, Any], stake: Decimal
    ) -> dict[str, Any]:
        kind, data, n = self._token(options, bet, stake)
        number = outcome["number"]
        if kind == _SINGLE:
            if data >> number & 1:
                win = stake * n  # whole N on a two-decimal stake: exact, two decimals
                return {"id": bet["id"], "status": "won", "stake": str(stake), "win": str(win),
                        "returned": str(stake + win)}  # fmt: skip
        elif kind == _HALF:
            if data >> number & 1:
                win = floor_cents(stake * n)  # «metade do seu valor», rounded down (R6)
                return {"id": bet["id"], "status": "won", "stake": str(stake), "win": str(win),
                        "returned": str(stake + win)}  # fmt: skip
        else:
            win_units, returned_units = data[number]
            if returned_units:
                # n.º 27 c)/d): winning chips paid at their chance and kept; the others lost.
                return {"id": bet["id"], "status": "won", "stake": str(stake),
                        "win": str(n * win_units), "returned": str(n * returned_units)}  # fmt: skip
        return {
            "id": bet["id"],
            "status": "lost",
            "stake": str(stake),
            "win": "0.00",
            "returned": "0.00",
        }

    def settle_bets(
        self,
        options: dict[str, Any],
        outcome: dict[str, Any],
        bets: list[dict[str, Any]],
        stakes: list[Decimal],
    ) -> list[dict[str, Any]]:
        return [
            self.settle_bet(options, outcome, bet, stake)
            for bet, stake in zip(bets, stakes, strict=True)
        ]


def _selection_fault(bet: dict[str, Any], bet_type: str, numbers: object, count: int) -> RoundError:
    """Why ``numbers`` is not a ``bet_type`` of the layout, in words."""
    bet_id = bet["id"]
    if type(numbers) is not list:
        return invalid_bet(
            "{bet_type}: numbers must be a list of numbers, not {numbers}", bet_id,
                                                                                   params={"bet_type": bet_type, "numbers": show(numbers)}
        )
    if len(numbers) != count:
        return invalid_bet("a {bet_type} covers {count} number(s), not {n_numbers}", bet_id,
                                                                                         params={"bet_type": bet_type, "count": count, "n_numbers": len(numbers)})
    if not all(is_int(n) for n in numbers):
        return invalid_bet(
            "{bet_type}: numbers must be whole numbers, not {numbers}", bet_id,
                                                                               params={"bet_type": bet_type, "numbers": show(numbers)}
        )
    if not all(0 <= n <= 36 for n in numbers):
        return invalid_bet("{bet_type}: the layout has only 0 to 36, not {numbers}", bet_id,
                                                                                            params={"bet_type": bet_type, "numbers": show(numbers)})
    if len(set(numbers)) != count:
        return invalid_bet("{bet_type}: a number is repeated in {numbers}", bet_id,
                                                                                   params={"bet_type": bet_type, "numbers": show(numbers)})
    shown = "-".join(str(n) for n in sorted(numbers))
    return invalid_bet(
        "{bet_type} {shown}: these numbers are not a {bet_type} on the layout", bet_id,
                                                                                 params={"bet_type": bet_type, "shown": shown}
    )


def _chip(bet: dict[str, Any], stake: Decimal, chips: int, what: str) -> Decimal:
    """``stake`` split into ``chips`` equal whole-cent chips (I n.º 32 c; R5)."""
    if stake.scaleb(2) % chips:
        raise invalid_bet(
            "{what} of {stake} does not split into {chips} equal chips (whole cents)", bet["id"],
                                                                                        params={"what": what, "stake": stake, "chips": chips}
        )
    return stake / chips  # exact: divisible, exponent stays -2


def _series_token(bet: dict[str, Any], stake: Decimal) -> Token:
    if len(bet) != 4 or "series" not in bet:
        raise bet_fields_fault(bet, ("series",))
    name = bet["series"]
    if type(name) is not str or name not in SERIES:
        raise invalid_bet(
            'series must be "big", "small" or "orphans" (I n.º 25 a), not {name}', bet["id"],
                                                                                          params={"name": show(name)}
        )
    return (_MULTI, _SERIES_UNITS[name], _chip(bet, stake, SERIES_CHIPS[name], f"a {name} series"))


def _neighbours_token(bet: dict[str, Any], stake: Decimal) -> Token:
    if len(bet) != 5 or "number" not in bet or "neighbours" not in bet:
        raise bet_fields_fault(bet, ("number", "neighbours"))
    number, k = bet["number"], bet["neighbours"]
    if not is_int(number) or not 0 <= number <= 36:
        raise invalid_bet("neighbours: number must be 0 to 36, not {number}", bet["id"],
                                                                                     params={"number": show(number)})
    if not is_int(k) or k not in (2, 4, 6):
        raise invalid_bet(
            "neighbours must be 2, 4 or 6 (3, 5 or 7 chips, I n.º 25 b), not {k}", bet["id"],
                                                                                          params={"k": show(k)}
        )
    return (
        _MULTI,
        _NEIGHBOUR_UNITS[number, k],
        _chip(bet, stake, k + 1, f"a number with {k} neighbours"),
    )


AMERICAN_ROULETTE = register(Roulette("american_roulette", has_series=True))
FRENCH_ROULETTE = register(Roulette("french_roulette", has_series=False))
