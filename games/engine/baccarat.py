"""Bacará ponto e banca (punto banco), and its Macau variant.

- ``punto_banco``: Portaria 217/2007, Anexo, Tít. I, Cap. III, Secção III n.os 1-21.
- ``punto_banco_macau``: the same Cap. III, Secção IV. The text we hold stops at n.º 12; what is
  missing (tableau, payouts, deductions) follows Secção III (PBM-1), so both games share every
  rule here and differ only in the default of ``pairs`` (Secção IV n.º 11: pair bets only by the
  concessionaire's option).

Interpretations PB-1..PB-5, PBM-1..PBM-3: ``docs/settlement.md`` § Interpretations. The drawing
table of n.º 13 is missing from the text we hold ("ver documento original"); the standard punto
banco tableau is used (PB-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from games.engine.cards import POINT_VALUE, RANK, check_cards, check_fields, is_int, point_total
from games.engine.errors import invalid_bet, invalid_option, invalid_outcome
from games.engine.money import floor_cents, lost, push, won
from games.engine.registry import register

DECKS = (6, 8)  # n.º 1: seis baralhos (mesas simples) ou oito (mesas duplas); n.º 5 b
DEFAULT_DECKS = 8
DEDUCTIONS = ("none", "five_percent", "half_on_five")  # n.º 20: a) 5 %, b) 50 % on a banker 5
DEFAULT_DEDUCTION = "five_percent"  # PB-5

_OPTIONS = frozenset({"decks", "banker_deduction", "pairs"})
_OUTCOME_FIELDS = frozenset({"player", "banker"})
_BET_TYPES = frozenset({"player", "banker", "tie", "player_pair", "banker_pair"})
_PAIR_BETS = frozenset({"player_pair", "banker_pair"})
_BET_FIELDS = frozenset({"id", "type", "amount"})

_TIE_PAYS = Decimal(8)  # n.º 18: oito para um
_PAIR_PAYS = Decimal(11)  # n.º 19: onze para um
_FIVE_PERCENT_OFF = Decimal("0.95")  # n.º 20 a: dedução de 5 % ao montante dos prémios
_HALF = Decimal("0.5")  # n.º 20 b: dedução de 50 % quando a banca ganha com 5

# --- the tableau (n.º 13; PB-1) -------------------------------------------------------------------

# _BANKER_DRAWS[b2][p3]: the banker's two-card total b2 against the player's third card's value p3,
# with p3 = 10 meaning "the player stood" (then the banker draws on 0-5, stands on 6-7).
_BANKER_DRAWS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(
        (b2 <= 5)
        if p3 == 10
        else (
            b2 <= 2
            or (b2 == 3 and p3 != 8)
            or (b2 == 4 and 2 <= p3 <= 7)
            or (b2 == 5 and 4 <= p3 <= 7)
            or (b2 == 6 and 6 <= p3 <= 7)
        )
        for p3 in range(11)
    )
    for b2 in range(10)
)


def hand_value(cards: Sequence[str]) -> int:
    """The hand's points 0-9 (n.º 9: ás 1, figuras e 10 zero; only the last digit counts)."""
    return point_total(cards)


def is_natural(cards: Sequence[str]) -> bool:
    """Two cards totalling 8 or 9: when either hand has one, neither hand draws (PB-1 rule 1)."""
    return point_total(cards[:2]) >= 8


def player_draws(player_cards: Sequence[str]) -> bool:
    """The player's two cards call for a third: 0-5 draws, 6-7 stands (n.º 13, PB-1 rule 2).

    Only once neither hand is a natural (:func:`is_natural`); :func:`next_draw` checks that.
    """
    return point_total(player_cards[:2]) <= 5


def banker_draws(banker_cards: Sequence[str], player_third_card: str | None) -> bool:
    """Whether the banker's two cards draw, given the player's third card (``None``: the player
    stood). Only once neither hand is a natural. n.º 13, PB-1 rules 3 and 4:

    ====  ===================================
    b2    draws when the player's third card is
    ====  ===================================
    0-2   anything
    3     anything but 8
    4     2-7
    5     4-7
    6     6-7
    7     never
    ====  ===================================
    """
    p3 = 10 if player_third_card is None else POINT_VALUE[player_third_card]
    return _BANKER_DRAWS[point_total(banker_cards[:2])][p3]


def next_draw(player_cards: Sequence[str], banker_cards: Sequence[str]) -> str | None:
    """Who takes the next card once both hands have their two cards: ``"player"``, ``"banker"``
    or ``None`` (the coup is complete). n.º 13: at most one more card each, the player first."""
    if is_natural(player_cards) or is_natural(banker_cards):
        return None
    if len(player_cards) == 2 and player_draws(player_cards):
        return "player"
    if len(banker_cards) == 2:
        third = player_cards[2] if len(player_cards) == 3 else None
        if banker_draws(banker_cards, third):
            return "banker"
    return None


def _check_tableau(player: list[str], banker: list[str]) -> None:
    """The coup followed n.º 13 (PB-1): each hand has the cards the tableau gives it, no more."""
    p2, b2 = point_total(player[:2]), point_total(banker[:2])
    if p2 >= 8 or b2 >= 8:
        if len(player) != 2 or len(banker) != 2:
            raise invalid_outcome(
                "a natural ({p2} against {b2}): neither hand draws (n.º 13, PB-1)",
                params={"p2": p2, "b2": b2}
            )
        return
    player_should = p2 <= 5
    if player_should != (len(player) == 3):
        verb = "draws" if player_should else "stands"
        raise invalid_outcome("the player {verb} on {p2} (n.º 13, PB-1)",
                              params={"verb": verb, "p2": p2})
    third = player[2] if player_should else None
    banker_should = _BANKER_DRAWS[b2][10 if third is None else POINT_VALUE[third]]
    if banker_should != (len(banker) == 3):
        verb = "draws" if banker_should else "stands"
        against = (
            "the player stood"
            if third is None
            else f"the player's third card is {third} ({POINT_VALUE[third]})"
        )
        raise invalid_outcome("the banker {verb} on {b2} when {against} (n.º 13, PB-1)",
                              params={"verb": verb, "b2": b2, "against": against})


