"""Blackjack/21: Portaria 217/2007, Anexo, Título I, Cap. III, Secção I, Subsecção I n.os 1-37.

Interpretations BJ-1..BJ-11: ``docs/settlement.md`` § Interpretations. Where the rules first
specified for the platform departed from the regulation, this module follows the regulation and says
so (``REG-``):

- REG-BJ-1: a split hand of ace and ten-value card is 21 and may not be doubled (n.os 18, 32);
- REG-BJ-2: a back bettor may insure only when the seat holder insured (n.º 15).

The jackpot (Subsecção II) is settled by the jackpot subsystem; only ``options.jackpot`` is checked
here. The automatic shuffler (Subsecção III) changes nothing in settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from games.engine.cards import (
    BLACKJACK_VALUE,
    RANK,
    SUIT,
    check_cards,
    check_copies,
    check_fields,
    check_jackpot_option,
    is_int,
)
from games.engine.errors import invalid_bet, invalid_option, invalid_outcome
from games.engine.money import bet_result, floor_cents, half_lost, lost, push, won
from games.engine.registry import GameFunctions, register

CODE = "blackjack"
DECKS = (4, 6)  # n.º 3: quatro ou seis baralhos
DEFAULT_DECKS = 6
SEATS = range(1, 8)  # n.º 2: seis ou sete lugares, numbered from the dealer's left

# docs/jackpots.md § Combinations (n.os 42, 46), lowest to highest.
JACKPOT_COMBINATIONS = (
    "two_aces",
    "two_aces_suited",
    "three_aces",
    "three_aces_suited",
    "four_aces",
    "four_aces_suited",
)

DECISIONS = frozenset({"hit", "stand", "double", "split", "surrender", "insurance", "even_money"})

_OPTIONS = frozenset({"decks", "jackpot"})
_OUTCOME_FIELDS = frozenset({"dealer", "seats"})
_DEALER_FIELDS = frozenset({"cards"})
_SEAT_FIELDS = frozenset({"seat", "hands"})
_HAND_FIELDS = frozenset({"cards", "double", "surrender"})
_CARDS_FIELD = frozenset({"cards"})

_BET_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required, allowed)
    "main": (
        frozenset({"id", "type", "amount", "seat"}),
        frozenset({"id", "type", "amount", "seat", "even_money"}),
    ),
    "back": (
        frozenset({"id", "type", "amount", "seat"}),
        frozenset({"id", "type", "amount", "seat", "even_money"}),
    ),
    "split": (
        frozenset({"id", "type", "amount", "bet", "hand"}),
        frozenset({"id", "type", "amount", "bet", "hand"}),
    ),
    "double": (
        frozenset({"id", "type", "amount", "bet"}),
        frozenset({"id", "type", "amount", "bet"}),
    ),
    "insurance": (
        frozenset({"id", "type", "amount", "bet"}),
        frozenset({"id", "type", "amount", "bet"}),
    ),
}
_SEAT_BETS = frozenset({"main", "back"})
_STAKES_ON_A_HAND = frozenset({"main", "back", "split"})  # what a double may double (n.os 29-31)

_THREE = Decimal(3)
_TWO = Decimal(2)
_ONE_AND_A_HALF = Decimal("1.5")

# n.º 35: «6-7-8» do mesmo naipe, ou três «7».
_BONUS_RANKS = ("6", "7", "8")


# --- hand values (n.os 6, 32) ---------------------------------------------------------------------


def _has_ace(cards: Sequence[str]) -> bool:
    return any(card[0] == "A" for card in cards)


def _hard(cards: Sequence[str]) -> int:
    """Every ace 1 (n.º 6 a)."""
    total = 0
    for card in cards:
        total += BLACKJACK_VALUE[card]
    return total


def hand_total(cards: Sequence[str], *, doubled: bool = False) -> tuple[int, bool]:
    """A player's total and whether an ace counts 11 in it (``soft``).

    n.º 6 a: an ace counts 1 or 11; the total is the best not over 21, or the sum (aces 1) when
    bust. n.º 32: in a doubled hand an ace among the first two cards counts 1 to the end; only an
    ace dealt as the double card may still count 11.
    """
    hard = _hard(cards)
    free_ace = _has_ace(cards[2:]) if doubled else _has_ace(cards)
    if free_ace and hard <= 11:
        return hard + 10, True
    return hard, False


def dealer_total(cards: Sequence[str]) -> int:
    """The bank's total (n.º 6 a): an ace counts 11 when that makes 17 to 21, else 1.

    So the bank stands on soft 17 (A-6 is 17) and A-5 is 6.
    """
    hard = _hard(cards)
    if 7 <= hard <= 11 and _has_ace(cards):
        return hard + 10
    return hard


def dealer_must_hit(cards: Sequence[str], options: Mapping[str, Any] | None = None) -> bool:
    """n.º 19: the bank draws while its total (n.º 6 a) is 16 or less and stops at 17 or more.

    (n.º 22: when no hand is left in play the bank draws nothing at all; that is a table fact,
    see :func:`hand_in_play`.) ``options`` is accepted for symmetry: no option changes the rule.
    """
    return dealer_total(cards) < 17


def is_blackjack(cards: Sequence[str], *, split: bool = False) -> bool:
    """n.º 1 a: exactly two cards, an ace and a ten-value card; n.º 20: never after a split."""
    if split or len(cards) != 2:
        return False
    a, b = BLACKJACK_VALUE[cards[0]], BLACKJACK_VALUE[cards[1]]
    return (a == 1 and b == 10) or (a == 10 and b == 1)


def is_bonus(cards: Sequence[str]) -> bool:
    """n.º 35: exactly three cards, 6-7-8 of one suit (any order) or three 7s (any suits)."""
    if len(cards) != 3:
        return False
    ranks = sorted(RANK[card] for card in cards)
    if ranks == ["7", "7", "7"]:
        return True
    return tuple(ranks) == _BONUS_RANKS and SUIT[cards[0]] == SUIT[cards[1]] == SUIT[cards[2]]


def _may_double(cards: Sequence[str]) -> bool:
    """n.os 29, 31: the first two cards total 9, 10 or 11 counting aces as 1 (n.º 32, BJ-8).

    REG-BJ-1: not an ace with a ten-value card. Those two cards are 21 (n.º 6 a), at 21 no more
    cards may be taken (n.º 18), and n.º 32 lets an ace count 1 for a double only on 9 or 10
    (A-8, A-9). A first specification's "10-A on a split hand may double" is not in the regulation.
    """
    a, b = BLACKJACK_VALUE[cards[0]], BLACKJACK_VALUE[cards[1]]
    return 9 <= a + b <= 11 and not (a == 1 and b == 10) and not (a == 10 and b == 1)


def _may_hit(total: int) -> bool:
    """n.º 18: cards may be asked "até à de 21, inclusive, sendo-lhes vedado pedir mais cartas
    logo que atinjam esta": a card only below 21."""
    return total < 21


