"""Póquer sem descarte (Caribbean stud): Portaria 217/2007, Anexo, Tít. I, Cap. III, Secção II.

Interpretations SP-1..SP-5: ``docs/settlement.md`` § Interpretations. The hand
ranking (n.os 6, 7) lives in :mod:`games.engine.cards`, shared with the stud poker jackpot. The
jackpot (n.os 3, 4, 8-12) is settled by the jackpot subsystem; only ``options.jackpot`` is checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from games.engine.cards import (
    POKER_CATEGORIES,
    POKER_CATEGORY_INDEX,
    POKER_RANK,
    check_cards,
    check_copies,
    check_fields,
    check_jackpot_option,
    is_int,
    rank_poker_hand,
)
from games.engine.errors import invalid_bet, invalid_option, invalid_outcome
from games.engine.money import lost, push, won
from games.engine.registry import GameFunctions, register

CODE = "stud_poker"
SEATS = range(1, 8)  # n.º 5: at most 7 boxes
HAND_SIZE = 5  # n.º 16: five cards to each player and to the bank

# n.º 6: the call (segunda aposta) is paid this many times when the hand beats a qualifying bank.
PAYTABLE: dict[str, Decimal] = {
    "royal_flush": Decimal(100),  # a
    "straight_flush": Decimal(50),  # b
    "four_of_a_kind": Decimal(20),  # c
    "full_house": Decimal(7),  # d
    "flush": Decimal(5),  # e
    "straight": Decimal(4),  # f
    "three_of_a_kind": Decimal(3),  # g
    "two_pair": Decimal(2),  # h
    "one_pair": Decimal(1),  # i
    "high_card": Decimal(1),  # j
}

# docs/jackpots.md § Combinations, lowest to highest (n.º 9: left to the concessionaire; JP-6).
JACKPOT_COMBINATIONS = POKER_CATEGORIES[POKER_CATEGORY_INDEX["three_of_a_kind"] :]

_OPTIONS = frozenset({"jackpot"})
_OUTCOME_FIELDS = frozenset({"dealer", "seats"})
_DEALER_FIELDS = frozenset({"cards"})
_SEAT_FIELDS = frozenset({"seat", "cards", "decision"})
_DECISIONS = frozenset({"call", "fold"})  # n.º 17: «vou» / «passo»
_BET_TYPES = frozenset({"ante", "call"})
_BET_FIELDS = frozenset({"id", "type", "amount", "seat"})
_TWO = Decimal(2)
_ACE, _KING = 14, 13


def dealer_qualifies(cards: Sequence[str]) -> bool:
    """n.º 18: the bank plays only with an ace and a king or better (any pair or better)."""
    return _qualifies(rank_poker_hand(cards)[0], cards)


def _qualifies(category: str, cards: Sequence[str]) -> bool:
    if category != "high_card":
        return True
    ranks = {POKER_RANK[card] for card in cards}
    return _ACE in ranks and _KING in ranks


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    unknown = options.keys() - _OPTIONS
    if unknown:
        raise invalid_option(
            "stud poker has no option {unknown!r} (one deck, fixed paytable: n.os 1, 6)",
            params={"unknown": sorted(unknown)[0]}
        )
    return {"jackpot": check_jackpot_option(options.get("jackpot"), JACKPOT_COMBINATIONS)}


def check_outcome(options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
    check_fields(outcome, _OUTCOME_FIELDS, _OUTCOME_FIELDS, "outcome")
    dealer_in = outcome["dealer"]
    if not isinstance(dealer_in, dict):
        raise invalid_outcome("dealer must be an object with the bank's five cards")
    check_fields(dealer_in, _DEALER_FIELDS, _DEALER_FIELDS, "dealer")
    dealer_cards = check_cards(dealer_in["cards"], "dealer", HAND_SIZE, HAND_SIZE)
    seats_in = outcome["seats"]
    if type(seats_in) is not list or not seats_in:
        raise invalid_outcome("seats must be a non-empty list of the boxes played")
    every_card = list(dealer_cards)
    seats: list[tuple[int, list[str], str]] = []
    numbers: set[int] = set()
    for seat in seats_in:
        if not isinstance(seat, dict):
            raise invalid_outcome("each seat must be an object {seat, cards, decision}")
        check_fields(seat, _SEAT_FIELDS, _SEAT_FIELDS, "seat")
        number = seat["seat"]
        if not is_int(number) or number not in SEATS:
            raise invalid_outcome("seat {number!r} is not a box of the table (1 to 7, n.º 5)",
                                  params={"number": number})
        if number in numbers:
            raise invalid_outcome("seat {number} is listed twice", params={"number": number})
        numbers.add(number)
        cards = check_cards(seat["cards"], f"seat {number}", HAND_SIZE, HAND_SIZE)
        decision = seat["decision"]
        if type(decision) is not str or decision not in _DECISIONS:
            raise invalid_outcome('seat {number}: decision must be "call" or "fold" (n.º 17)',
                                  params={"number": number})
        every_card += cards
        seats.append((number, cards, decision))
    check_copies(every_card, 1)  # n.º 1: one 52-card deck

    dealer_category, dealer_tiebreak = rank_poker_hand(dealer_cards)
    qualifies = _qualifies(dealer_category, dealer_cards)
    dealer_key = (POKER_CATEGORY_INDEX[dealer_category], dealer_tiebreak)
    seats.sort(key=lambda item: item[0])
    seats_out: list[dict[str, Any]] = []
    for number, cards, decision in seats:
        category, tiebreak = rank_poker_hand(cards)
        if decision == "fold":
            result = "folded"  # n.º 17
        elif not qualifies:
            result = "dealer_not_qualified"  # n.º 18
        else:
            key = (POKER_CATEGORY_INDEX[category], tiebreak)
            # n.º 6 last paragraph and n.º 7: higher wins, lower loses, equal keeps the stake.
            result = "won" if key > dealer_key else "lost" if key < dealer_key else "push"
        seats_out.append(
            {
                "seat": number,
                "cards": cards,
                "decision": decision,
                "hand": category,
                "result": result,
            }
        )
    return {
        "dealer": {"cards": dealer_cards, "hand": dealer_category, "qualifies": qualifies},
        "seats": seats_out,
    }


def check_bet(options: dict[str, Any], bet: dict[str, Any]) -> None:
    bet_id = bet["id"]
    kind = bet["type"]
    if kind not in _BET_TYPES:
        raise invalid_bet("stud poker has no bet type {kind!r} (ante, call)", bet_id,
                                                                               params={"kind": kind})
    keys = bet.keys()
    if not keys <= _BET_FIELDS:
        raise invalid_bet("{kind} bets have no field {keys!r}", bet_id,
                                                                                          params={"kind": kind, "keys": sorted(keys - _BET_FIELDS)[0]})
    if "seat" not in keys:
        raise invalid_bet("{kind} bets need the field 'seat'", bet_id, params={"kind": kind})
    seat = bet["seat"]
    if not is_int(seat) or seat not in SEATS:
        raise invalid_bet("seat {seat!r} is not a box of the table (1 to 7, n.º 5)", bet_id,
                                                                                      params={"seat": seat})


def settle_bets(
    options: dict[str, Any],
    outcome: dict[str, Any],
    bets: list[dict[str, Any]],
    stakes: list[Decimal],
) -> list[dict[str, Any]]:
    seats = {seat["seat"]: seat for seat in outcome["seats"]}
    antes: dict[int, int] = {}
    calls: dict[int, int] = {}
    for index, bet in enumerate(bets):
        bet_id, seat = bet["id"], bet["seat"]
        played = seats.get(seat)
        if played is None:
            raise invalid_bet("seat {seat} was not dealt in this round", bet_id,
                                                                          params={"seat": seat})
        if bet["type"] == "ante":
            if seat in antes:
                raise invalid_bet(
                    "seat {seat} already has an ante: one box per player (n.º 5)", bet_id,
                                                                                    params={"seat": seat}
                )
            antes[seat] = index
        else:
            if seat in calls:
                raise invalid_bet("seat {seat} already has a call bet", bet_id,
                                                                         params={"seat": seat})
            if played["decision"] != "call":
                raise invalid_bet(
                    "seat {seat} folded: there is no call bet on a folded hand (n.º 17)", bet_id,
                                                                                           params={"seat": seat}
                )
            calls[seat] = index
    for seat, played in seats.items():
        ante = antes.get(seat)
        if ante is None:
            raise invalid_bet("seat {seat} was dealt but has no ante (n.º 16)",
                              params={"seat": seat})
        if played["decision"] == "call":
            call = calls.get(seat)
            if call is None:
                raise invalid_bet(
                    "seat {seat} called but has no call bet (n.º 17)", bets[ante]["id"],
                                                                        params={"seat": seat}
                )
            if stakes[call] != stakes[ante] * _TWO:
                raise invalid_bet(
                    "seat {seat}: the call must be exactly twice the ante (n.º 17; SP-5)",
                    bets[call]["id"], params={"seat": seat},
                )

    results: list[dict[str, Any]] = []
    for bet, stake in zip(bets, stakes, strict=True):
        bet_id = bet["id"]
        played = seats[bet["seat"]]
        result = played["result"]
        ante = bet["type"] == "ante"
        if result == "folded":
            results.append(lost(bet_id, stake))  # n.º 17: who passes loses the ante
        elif result == "dealer_not_qualified":
            # n.º 18 (SP-3): the bank pays every caller the ante once; the call comes back.
            results.append(won(bet_id, stake, stake) if ante else push(bet_id, stake))
        elif result == "won":
            # n.º 18: antes paid even money; the call by the player's own hand, n.º 6 (SP-4).
            results.append(won(bet_id, stake, stake if ante else stake * PAYTABLE[played["hand"]]))
        elif result == "push":
            results.append(push(bet_id, stake))  # n.º 6 last paragraph
        else:
            results.append(lost(bet_id, stake))  # n.º 18
    return results


GAME = register(GameFunctions(CODE, check_options, check_outcome, check_bet, settle_bets))
