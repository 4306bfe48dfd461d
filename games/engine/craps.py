"""Craps (``craps``).

Portaria 217/2007, Anexo, Título I, Capítulo II, Secção II, n.ºs 1-13. Interpretations C1-C9:
``docs/settlement.md`` § Interpretations.

One round is one roll of two dice (n.º 4). A bet this roll does not decide is ``pending`` and its
result carries ``point``, the number that, against 7, will decide it; the platform keeps pending
bets and sends them again with the next roll (``settle`` remembers nothing). ``outcome.point`` is
the table point *before* the roll (``None`` on a come-out roll).

Every bet works on every roll, come-out included (C6). Prizes are N to 1, the winning stake
staying with the player (n.º 13.2); a prize not in whole cents is rounded down.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from games.engine.errors import invalid_bet, invalid_option, invalid_outcome, show
from games.engine.frame import bet_fields_fault, check_dice, is_int, unknown_fields
from games.engine.money import ratio_floor
from games.engine.registry import register

#: The box numbers a point can be (n.º 10.1: 4, 5, 6, 8, 9 or 10).
POINTS = frozenset({4, 5, 6, 8, 9, 10})

#: n.º 11.1 odds for the right side (pass, come): the number's true odds against 7.
RIGHT_ODDS = {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}
#: Odds laid by the wrong side (don't pass, don't come): the inverse, 1:2, 2:3, 5:6 (C4).
WRONG_ODDS = {n: (den, num) for n, (num, den) in RIGHT_ODDS.items()}
#: n.º 12 «1.ª» place to win; the table is missing from the text we hold, standard values (C5).
PLACE_ODDS = {4: (9, 5), 10: (9, 5), 5: (7, 5), 9: (7, 5), 6: (7, 6), 8: (7, 6)}
#: n.º 12 «2.ª» place to lose (lay); standard values (C5).
LAY_ODDS = {4: (5, 11), 10: (5, 11), 5: (5, 8), 9: (5, 8), 6: (4, 5), 8: (4, 5)}
#: n.º 11.3 hardways: «sete vezes … duques ou quinas», «nove vezes … ternos ou quadras».
HARDWAY_N = {4: 7, 10: 7, 6: 9, 8: 9}
#: n.ºs 11.4-11.8: one-roll bets on a total.
TOTAL_N = {2: 30, 3: 15, 7: 4, 11: 15, 12: 30}

WON, LOST, PUSH, PENDING = "won", "lost", "push", "pending"
Decision = tuple[str, int, int]  # (status, numerator or the pending point, denominator)

_EVEN = (WON, 1, 1)
_LOST = (LOST, 0, 1)
_PUSH = (PUSH, 0, 1)


def _pending(point: int) -> Decision:
    return (PENDING, point, 0)


def _right_first(total: int) -> Decision:
    """n.º 10.1 / 10.3: the first roll of a pass or come bet."""
    if total in (7, 11):
        return _EVEN
    if total in (2, 3, 12):
        return _LOST
    return _pending(total)


def _wrong_first(total: int, bar: int) -> Decision:
    """n.º 10.2 / 10.4: the first roll of a don't pass or don't come bet; the bar is a push."""
    if total == bar:
        return _PUSH  # «as apostas feitas não ganham nem perdem (o golpe é nulo)» (C2)
    if total in (2, 3, 12):
        return _EVEN
    if total in (7, 11):
        return _LOST
    return _pending(total)


def _right_on(point: int, total: int, odds: tuple[int, int] = (1, 1)) -> Decision:
    """Wins when ``point`` comes before 7."""
    if total == point:
        return (WON, *odds)
    if total == 7:
        return _LOST
    return _pending(point)


def _wrong_on(point: int, total: int, odds: tuple[int, int] = (1, 1)) -> Decision:
    """Wins when 7 comes before ``point``."""
    if total == 7:
        return (WON, *odds)
    if total == point:
        return _LOST
    return _pending(point)


def decide(
    kind: str, number: int | None, table_point: int | None, dice: list[int], bar: int
) -> Decision:
    """What one roll does to one validated bet. ``number`` is the bet's own number or point."""
    total = dice[0] + dice[1]
    if kind == "pass":  # n.º 10.1
        return _right_first(total) if table_point is None else _right_on(table_point, total)
    if kind == "dont_pass":  # n.º 10.2
        return _wrong_first(total, bar) if table_point is None else _wrong_on(table_point, total)
    if kind == "come":  # n.º 10.3
        return _right_first(total) if number is None else _right_on(number, total)
    if kind == "dont_come":  # n.º 10.4
        return _wrong_first(total, bar) if number is None else _wrong_on(number, total)
    if kind == "under_7":  # n.º 10.7
        return _EVEN if total < 7 else _LOST
    if kind == "over_7":  # n.º 10.8
        return _EVEN if total > 7 else _LOST
    if kind == "field":  # n.º 13.1: «o dobro» on 2 and 12
        if total in (2, 12):
            return (WON, 2, 1)
        return _EVEN if total in (3, 4, 9, 10, 11) else _LOST
    if kind == "craps":  # n.º 11.2
        return (WON, 7, 1) if total in (2, 3, 12) else _LOST
    if kind == "big_6":  # n.º 10.5
        return _right_on(6, total)
    if kind == "big_8":  # n.º 10.6
        return _right_on(8, total)
    if kind in ("odds_pass", "odds_dont_pass"):
        number = table_point  # n.º 11.1: odds on the line ride the table point
    if number is None:  # pragma: no cover - parse_bet and check_in_round rule it out
        raise AssertionError(f"{kind} without a number")
    if kind == "total":  # n.ºs 11.4-11.8
        return (WON, TOTAL_N[total], 1) if total == number else _LOST
    if kind in ("odds_pass", "odds_come"):  # n.º 11.1: decide with their base bet
        return _right_on(number, total, RIGHT_ODDS[number])
    if kind in ("odds_dont_pass", "odds_dont_come"):
        return _wrong_on(number, total, WRONG_ODDS[number])
    if kind == "place":  # n.º 12 «1.ª»: the number before 7
        return _right_on(number, total, PLACE_ODDS[number])
    if kind == "lay":  # n.º 12 «2.ª»: 7 before the number
        return _wrong_on(number, total, LAY_ODDS[number])
    if kind == "hardway":  # n.º 11.3: loses on 7 and on the number made the easy way
        if total == number:
            return (WON, HARDWAY_N[number], 1) if dice[0] == dice[1] else _LOST
        return _LOST if total == 7 else _pending(number)
    raise AssertionError(kind)  # pragma: no cover - bets are validated first