def _may_stand(total: int) -> bool:
    """n.º 18: a player may «ficar-se» only with more than 11 (BJ-7); at 21 he can only stand."""
    return 11 < total <= 21


def _may_surrender(cards: Sequence[str], split: bool, ace_up: bool) -> bool:
    """n.º 36: the untouched two-card hand (not split, not a blackjack), not against an ace."""
    return len(cards) == 2 and not split and not ace_up and not is_blackjack(cards)


def hand_in_play(hand: Mapping[str, Any]) -> bool:
    """n.º 22: a derived hand still waiting on the bank (not bust, surrendered or a blackjack; BJ-9)."""
    return not (hand["bust"] or hand["surrender"] or hand["blackjack"])


def allowed_decisions(
    hand: Mapping[str, Any], upcard: str, options: Mapping[str, Any] | None = None
) -> set[str]:
    """What the rules let a player do now with ``hand``, the bank showing ``upcard``.

    ``hand``: ``{"cards": [...], "split": bool, "double": bool}`` (``split``: the hand came out of
    a split; ``double``: it was doubled; both default false). Returns a subset of
    :data:`DECISIONS`: ``hit``/``stand`` (n.º 18: a card only below 21, stand only above 11),
    ``double`` (n.os 29, 31, 32; REG-BJ-1), ``split`` (n.os 26, 27: two cards of the same value,
    resplits and aces included, BJ-4, BJ-5; a split ace dealt another ace may be split again or
    kept, ``stand``), ``surrender`` (n.º 36: the untouched two-card hand,
    not against an ace), ``insurance`` (n.º 33: ace up, the initial two cards) and ``even_money``
    (n.º 34: a blackjack against an ace). A finished hand (doubled and dealt, split aces dealt, a
    blackjack against anything but an ace) has no decision left.
    """
    cards = list(hand["cards"])
    split = bool(hand.get("split", False))
    doubled = bool(hand.get("double", False))
    if upcard not in BLACKJACK_VALUE or any(card not in BLACKJACK_VALUE for card in cards):
        raise invalid_outcome("allowed_decisions: a card that is not a card")
    ace_up = upcard[0] == "A"
    if len(cards) < 2 or doubled:
        return set()  # waiting for a card, or doubled: one card only (n.º 29)
    two = len(cards) == 2
    pair = two and BLACKJACK_VALUE[cards[0]] == BLACKJACK_VALUE[cards[1]]
    if split and cards[0][0] == "A":
        # n.º 26: split aces take one card each («apenas poderá pedir uma carta para cada
        # aposta»). n.º 27 (BJ-5): a split ace dealt another ace *may* be split again («poderá
        # voltar a fazê-lo»), so the player may also keep it: "stand" ends the hand with its one
        # card (A-A counts 12, n.º 6 a; the "above 11" rule of n.º 18 is met, and split aces are
        # exempt from it anyway). No hit and no double on split aces (n.º 26).
        return {"split", "stand"} if pair else set()
    if is_blackjack(cards, split=split):
        return {"insurance", "even_money"} if ace_up else set()  # n.os 33, 34; n.º 21
    total, _soft = hand_total(cards)
    allowed: set[str] = set()
    if _may_hit(total):
        allowed.add("hit")
    if _may_stand(total):
        allowed.add("stand")
    if _may_surrender(cards, split, ace_up):
        allowed.add("surrender")
    if two:
        if _may_double(cards):
            allowed.add("double")
        if pair:
            allowed.add("split")
        if not split and ace_up:
            allowed.add("insurance")  # n.º 33, after the second cards
    return allowed


