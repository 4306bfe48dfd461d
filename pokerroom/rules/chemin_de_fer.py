"""Bacará chemin de fer: a coup settled from its cards (Portaria 217/2007, 2.º: its rules of
execution are approved in the Anexo, Título II, with póquer não bancado).

In chemin de fer the bank is a player's («banqueiro»): the punters stake against the bank, and
the house takes a commission on what the banker wins. The Título II text of the Anexo was not
within reach (the seed copy stops before it; the Diário da República original was not found by
the search tools), so the rules below are written from what Título I gives for bacará ponto e
banca and from the game as the Portaria names it, each flagged in ``docs/poker-room.md``
§ Interpretations until its número is cited:

- **CF-1** The cards and their points are bacará's (Título I, Cap. III, Secção III n.º 9: ás 1,
  figuras e 10 zero, only the last digit counts). Two cards totalling 8 or 9 are a natural:
  neither hand draws.
- **CF-2** The punter's hand («ponto») draws on 0-4, stands on 6-7, and on 5 has the option
  («à vontade»): draw or stand, as the punter says; the option is recorded with the coup.
- **CF-3** The banker's hand draws as the tableau of bacará ponto e banca (Título I n.º 13, PB-1
  of ``docs/settlement.md``): on 0-5 when the punter stood, and by the punter's third card
  otherwise. Where Título II gives the banker an option, it is not modelled.
- **CF-4** The higher total wins; equal totals are a stand-off («empate»): the stakes stay with
  their owners and the bank is unchanged.
- **CF-5** The punters' stakes together never exceed the bank («banca»).
- **CF-6** The house's commission is the casino's approved percentage of what the banker wins
  on the coup, rounded down to the cent; nothing when the banker loses or ties. The percentage
  is a parameter with its approval reference (unverified: not found in the text we reached).

:func:`settle_coup` is pure: the coup in plain values, the result out, or a :class:`RuleError`
naming the rule (and its interpretation) that the cards or the stakes break.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from games.engine.baccarat import banker_draws
from games.engine.cards import CARDS, POINT_VALUE, point_total
from pokerroom.rules.errors import RuleError
from pokerroom.rules.money import ZERO, share

DRAW = "draw"
STAND = "stand"
OPTIONS = (DRAW, STAND)

PUNTER = "punter"
BANKER = "banker"
STAND_OFF = "stand_off"


@dataclass(frozen=True)
class Coup:
    """A coup as the pit records it: the punter's and the banker's cards in dealing order, the
    punter's option at five (``None`` unless the punter had five), the bank, each seat's stake
    against it, and the approved commission percentage."""

    punter_cards: Sequence[str]
    banker_cards: Sequence[str]
    bank: Decimal
    stakes: Mapping[int, Decimal]
    commission_percent: Decimal
    punter_option: str | None = None


@dataclass(frozen=True)
class CoupResult:
    """The coup settled: totals, winner, what each punter takes back (stake and win; zero when
    lost), the banker's result before commission, the commission, and the bank after the coup."""

    punter_total: int
    banker_total: int
    winner: str
    returned: Mapping[int, Decimal]
    banker_result: Decimal
    commission: Decimal
    bank_after: Decimal


def _cards(value: Sequence[str], hand: str) -> list[str]:
    cards = list(value)
    if not 2 <= len(cards) <= 3:
        raise RuleError("cards", "the {hand}'s hand has two or three cards (CF-1)", {"hand": hand})
    for card in cards:
        if card not in CARDS:
            raise RuleError("cards", "{card!r} is not a card (rank A23456789TJQK, suit SHDC)",
                            {"card": card})
    return cards


def _check_drawing(punter: list[str], banker: list[str], option: str | None) -> None:
    """The coup followed CF-1..CF-3, or the refusal naming the step it broke."""
    p2, b2 = point_total(punter[:2]), point_total(banker[:2])
    if option is not None and option not in OPTIONS:
        raise RuleError("option", "the punter's option is draw or stand, not {option!r} (CF-2)",
                        {"option": option})
    if p2 >= 8 or b2 >= 8:
        if len(punter) != 2 or len(banker) != 2:
            raise RuleError("natural_draws",
                            "a natural ({p2} against {b2}): neither hand draws (CF-1)",
                            {"p2": p2, "b2": b2})
        if option is not None:
            raise RuleError("option_not_open", "a natural: the punter has no option (CF-2)")
        return
    if p2 == 5:
        if option is None:
            raise RuleError("option_missing",
                            "the punter has five: record the option, draw or stand (CF-2)")
        punter_draws = option == DRAW
    else:
        if option is not None:
            raise RuleError("option_not_open",
                            "the punter has {p2}: the option is open only on five (CF-2)",
                            {"p2": p2})
        punter_draws = p2 <= 4
    if punter_draws != (len(punter) == 3):
        raise RuleError("punter_draw",
                        "the punter {verb} on {p2} (CF-2){why}",
                        {"verb": "draws" if punter_draws else "stands", "p2": p2,
                         "why": ", as the option said" if p2 == 5 else ""})
    third = punter[2] if punter_draws else None
    should = banker_draws(banker, third)
    if should != (len(banker) == 3):
        verb = "draws" if should else "stands"
        if third is None:
            raise RuleError("banker_draw", "the banker {verb} on {b2} when the punter stood "
                            "(CF-3, Título I n.º 13)", {"verb": verb, "b2": b2})
        raise RuleError("banker_draw", "the banker {verb} on {b2} when the punter's third card "
                        "is a {p3} (CF-3, Título I n.º 13)",
                        {"verb": verb, "b2": b2, "p3": POINT_VALUE[third]})


def settle_coup(coup: Coup) -> CoupResult:
    """Settle ``coup`` (CF-1..CF-6).

    Punter 2S 2H (4) draws 4C: 8; banker KS 7D (7) stands on 7: the punter wins, each stake
    returned doubled, the bank loses their sum; no commission.
    Banker wins 100.00 of stakes at 5 %: commission 5.00, the bank grows by 95.00.
    """
    punter = _cards(coup.punter_cards, "punter")
    banker = _cards(coup.banker_cards, "banker")
    _check_drawing(punter, banker, coup.punter_option)
    if coup.bank <= ZERO:
        raise RuleError("bank", "the bank must hold something to play against (CF-5)")
    if not coup.stakes:
        raise RuleError("no_stakes", "a coup needs at least one stake against the bank (CF-5)")
    if any(stake <= ZERO for stake in coup.stakes.values()):
        raise RuleError("stake", "each stake against the bank is more than 0.00 (CF-5)")
    against = sum(coup.stakes.values(), ZERO)
    if against > coup.bank:
        raise RuleError("stakes_above_bank",
                        "the stakes {against} exceed the bank {bank} (CF-5)",
                        {"against": against, "bank": coup.bank})
    if not ZERO <= coup.commission_percent <= Decimal(100):
        raise RuleError("commission_percent", "the commission is a percentage 0 to 100 (CF-6)")
    p, b = point_total(punter), point_total(banker)
    if p > b:
        return CoupResult(p, b, PUNTER, {seat: stake * 2 for seat, stake in coup.stakes.items()},
                          -against, ZERO, coup.bank - against)
    if b > p:
        commission = share(against, coup.commission_percent)
        return CoupResult(p, b, BANKER, dict.fromkeys(coup.stakes, ZERO), against, commission,
                          coup.bank + against - commission)
    return CoupResult(p, b, STAND_OFF, dict(coup.stakes), ZERO, ZERO, coup.bank)
