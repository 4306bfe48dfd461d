"""Poker de Futebol (Macau): Despacho Regulamentar Externo of the Secretário para a Economia e
Finanças, 21 June 2004 (revoking DRE 41/2003), "Regulamento oficial do Poker de Futebol".

The regulation's text has no article numbers; rules are cited by its sections: apostas (bets),
mesa (table), procedimento (procedure), valores das cartas (card values), terceira carta (third
card), prémios (payouts). Interpretations FP-1..FP-5: ``docs/settlement.md`` § Interpretations.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from games.engine.cards import check_cards, check_copies, check_fields, is_int, point_total
from games.engine.errors import invalid_bet, invalid_option, invalid_outcome
from games.engine.money import half_lost, lost, push, won
from games.engine.registry import GameFunctions, register

CODE = "football_poker"
MIN_DECKS = 6  # material 1): «seis ou mais baralhos» (FP-4: no maximum)
DEFAULT_DECKS = 6

# Apostas 1)-4): the totals each 1:1 bet wins on (prémios 1): uma vez a aposta).
WINNING_TOTALS: dict[str, frozenset[int]] = {
    "upper": frozenset({1, 2, 3, 4}),  # série superior (Upper Range)
    "lower": frozenset({5, 6, 7, 8}),  # série inferior (Lower Range)
    "even": frozenset({2, 4, 6, 8}),  # par (Even)
    "odd": frozenset({1, 3, 5, 7}),  # ímpar (Odd)
}
POST_PAYS = Decimal(8)  # prémios 2): o empate (Post), oito vezes a aposta
# Terceira carta 1): a two-card total of 0 or 9 takes a third card.
DRAWS_ON = frozenset({0, 9})

_OPTIONS = frozenset({"decks"})
_OUTCOME_FIELDS = frozenset({"hands"})
_HAND_FIELDS = frozenset({"seat", "cards"})
_BET_TYPES = frozenset({*WINNING_TOTALS, "post"})
_BET_FIELDS = frozenset({"id", "type", "amount", "seat"})


def draws_third_card(cards: Sequence[str]) -> bool:
    """Terceira carta 1: a hand whose first two cards total 0 or 9 receives a third card."""
    return point_total(cards[:2]) in DRAWS_ON


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    unknown = options.keys() - _OPTIONS
    if unknown:
        raise invalid_option("football poker has no option {unknown!r}",
                             params={"unknown": sorted(unknown)[0]})
    decks = options.get("decks", DEFAULT_DECKS)
    if not is_int(decks) or decks < MIN_DECKS:
        raise invalid_option("decks must be a whole number, 6 or more («seis ou mais baralhos»)")
    return {"decks": decks}


def check_outcome(options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
    check_fields(outcome, _OUTCOME_FIELDS, _OUTCOME_FIELDS, "outcome")
    hands_in = outcome["hands"]
    if type(hands_in) is not list or not hands_in:
        raise invalid_outcome("hands must be a non-empty list of the hands dealt")
    hands: list[dict[str, Any]] = []
    numbers: set[int] = set()
    every_card: list[str] = []
    for hand in hands_in:
        if not isinstance(hand, dict):
            raise invalid_outcome("each hand must be an object {seat, cards}")
        check_fields(hand, _HAND_FIELDS, _HAND_FIELDS, "hand")
        seat = hand["seat"]
        # Mesa 1: «oito ou mais lugares», so seats start at 1 with no upper bound.
        if not is_int(seat) or seat < 1:
            raise invalid_outcome("seat {seat!r} is not a place at the table (1 or more)",
                                  params={"seat": seat})
        if seat in numbers:
            raise invalid_outcome("seat {seat} is listed twice", params={"seat": seat})
        numbers.add(seat)
        where = f"seat {seat}"
        cards = check_cards(hand["cards"], where, 2, 3)  # «duas a três cartas»
        # Terceira carta 1: a third card if and only if the first two total 0 or 9 (FP-5: 4-6 is 0).
        if draws_third_card(cards) != (len(cards) == 3):
            two = point_total(cards[:2])
            if len(cards) == 3:
                raise invalid_outcome(
                    "{where}: the first two cards total {two}; a third card only on 0 or 9",
                    params={"where": where, "two": two}
                )
            raise invalid_outcome(
                "{where}: the first two cards total {two}; a third card must be dealt",
                params={"where": where, "two": two}
            )
        every_card += cards
        hands.append({"seat": seat, "cards": cards, "total": point_total(cards)})
    check_copies(every_card, options["decks"])
    hands.sort(key=lambda item: item["seat"])
    return {"hands": hands}


def check_bet(options: dict[str, Any], bet: dict[str, Any]) -> None:
    bet_id = bet["id"]
    kind = bet["type"]
    if kind not in _BET_TYPES:
        raise invalid_bet(
            "football poker has no bet type {kind!r} (upper, lower, even, odd, post)", bet_id,
                                                                                        params={"kind": kind}
        )
    keys = bet.keys()
    if not keys <= _BET_FIELDS:
        raise invalid_bet("{kind} bets have no field {keys!r}", bet_id,
                                                                                          params={"kind": kind, "keys": sorted(keys - _BET_FIELDS)[0]})
    if "seat" not in keys:
        raise invalid_bet("{kind} bets need the field 'seat': the hand it backs (FP-3)", bet_id,
                                                                                          params={"kind": kind})
    seat = bet["seat"]
    if not is_int(seat) or seat < 1:
        raise invalid_bet("seat {seat!r} is not a place at the table (1 or more)", bet_id,
                                                                                    params={"seat": seat})


def settle_bets(
    options: dict[str, Any],
    outcome: dict[str, Any],
    bets: list[dict[str, Any]],
    stakes: list[Decimal],
) -> list[dict[str, Any]]:
    hands = {hand["seat"]: hand for hand in outcome["hands"]}
    results: list[dict[str, Any]] = []
    for bet, stake in zip(bets, stakes, strict=True):
        bet_id, kind = bet["id"], bet["type"]
        hand = hands.get(bet["seat"])
        if hand is None:
            raise invalid_bet("seat {seat} has no hand in this round", bet_id,
                                                                               params={"seat": bet['seat']})
        total = hand["total"]
        third = len(hand["cards"]) == 3
        if kind == "post":
            # Apostas 5): the three cards total 0 or 9 (FP-2); prémios 2): 8 to 1.
            results.append(
                won(bet_id, stake, stake * POST_PAYS)
                if third and total in DRAWS_ON
                else lost(bet_id, stake)
            )
        elif third and total == 0:
            results.append(half_lost(bet_id, stake))  # terceira carta 2: «perde metade» (FP-1)
        elif third and total == 9:
            results.append(push(bet_id, stake))  # terceira carta 2: «a aposta é devolvida» (FP-1)
        elif total in WINNING_TOTALS[kind]:
            results.append(won(bet_id, stake, stake))  # prémios 1): uma vez a aposta
        else:
            results.append(lost(bet_id, stake))
    return results


GAME = register(GameFunctions(CODE, check_options, check_outcome, check_bet, settle_bets))
