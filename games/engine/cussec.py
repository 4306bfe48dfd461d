"""Cussec (``cussec``), the sic bo family.

Portaria 217/2007, Anexo, Título I, Capítulo II, Secção III, n.ºs 1-11. Interpretations S1-S5:
``docs/settlement.md`` § Interpretations.

Three dice under a dome (n.º 1); every bet is decided by every roll. Chances n.º 7 a)-h), prizes
n.º 8 (N to 1: «as paradas premiadas continuam a pertencer ao apostador», n.º 10).
"""

from __future__ import annotations

from decimal import Decimal
from itertools import product
from typing import Any

from games.engine.errors import invalid_bet, invalid_option, show
from games.engine.frame import bet_fields_fault, check_dice, is_int, unknown_fields
from games.engine.registry import register

_D = {n: Decimal(n) for n in (1, 2, 3, 5, 6, 7, 8, 10, 12, 19, 30, 32, 65, 190)}

#: n.º 8 h): the prize of a total.
TOTAL_PRIZE: dict[int, int] = {
    4: 65,
    17: 65,
    5: 32,
    16: 32,
    6: 19,
    15: 19,
    7: 12,
    14: 12,
    8: 8,
    13: 8,
    9: 7,
    12: 7,
    10: 6,
    11: 6,
}

FACES = range(1, 7)


def _prizes(dice: tuple[int, ...]) -> dict[tuple[str, Any], Decimal]:
    """Every winning bet on this throw -> its N; a bet not listed loses."""
    total = sum(dice)
    triple = dice[0] == dice[1] == dice[2]
    won: dict[tuple[str, Any], Decimal] = {}
    if not triple:  # n.º 9: pequeno and grande lose on any triple
        if 4 <= total <= 10:
            won["small", None] = _D[1]  # n.º 7 a), n.º 8 a)
        if 11 <= total <= 17:
            won["big", None] = _D[1]  # n.º 7 b), n.º 8 b)
    for face in FACES:
        k = dice.count(face)
        if k:
            # n.º 8 c): 1, 2 or 3 times, counting the dice showing the chosen face (S1).
            won["single", face] = _D[k]
        if k >= 2:
            won["double", face] = _D[10 if k == 2 else 30]  # n.º 8 e), S2
        if k == 3:
            won["triple", face] = _D[190]  # n.º 8 f)
    for a in FACES:
        for b in FACES:
            if a != b and a in dice and b in dice:
                won["combination", frozenset((a, b))] = _D[5]  # n.º 8 d), paid once (S4)
    if triple:
        won["any_triple", None] = _D[32]  # n.º 8 g)
    if total in TOTAL_PRIZE:
        won["total", total] = _D[TOTAL_PRIZE[total]]  # n.º 8 h)
    return won


def _code(dice: list[int] | tuple[int, ...]) -> int:
    return dice[0] * 64 + dice[1] * 8 + dice[2]


#: Every throw (the 216 in reading order) -> its winning bets and their N, computed at import.
PRIZES: dict[int, dict[tuple[str, Any], Decimal]] = {
    _code(dice): _prizes(dice) for dice in product(FACES, repeat=3)
}

#: type -> its own field (None: no field).
BET_FIELDS: dict[str, str | None] = {
    "small": None,  # n.º 7 a)
    "big": None,  # n.º 7 b)
    "single": "number",  # n.º 7 c)
    "combination": "numbers",  # n.º 7 d)
    "double": "number",  # n.º 7 e)
    "triple": "number",  # n.º 7 f)
    "any_triple": None,  # n.º 7 g)
    "total": "total",  # n.º 7 h)
}


class Cussec:
    code = "cussec"

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if options:
            raise invalid_option(
                "cussec has no options (got {options})",
                params={"options": ', '.join(sorted(map(str, options)))}
            )
        return {}

    def check_outcome(self, options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
        unknown_fields(outcome, ("dice",))
        dice = check_dice(outcome, 3)
        return {"dice": dice, "total": sum(dice), "triple": dice[0] == dice[1] == dice[2]}

    def _key(self, bet: dict[str, Any]) -> tuple[str, Any]:
        """Validate one bet; return its key in :data:`PRIZES`."""
        bet_type = bet["type"]
        if bet_type not in BET_FIELDS:
            raise invalid_bet("cussec has no bet {bet_type}", bet["id"],
                                                                     params={"bet_type": show(bet_type)})
        field = BET_FIELDS[bet_type]
        if field is None:
            if len(bet) != 3:
                raise bet_fields_fault(bet, ())
            return (bet_type, None)
        if len(bet) != 4 or field not in bet:
            raise bet_fields_fault(bet, (field,))
        value = bet[field]
        if field == "number":
            if is_int(value) and 1 <= value <= 6:
                return (bet_type, value)
            raise invalid_bet(
                "{bet_type}: number must be a face 1 to 6, not {value}", bet["id"],
                                                                                params={"bet_type": bet_type, "value": show(value)}
            )
        if field == "total":
            if is_int(value) and 4 <= value <= 17:
                return (bet_type, value)
            raise invalid_bet("total must be 4 to 17 (n.º 7 h), not {value}", bet["id"],
                                                                                     params={"value": show(value)})
        if (
            type(value) is list
            and len(value) == 2
            and is_int(value[0])
            and is_int(value[1])
            and 1 <= value[0] <= 6
            and 1 <= value[1] <= 6
            and value[0] != value[1]
        ):
            return (bet_type, frozenset(value))
        raise invalid_bet(
            "combination: numbers must be two different faces 1 to 6, not {value}", bet["id"],
                                                                                           params={"value": show(value)}
        )

    def check_bet(self, options: dict[str, Any], bet: dict[str, Any]) -> None:
        self._key(bet)

    def settle_bet(
        self, options: dict[str, Any], outcome: dict[str, Any], bet: dict[str, Any], stake: Decimal
    ) -> dict[str, Any]:
        key = self._key(bet)
        n = PRIZES[_code(outcome["dice"])].get(key)
        if n is None:
            return {
                "id": bet["id"],
                "status": "lost",
                "stake": str(stake),
                "win": "0.00",
                "returned": "0.00",
            }
        win = stake * n  # whole N on a two-decimal stake: exact
        return {
            "id": bet["id"],
            "status": "won",
            "stake": str(stake),
            "win": str(win),
            "returned": str(stake + win),
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


CUSSEC = register(Cussec())