class Baccarat:
    """One baccarat table kind: ``code``, and whether pair bets are offered by default."""

    def __init__(self, code: str, default_pairs: bool, pairs_source: str) -> None:
        self.code = code
        self.default_pairs = default_pairs
        self.pairs_source = pairs_source

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = options.keys() - _OPTIONS
        if unknown:
            raise invalid_option("{code} has no option {unknown!r}",
                                 params={"code": self.code, "unknown": sorted(unknown)[0]})
        decks = options.get("decks", DEFAULT_DECKS)
        if not is_int(decks) or decks not in DECKS:
            raise invalid_option("decks must be 6 or 8 (n.º 1)")
        deduction = options.get("banker_deduction", DEFAULT_DEDUCTION)
        if type(deduction) is not str or deduction not in DEDUCTIONS:
            raise invalid_option(
                'banker_deduction must be "none", "five_percent" or "half_on_five" (n.º 20)'
            )
        pairs = options.get("pairs", self.default_pairs)
        if type(pairs) is not bool:
            raise invalid_option("pairs must be true or false")
        return {"decks": decks, "banker_deduction": deduction, "pairs": pairs}

    def check_outcome(self, options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
        check_fields(outcome, _OUTCOME_FIELDS, _OUTCOME_FIELDS, "outcome")
        # n.º 13: two cards each, at most one more. Six cards cannot exceed a 6- or 8-deck shoe.
        player = check_cards(outcome["player"], "player", 2, 3)
        banker = check_cards(outcome["banker"], "banker", 2, 3)
        _check_tableau(player, banker)
        player_total = point_total(player)
        banker_total = point_total(banker)
        # n.º 17: the higher total wins; n.º 18: equal totals are a tie.
        winner = (
            "player"
            if player_total > banker_total
            else "banker"
            if banker_total > player_total
            else "tie"
        )
        return {
            "player": player,
            "banker": banker,
            "player_total": player_total,
            "banker_total": banker_total,
            "winner": winner,
            "player_pair": RANK[player[0]] == RANK[player[1]],  # n.º 19: mesma denominação (PB-4)
            "banker_pair": RANK[banker[0]] == RANK[banker[1]],
        }

    def check_bet(self, options: dict[str, Any], bet: dict[str, Any]) -> None:
        bet_id = bet["id"]
        kind = bet["type"]
        if kind not in _BET_TYPES:
            raise invalid_bet(
                "{code} has no bet type {kind!r} (player, banker, tie, player_pair, banker_pair)",
                bet_id, params={"code": self.code, "kind": kind},
            )
        if not bet.keys() <= _BET_FIELDS:
            raise invalid_bet(
                "{kind} bets have no field {bet!r}", bet_id,
                                                                                      params={"kind": kind, "bet": sorted(bet.keys() - _BET_FIELDS)[0]}
            )
        if kind in _PAIR_BETS and not options["pairs"]:
            raise invalid_bet("this table does not offer pair bets ({pairs_source})", bet_id,
                                                                                            params={"pairs_source": self.pairs_source})

    def settle_bets(
        self,
        options: dict[str, Any],
        outcome: dict[str, Any],
        bets: list[dict[str, Any]],
        stakes: list[Decimal],
    ) -> list[dict[str, Any]]:
        winner = outcome["winner"]
        deduction = options["banker_deduction"]
        results: list[dict[str, Any]] = []
        for bet, stake in zip(bets, stakes, strict=True):
            bet_id, kind = bet["id"], bet["type"]
            if kind == "player" or kind == "banker":
                if winner == "tie":
                    results.append(push(bet_id, stake))  # n.º 18 (PB-2)
                elif winner != kind:
                    results.append(lost(bet_id, stake))
                elif kind == "player":
                    results.append(won(bet_id, stake, stake))  # n.º 17
                elif deduction == "five_percent":
                    results.append(
                        won(bet_id, stake, floor_cents(stake * _FIVE_PERCENT_OFF))
                    )  # n.º 20 a
                elif deduction == "half_on_five" and outcome["banker_total"] == 5:
                    results.append(won(bet_id, stake, floor_cents(stake * _HALF)))  # n.º 20 b
                else:
                    results.append(won(bet_id, stake, stake))  # n.º 17
            elif kind == "tie":
                results.append(
                    won(bet_id, stake, stake * _TIE_PAYS)
                    if winner == "tie"
                    else lost(bet_id, stake)
                )
            elif outcome[kind]:  # player_pair / banker_pair, whoever wins the coup (n.º 19; PB-3)
                results.append(won(bet_id, stake, stake * _PAIR_PAYS))
            else:
                results.append(lost(bet_id, stake))
        return results


PUNTO_BANCO = register(Baccarat("punto_banco", True, "n.º 19; PB-5"))
PUNTO_BANCO_MACAU = register(
    Baccarat(
        "punto_banco_macau",
        False,
        'Secção IV n.º 11: only by the concessionaire\'s option, "pairs": true',
    )
)