# --- options --------------------------------------------------------------------------------------


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    unknown = options.keys() - _OPTIONS
    if unknown:
        raise invalid_option("blackjack has no option {unknown!r}",
                             params={"unknown": sorted(unknown)[0]})
    decks = options.get("decks", DEFAULT_DECKS)
    if not is_int(decks) or decks not in DECKS:
        raise invalid_option("decks must be 4 or 6 (n.º 3)")
    jackpot = check_jackpot_option(options.get("jackpot"), JACKPOT_COMBINATIONS)
    return {"decks": decks, "jackpot": jackpot}


# --- outcome --------------------------------------------------------------------------------------


def _flag(hand: Mapping[str, Any], name: str, where: str) -> bool:
    value = hand.get(name, False)
    if type(value) is not bool:
        raise invalid_outcome("{where}: {name} must be true or false",
                              params={"where": where, "name": name})
    return value


def _check_hits(cards: Sequence[str], where: str) -> None:
    """n.º 18: each card taken below 21; the hand ends bust or standing above 11 (BJ-7)."""
    for count in range(2, len(cards)):
        total, _soft = hand_total(cards[:count])
        if not _may_hit(total):
            raise invalid_outcome(
                "{where}: a card was taken on {total}; no card may be asked at 21 or more (n.º 18)",
                params={"where": where, "total": total}
            )
    total, _soft = hand_total(cards)
    if total <= 21 and not _may_stand(total):
        raise invalid_outcome(
            "{where}: stood on {total}; a player may stand only above 11 (n.º 18)",
            params={"where": where, "total": total}
        )