#: Types without own fields.
_BARE = frozenset({"pass", "dont_pass", "big_6", "big_8", "under_7", "over_7", "field", "craps"})
#: Types with one ``number`` field -> the values allowed.
_NUMBERED = {"hardway": frozenset(HARDWAY_N), "place": POINTS, "lay": POINTS}
_ODDS_ON = frozenset({"pass", "dont_pass", "come", "dont_come"})

BetKey = tuple[str, int | None]


def _point_field(bet: dict[str, Any], value: object, required: bool) -> int | None:
    if value is None and not required:
        return None
    if is_int(value) and value in POINTS:
        return value
    raise invalid_bet(
        "{type}: point must be 4, 5, 6, 8, 9 or 10, not {value}", bet["id"],
                                                                                params={"type": bet['type'], "value": show(value)}
    )


def parse_bet(bet: dict[str, Any]) -> BetKey:
    """Validate one bet's type and own fields (no outcome needed): ``(kind, number or point)``."""
    bet_type = bet["type"]
    if bet_type in _BARE:
        if len(bet) != 3:
            raise bet_fields_fault(bet, ())
        return (bet_type, None)
    allowed = _NUMBERED.get(bet_type)
    if allowed is not None:
        if len(bet) != 4 or "number" not in bet:
            raise bet_fields_fault(bet, ("number",))
        number = bet["number"]
        if is_int(number) and number in allowed:
            return (bet_type, number)
        shown = ", ".join(str(n) for n in sorted(allowed))
        raise invalid_bet(
            "{bet_type}: number must be one of {shown}, not {number}", bet["id"],
                                                                              params={"bet_type": bet_type, "shown": shown, "number": show(number)}
        )
    if bet_type == "total":
        if len(bet) != 4 or "total" not in bet:
            raise bet_fields_fault(bet, ("total",))
        total = bet["total"]
        if is_int(total) and total in TOTAL_N:
            return ("total", total)
        raise invalid_bet(
            "total must be 2, 3, 7, 11 or 12 (n.ºs 11.4-11.8), not {total}", bet["id"],
                                                                                    params={"total": show(total)}
        )
    if bet_type in ("come", "dont_come"):
        if len(bet) == 3:
            return (bet_type, None)
        if len(bet) != 4 or "point" not in bet:
            raise bet_fields_fault(bet, (), ("point",))
        return (bet_type, _point_field(bet, bet["point"], required=False))
    if bet_type == "odds":
        if "on" not in bet or any(k not in ("id", "type", "amount", "on", "point") for k in bet):
            raise bet_fields_fault(bet, ("on",), ("point",))
        on = bet["on"]
        if type(on) is not str or on not in _ODDS_ON:
            raise invalid_bet(
                "odds go on pass, dont_pass, come or dont_come (n.º 11.1), not {on}",
                bet["id"], params={"on": show(on)},
            )
        if on in ("pass", "dont_pass"):
            if "point" in bet:  # the line's point is the table's
                raise invalid_bet("odds on {on} ride the table point: no point field", bet["id"],
                                                                                        params={"on": on})
            return ("odds_" + on, None)
        if "point" not in bet:
            raise invalid_bet("odds on {on} need the {on} bet's point", bet["id"],
                                                                         params={"on": on})
        return ("odds_" + on, _point_field(bet, bet["point"], required=True))
    raise invalid_bet("craps has no bet {bet_type}", bet["id"],
                                                            params={"bet_type": show(bet_type)})


