"""Banca francesa (``banca_francesa``).

Portaria 217/2007, Anexo, Título I, Capítulo II, Secção I, n.ºs 1-18. Interpretations B1-B6:
``docs/settlement.md`` § Interpretations.

Three dice thrown together (n.º 7 a). Three chances (n.º 9): «ases» (total 3), «pequeno» (5, 6, 7),
«grande» (14, 15, 16); pequeno and grande may also be played on the lines of the cloth at half
value (n.ºs 10-11). Any other total decides nothing: every bet is a push (B1).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from games.engine.errors import invalid_bet, invalid_option, invalid_outcome, show
from games.engine.frame import bet_fields_fault, check_dice, unknown_fields
from games.engine.money import parse_amount
from games.engine.registry import register

ACES, SMALL, BIG = "aces", "small", "big"

#: n.º 9: the chance each total decides (None: no chance, the dealer throws again, B1).
CHANCE: tuple[str | None, ...] = tuple(
    ACES if t == 3 else SMALL if 5 <= t <= 7 else BIG if 14 <= t <= 16 else None for t in range(19)
)

_N61 = Decimal(61)  # n.º 13 a): «61 vezes o valor da aposta»; the stake stays (n.º 14)
_TEN = Decimal(10)

#: bet type -> (its chance, whether it is a line bet playing half its amount, n.ºs 10-11).
BETS: dict[str, tuple[str, bool]] = {
    "aces": (ACES, False),  # n.º 9 a)
    "small": (SMALL, False),  # n.º 9 b)
    "big": (BIG, False),  # n.º 9 c)
    "small_line": (SMALL, True),  # n.º 10 a): pequeno on the outer line
    "big_line": (BIG, True),  # n.º 10 b): grande on the inner line
}


class BancaFrancesa:
    code = "banca_francesa"

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if options:
            raise invalid_option(
                "banca_francesa has no options (got {options})",
                params={"options": ', '.join(sorted(map(str, options)))}
            )
        return {}

    def check_outcome(self, options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
        unknown_fields(outcome, ("dice", "touched"))
        dice = check_dice(outcome, 3)  # n.º 7 a): the three dice thrown together
        touched = outcome.get("touched", False)
        if type(touched) is not bool:
            raise invalid_outcome("touched must be true or false, not {touched}",
                                  params={"touched": show(touched)})
        total = sum(dice)
        # n.º 7 d) «touched»: the dealer touched the dice before calling the chance.
        return {"dice": dice, "total": total, "chance": CHANCE[total], "touched": touched}

    def _kind(self, bet: dict[str, Any], stake: Decimal) -> tuple[str, bool]:
        kind = BETS.get(bet["type"])
        if kind is None:
            raise invalid_bet("banca_francesa has no bet {type}", bet["id"],
                                                                                params={"type": show(bet['type'])})
        if len(bet) != 3:
            raise bet_fields_fault(bet, ())
        if kind[1] and stake % _TEN:
            # n.º 11: the chips on a line «deverão perfazer múltiplos de €10» (B4).
            raise invalid_bet("a line bet must be a multiple of 10.00, not {stake}", bet["id"],
                                                                                      params={"stake": stake})
        return kind

    def check_bet(self, options: dict[str, Any], bet: dict[str, Any]) -> None:
        self._kind(bet, parse_amount(bet["amount"], bet["id"]))

    def settle_bet(
        self, options: dict[str, Any], outcome: dict[str, Any], bet: dict[str, Any], stake: Decimal
    ) -> dict[str, Any]:
        chance, line = self._kind(bet, stake)
        came = outcome["chance"]
        text = str(stake)
        if came is None:
            # B1: a total that decides nothing leaves every bet as it was.
            return {
                "id": bet["id"],
                "status": "push",
                "stake": text,
                "win": "0.00",
                "returned": text,
            }
        if came == chance:
            # n.º 13, n.º 14: the prize, the stake stays; a line bet plays half its chips (n.º 11).
            win = stake / 2 if line else stake * _N61 if chance == ACES else stake
            return {
                "id": bet["id"],
                "status": "won",
                "stake": text,
                "win": str(win),
                "returned": str(stake + win),
            }
        if outcome["touched"]:
            # n.º 7 d): «não perdendo nenhuma das outras chances».
            return {
                "id": bet["id"],
                "status": "push",
                "stake": text,
                "win": "0.00",
                "returned": text,
            }
        if line:
            # n.º 11: only the half in play is lost (B3); the amount is a multiple of 10: exact,
            # and stake / 2 keeps two decimals.
            return {"id": bet["id"], "status": "half_lost", "stake": text, "win": "0.00",
                    "returned": str(stake / 2)}  # fmt: skip
        return {"id": bet["id"], "status": "lost", "stake": text, "win": "0.00", "returned": "0.00"}

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


BANCA_FRANCESA = register(BancaFrancesa())