def _check_seat(seat_no: int, hands: list[dict[str, Any]], ace_up: bool) -> None:
    where = f"seat {seat_no}"
    if len(hands) > 1:
        # n.os 26, 27: every split hand starts with a card of the pair's value (BJ-4, BJ-5).
        value = BLACKJACK_VALUE[hands[0]["cards"][0]]
        aces = value == 1
        for number, hand in enumerate(hands, 1):
            cards = hand["cards"]
            here = f"{where} hand {number}"
            if BLACKJACK_VALUE[cards[0]] != value:
                raise invalid_outcome(
                    "{here}: split hands must start with cards of the same value (n.º 26)",
                    params={"here": here}
                )
            if hand["surrender"]:
                raise invalid_outcome("{here}: no surrender after a split (n.º 36)",
                                      params={"here": here})
            if aces:
                if len(cards) != 2 or hand["double"]:
                    raise invalid_outcome(
                        "{here}: split aces take one card each and no double (n.º 26)",
                        params={"here": here}
                    )
            elif hand["double"]:
                _check_double(cards, here)
            else:
                _check_hits(cards, here)
        return
    hand = hands[0]
    cards = hand["cards"]
    if is_blackjack(cards[:2]):
        if len(cards) != 2 or hand["double"] or hand["surrender"]:
            raise invalid_outcome(
                "{where}: a blackjack takes no card and no decision (n.os 18, 21)",
                params={"where": where}
            )
    elif hand["surrender"]:
        if hand["double"] or not _may_surrender(cards, False, ace_up):
            raise invalid_outcome(
                "{where}: surrender is only on the untouched two-card hand, "
                "and never when the bank shows an ace (n.º 36)", params={"where": where}
            )
    elif hand["double"]:
        _check_double(cards, where)
    else:
        _check_hits(cards, where)


def _check_double(cards: Sequence[str], where: str) -> None:
    if not _may_double(cards):
        if is_blackjack(cards[:2]):
            raise invalid_outcome(
                "{where}: an ace and a ten-value card are 21, which takes no card: no double (n.os 18, 32)",
                params={"where": where}
            )
        raise invalid_outcome(
            "{where}: a double needs the first two cards to total 9, 10 or 11, aces counting 1 (n.os 29, 31, 32)",
            params={"where": where}
        )
    if len(cards) != 3:
        raise invalid_outcome("{where}: a doubled hand gets exactly one card (n.º 29)",
                              params={"where": where})


def _hand_result(
    total: int, bust: bool, blackjack: bool, surrender: bool, dealer: dict[str, Any]
) -> str:
    """The result of a plain stake on a hand (n.os 20, 21, 23, 24; BJ-2)."""
    if surrender:
        return "half_lost"  # n.º 36
    if blackjack:
        return "push" if dealer["blackjack"] else "won"  # n.º 21
    if bust:
        return "lost"  # n.º 22
    if dealer["blackjack"]:
        return "lost"  # n.º 20; BJ-2: doubles and split stakes too
    if dealer["bust"]:
        return "won"
    dealer_points = dealer["total"]
    if total > dealer_points:
        return "won"  # n.º 23
    if total == dealer_points:
        return "push"  # n.º 24
    return "lost"  # n.º 23