def check_in_round(bet: dict[str, Any], key: BetKey, table_point: int | None) -> None:
    """Checks that need the roll's table point (``docs/settlement.md`` § Which error, step 6)."""
    if table_point is None:
        kind = key[0]
        if kind in ("come", "dont_come") and key[1] is None:
            # n.º 10.3: come bets «depois de estabelecido o ponto» (C3).
            raise invalid_bet("a {kind} bet needs an established point (n.º 10.3)", bet["id"],
                                                                                     params={"kind": kind})
        if kind in ("odds_pass", "odds_dont_pass"):
            # n.º 11.1: odds «estabelecido o ponto».
            raise invalid_bet("odds on the line need an established point (n.º 11.1)", bet["id"])


class Craps:
    code = "craps"

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(str(k) for k in options if k != "bar")
        if unknown:
            raise invalid_option("unknown option {unknown} (craps has only bar)",
                                 params={"unknown": ', '.join(unknown)})
        bar = options.get("bar", 12)  # C1
        if not is_int(bar) or bar not in (12, 2):
            raise invalid_option(
                "bar must be 12 (par de senas) or 2 (par de ases) (n.º 10.2), not {bar}",
                params={"bar": show(bar)}
            )
        return {"bar": bar}

    def check_outcome(self, options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
        unknown_fields(outcome, ("dice", "point"))
        dice = check_dice(outcome, 2)  # n.º 4: each roll with two dice
        point = outcome.get("point")
        if point is not None:
            if not is_int(point):
                raise invalid_outcome("point must be null or a number, not {point}",
                                      params={"point": show(point)})
            if point not in POINTS:
                raise invalid_outcome(
                    "the point can be 4, 5, 6, 8, 9 or 10 (n.º 10.1), not {point}",
                    params={"point": point}
                )
        total = dice[0] + dice[1]
        if point is None:
            after = total if total in POINTS else None
        else:
            after = None if total in (7, point) else point
        return {"dice": dice, "point": point, "total": total, "point_after": after}

    def check_bet(self, options: dict[str, Any], bet: dict[str, Any]) -> None:
        parse_bet(bet)

    def settle_bet(
        self, options: dict[str, Any], outcome: dict[str, Any], bet: dict[str, Any], stake: Decimal
    ) -> dict[str, Any]:
        key = parse_bet(bet)
        table_point = outcome["point"]
        check_in_round(bet, key, table_point)
        status, num, den = decide(key[0], key[1], table_point, outcome["dice"], options["bar"])
        text = str(stake)
        if status is WON:
            win = stake * num if den == 1 else ratio_floor(stake, num, den)
            return {
                "id": bet["id"],
                "status": WON,
                "stake": text,
                "win": str(win),
                "returned": str(stake + win),
            }
        if status is PENDING:
            return {"id": bet["id"], "status": PENDING, "stake": text, "win": "0.00", "returned": "0.00",
                    "point": num}  # fmt: skip
        if status is PUSH:
            return {"id": bet["id"], "status": PUSH, "stake": text, "win": "0.00", "returned": text}
        return {"id": bet["id"], "status": LOST, "stake": text, "win": "0.00", "returned": "0.00"}

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


CRAPS = register(Craps())