def check_outcome(options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
    check_fields(outcome, _OUTCOME_FIELDS, _OUTCOME_FIELDS, "outcome")
    dealer_in = outcome["dealer"]
    if not isinstance(dealer_in, dict):
        raise invalid_outcome("dealer must be an object with the bank's cards")
    check_fields(dealer_in, _DEALER_FIELDS, _DEALER_FIELDS, "dealer")
    dealer_cards = check_cards(dealer_in["cards"], "dealer", 2, None)
    seats_in = outcome["seats"]
    if type(seats_in) is not list or not seats_in:
        raise invalid_outcome("seats must be a non-empty list of the seats dealt")
    every_card = list(dealer_cards)
    seats: list[tuple[int, list[dict[str, Any]]]] = []
    numbers: set[int] = set()
    for seat in seats_in:
        if not isinstance(seat, dict):
            raise invalid_outcome("each seat must be an object {seat, hands}")
        check_fields(seat, _SEAT_FIELDS, _SEAT_FIELDS, "seat")
        number = seat["seat"]
        if not is_int(number) or number not in SEATS:
            raise invalid_outcome("seat {number!r} is not a seat of the table (1 to 7, n.º 2)",
                                  params={"number": number})
        if number in numbers:
            raise invalid_outcome("seat {number} is listed twice", params={"number": number})
        numbers.add(number)
        hands_in = seat["hands"]
        if type(hands_in) is not list or not hands_in:
            raise invalid_outcome("seat {number}: hands must be a non-empty list",
                                  params={"number": number})
        hands: list[dict[str, Any]] = []
        for index, hand in enumerate(hands_in, 1):
            where = f"seat {number} hand {index}"
            if not isinstance(hand, dict):
                raise invalid_outcome("{where} must be an object {{cards, double?, surrender?}}",
                                      params={"where": where})
            check_fields(hand, _HAND_FIELDS, _CARDS_FIELD, where)
            cards = check_cards(hand["cards"], where, 2, None)
            every_card += cards
            hands.append(
                {
                    "cards": cards,
                    "double": _flag(hand, "double", where),
                    "surrender": _flag(hand, "surrender", where),
                }
            )
        seats.append((number, hands))
    check_copies(every_card, options["decks"])

    ace_up = dealer_cards[0][0] == "A"
    seats.sort(key=lambda item: item[0])
    in_play = False
    for number, hands in seats:
        _check_seat(number, hands, ace_up)
        split = len(hands) > 1
        for hand in hands:
            cards = hand["cards"]
            total, _soft = hand_total(cards, doubled=hand["double"])
            hand["total"] = total
            hand["blackjack"] = is_blackjack(cards, split=split)
            hand["bust"] = total > 21
            hand["bonus"] = is_bonus(cards)
            in_play = in_play or hand_in_play(hand)

    # The bank: n.º 22 (nothing in play: it turns its hole card and draws nothing), n.os 19, 6 a.
    if not in_play:
        if len(dealer_cards) != 2:
            raise invalid_outcome("no hand was left in play, so the bank draws no card (n.º 22)")
    else:
        for count in range(2, len(dealer_cards)):
            if dealer_total(dealer_cards[:count]) >= 17:
                raise invalid_outcome(
                    "the bank drew on {dealer_cards}; it stops at 17 or more (n.os 6 a, 19)",
                    params={"dealer_cards": dealer_total(dealer_cards[:count])}
                )
        if dealer_total(dealer_cards) < 17:
            raise invalid_outcome("the bank stopped below 17; it must draw to 17 or more (n.º 19)")
    points = dealer_total(dealer_cards)
    dealer = {
        "cards": dealer_cards,
        "total": points,
        "blackjack": is_blackjack(dealer_cards),
        "bust": points > 21,
    }
    for _number, hands in seats:
        for hand in hands:
            hand["result"] = _hand_result(
                hand["total"], hand["bust"], hand["blackjack"], hand["surrender"], dealer
            )
    return {
        "dealer": dealer,
        "seats": [{"seat": number, "hands": hands} for number, hands in seats],
    }


# --- bets -----------------------------------------------------------------------------------------


def check_bet(options: dict[str, Any], bet: dict[str, Any]) -> None:
    bet_id = bet["id"]
    kind = bet["type"]
    fields = _BET_FIELDS.get(kind)
    if fields is None:
        raise invalid_bet(
            "blackjack has no bet type {kind!r} (main, back, split, double, insurance)", bet_id,
                                                                                          params={"kind": kind}
        )
    required, allowed = fields
    keys = bet.keys()
    if not keys <= allowed:
        raise invalid_bet("{kind} bets have no field {keys!r}", bet_id,
                                                                                      params={"kind": kind, "keys": sorted(keys - allowed)[0]})
    if not required <= keys:
        raise invalid_bet("{kind} bets need the field {required!r}", bet_id,
                                                                                        params={"kind": kind, "required": sorted(required - keys)[0]})
    if kind in _SEAT_BETS:
        seat = bet["seat"]
        if not is_int(seat) or seat not in SEATS:
            raise invalid_bet("seat {seat!r} is not a seat of the table (1 to 7, n.º 2)", bet_id,
                                                                                           params={"seat": seat})
        if type(bet.get("even_money", False)) is not bool:
            raise invalid_bet("even_money must be true or false", bet_id)
        return
    if type(bet["bet"]) is not str:
        raise invalid_bet("{kind} bets name the stake they belong to by its id (a string)", bet_id,
                                                                                             params={"kind": kind})
    if kind == "split":
        hand = bet["hand"]
        if not is_int(hand) or hand < 2:
            raise invalid_bet("a split stake goes on hand 2 or later", bet_id)


def _stake_line(
    bet_id: str, stake: Decimal, hand: Mapping[str, Any], bonus: bool
) -> dict[str, Any]:
    """A stake following its hand, with the n.º 35 bonus folded in when ``bonus`` (BJ-3)."""
    result = hand["result"]
    if bonus and hand["bonus"]:
        prize = stake * _THREE  # n.º 35: três vezes a importância da aposta, logo
        if result == "won":
            win = stake + prize
        elif result == "push":
            win = prize
        else:  # lost (to a bank blackjack: a bonus hand is 21 and never bust)
            win = prize - stake
        return bet_result(bet_id, "won", stake, win, stake + win)
    if result == "won":
        if hand["blackjack"]:
            return won(bet_id, stake, floor_cents(stake * _ONE_AND_A_HALF))  # n.º 21: 3 para 2
        return won(bet_id, stake, stake)  # n.º 23
    if result == "push":
        return push(bet_id, stake)  # n.os 21, 24
    if result == "half_lost":
        return half_lost(bet_id, stake)  # n.º 36
    return lost(bet_id, stake)


def settle_bets(
    options: dict[str, Any],
    outcome: dict[str, Any],
    bets: list[dict[str, Any]],
    stakes: list[Decimal],
) -> list[dict[str, Any]]:
    seats: dict[int, list[dict[str, Any]]] = {
        seat["seat"]: seat["hands"] for seat in outcome["seats"]
    }
    dealer = outcome["dealer"]
    ace_up = dealer["cards"][0][0] == "A"
    index_of = {bet["id"]: index for index, bet in enumerate(bets)}
    # Where each stake sits: (seat, hand number). main/back on hand 1 (n.os 15, 28).
    place: dict[str, tuple[int, int]] = {}
    mains: dict[int, str] = {}
    splits: dict[tuple[str, int], str] = {}
    doubles: dict[str, str] = {}
    insured: dict[str, str] = {}

    def referenced(bet: dict[str, Any], kinds: frozenset[str]) -> tuple[str, int]:
        ref = bet["bet"]
        index = index_of.get(ref)
        if index is None or bets[index]["type"] not in kinds:
            wanted = " or ".join(sorted(kinds))
            raise invalid_bet(
                "{type} {id}: {ref!r} is not a {wanted} bet of this round", bet["id"],
                                                                                           params={"type": bet['type'], "id": bet['id'], "ref": ref, "wanted": wanted}
            )
        return ref, index

    for bet in bets:
        if bet["type"] not in _SEAT_BETS:
            continue
        bet_id, seat = bet["id"], bet["seat"]
        hands = seats.get(seat)
        if hands is None:
            raise invalid_bet("seat {seat} was not dealt in this round", bet_id,
                                                                          params={"seat": seat})
        if bet["type"] == "main":
            if seat in mains:
                raise invalid_bet("seat {seat} already has its main bet {mains}", bet_id,
                                                                                         params={"seat": seat, "mains": mains[seat]})
            mains[seat] = bet_id
        if bet.get("even_money", False) and not (ace_up and hands[0]["blackjack"]):
            raise invalid_bet("even money only on a blackjack against an ace (n.º 34)", bet_id)
        place[bet_id] = (seat, 1)
    for seat in seats:
        if seat not in mains:
            raise invalid_bet("seat {seat} was dealt but has no main bet (n.os 13, 16)",
                              params={"seat": seat})
    for index, bet in enumerate(bets):
        if bet["type"] != "split":
            continue
        bet_id = bet["id"]
        ref, ref_index = referenced(bet, _SEAT_BETS)
        seat = bets[ref_index]["seat"]
        hand = bet["hand"]
        if hand > len(seats[seat]):
            raise invalid_bet("seat {seat} has no hand {hand}", bet_id,
                                                                 params={"seat": seat, "hand": hand})
        if stakes[index] != stakes[ref_index]:
            raise invalid_bet("a split stake must equal the stake of {ref} (n.os 26, 28)", bet_id,
                                                                                            params={"ref": ref})
        if (ref, hand) in splits:
            raise invalid_bet("{ref} already has a split stake on hand {hand}", bet_id,
                                                                                 params={"ref": ref, "hand": hand})
        splits[ref, hand] = bet_id
        place[bet_id] = (seat, hand)
    for index, bet in enumerate(bets):
        kind = bet["type"]
        if kind == "double":
            bet_id = bet["id"]
            ref, ref_index = referenced(bet, _STAKES_ON_A_HAND)
            seat, hand = place[ref]
            if not seats[seat][hand - 1]["double"]:
                raise invalid_bet("seat {seat} hand {hand} was not doubled", bet_id,
                                                                              params={"seat": seat, "hand": hand})
            if stakes[index] != stakes[ref_index]:
                raise invalid_bet(
                    "a double must equal the stake it doubles, {ref} (n.os 29, 30)", bet_id,
                                                                                      params={"ref": ref}
                )
            if ref in doubles:
                raise invalid_bet("{ref} is already doubled by {doubles}", bet_id,
                                                                                 params={"ref": ref, "doubles": doubles[ref]})
            doubles[ref] = bet_id
            place[bet_id] = (seat, hand)
        elif kind == "insurance":
            bet_id = bet["id"]
            ref, ref_index = referenced(bet, _SEAT_BETS)
            if not ace_up:
                raise invalid_bet(
                    "insurance only when the bank's up card is an ace (n.º 33)", bet_id
                )
            if stakes[index] * 2 > stakes[ref_index]:
                raise invalid_bet("insurance may not exceed half of {ref} (n.º 33)", bet_id,
                                                                                      params={"ref": ref})
            if bets[ref_index].get("even_money", False):
                raise invalid_bet(
                    "{ref} took even money; it cannot be insured as well (n.º 34)", bet_id,
                                                                                     params={"ref": ref}
                )
            if ref in insured:
                raise invalid_bet("{ref} is already insured by {insured}", bet_id,
                                                                                 params={"ref": ref, "insured": insured[ref]})
            insured[ref] = bet_id
    # REG-BJ-2 (n.º 15): "se o titular do lugar fizer «seguro» da sua aposta, os donos das apostas
    # complementares são livres de o fazer, ou não": a back bet may be insured only with the main.
    for ref, bet_id in insured.items():
        ref_bet = bets[index_of[ref]]
        if ref_bet["type"] == "back" and mains[ref_bet["seat"]] not in insured:
            raise invalid_bet(
                "back bet {ref} may be insured only when the seat holder insures (n.º 15)", bet_id,
                                                                                             params={"ref": ref}
            )
    # The holder plays every hand of the seat: a stake on each split hand, a double on each double.
    for seat, hands in seats.items():
        main = mains[seat]
        for number, hand in enumerate(hands, 1):
            holder_stake = main if number == 1 else splits.get((main, number))
            if holder_stake is None:
                raise invalid_bet(
                    "seat {seat} split: the holder has no stake on hand {number} (n.º 26)", main,
                                                                                             params={"seat": seat, "number": number}
                )
            if hand["double"] and holder_stake not in doubles:
                raise invalid_bet(
                    "seat {seat} hand {number} was doubled but the holder's double is missing (n.º 29)",
                    main, params={"seat": seat, "number": number},
                )

    upcard_blackjack = dealer["blackjack"]
    results: list[dict[str, Any]] = []
    for bet, stake in zip(bets, stakes, strict=True):
        kind, bet_id = bet["type"], bet["id"]
        if kind == "insurance":
            if upcard_blackjack:
                results.append(won(bet_id, stake, stake * _TWO))  # n.º 33: ganhará o dobro
            else:
                results.append(lost(bet_id, stake))
            continue
        if kind in _SEAT_BETS and bet.get("even_money", False):
            results.append(won(bet_id, stake, stake))  # n.º 34: valor igual à sua aposta
            continue
        seat, number = place[bet_id]
        results.append(_stake_line(bet_id, stake, seats[seat][number - 1], kind != "double"))
    return results


GAME = register(GameFunctions(CODE, check_options, check_outcome, check_bet, settle_bets))
