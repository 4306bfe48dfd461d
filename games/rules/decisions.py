"""The deal and the decisions of the hand in play, with the stakes a decision takes.

Blackjack: the deal gives the bank its up card and two cards to each seat with a stake (n.º 17);
then each decision is checked against the hand as it stands (``games.play``) and the rules
engine (``games.engine.blackjack.allowed_decisions``). Split and double take a stake equal to
the one on the hand, for the seat holder and the back bets that follow (n.os 28, 30); insurance
at most half the bet (n.º 33). Stud poker: a box calls (a stake of twice the ante) or folds, once
(n.º 17).

Pure: the round travels as its ``play`` and its bets (``BetView``); a refusal is a ``RuleError``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from games import play
from games.engine import blackjack as bj
from games.rules.bets import BetView, next_id
from games.rules.errors import Phrase, conflict, invalid
from games.rules.money import cents_down, fmt, parse_amount

# A decision as a refusal says it: the words of the pit's buttons (``games.web.hands``), never
# the code (issue 36).
DECISION_WORDS = {"hit": "Hit", "stand": "Stand", "double": "Double", "split": "Split",
                  "surrender": "Surrender", "insurance": "Insurance", "even_money": "Even money"}


def decision_words(decision: str) -> Phrase:
    return Phrase(DECISION_WORDS.get(decision, decision), "blackjack decision")


_CARD = re.compile(r"^[A23456789TJQK][SHDC]$")


def check_cards(cards: object, count: int | None, field: str) -> list[str]:
    """``count`` cards (any number if None) written as rank and suit, ``"AS"``, ``"TD"``."""
    if not isinstance(cards, list) or (count is not None and len(cards) != count) or not all(
            isinstance(c, str) and _CARD.match(c) for c in cards):
        want = f"{count} card(s)" if count is not None else "cards"
        raise invalid("{field}: {want} such as \"AS\" or \"TD\"",
                      params={"field": field, "want": want}, code="invalid_outcome",
                      field=field)
    return list(cards)


def check_deal(hands: play.Play, upcard: str, seats: object, bets: list[BetView]
               ) -> dict[str, list[str]]:
    """Blackjack's deal: once, to exactly the seats with a holder's stake; the cards by seat."""
    if hands.get("seats"):
        raise conflict("the deal is already recorded", code="already_dealt")
    check_cards([upcard], 1, "upcard")
    if not isinstance(seats, dict):
        raise invalid("seats map each seat to its two cards", field="seats")
    staked = {str(b.seat) for b in bets if b.bet_type == "main"}
    dealt = {str(k) for k in seats}
    if dealt != staked:
        raise invalid("deal to the seats with a stake: {staked}",
                      params={"staked": ', '.join(sorted(staked))},
                      field="seats")
    return {str(k): check_cards(v, 2, f"seat {k}") for k, v in seats.items()}


def decide(game: str, hands: play.Play, bets: list[BetView], *, seat: int, hand: int,
           decision: str, cards: list[str], bet_id: str | None, amount: object,
           followers: Sequence[str]) -> tuple[int, list[BetView]]:
    """A decision of the hand in play: the hand it is recorded on, and the stakes it takes."""
    used = {b.bet_id for b in bets}
    if game == "stud_poker":
        return 1, stud_poker_decision(hands, bets, used, seat, decision)
    if game == "blackjack":
        return hand, blackjack_decision(hands, bets, used, seat, hand, decision, cards, bet_id,
                                        amount, followers)
    raise invalid("{game} has no decisions of the hand", params={"game": game}, field="decision")


def stud_poker_decision(hands: play.Play, bets: list[BetView], used: set[str], seat: int,
                        decision: str) -> list[BetView]:
    """n.º 17: a box with an ante calls or folds, irreversibly; the call is twice the ante."""
    if decision not in ("call", "fold"):
        raise invalid("at stud poker a box calls or folds (n.º 17)", field="decision")
    ante = next((b for b in bets if b.bet_type == "ante" and b.seat == seat), None)
    if ante is None:
        raise invalid("box {seat} has no ante",
                      params={"seat": seat}, code="no_such_seat", field="seat")
    if str(seat) in hands.get("decisions", {}):
        raise conflict("box {seat} already decided (the decision is irreversible, n.º 17)",
                       params={"seat": seat},
                       code="already_decided")
    if decision != "call":
        return []
    call_id = next_id(used)
    return [BetView(bet_id=call_id, seat=seat, player=ante.player, bet_type="call",
                    amount=ante.amount * 2, stage="decision",
                    bet={"id": call_id, "type": "call", "seat": seat,
                         "amount": fmt(ante.amount * 2)})]


def stake_on_hand(bets: list[BetView], owner: BetView, key: str, seat: int) -> BetView | None:
    """The stake ``owner`` (a main or back bet) has on the hand ``key``."""
    if key == str(seat):
        return owner
    return next((b for b in bets if b.bet_type == "split" and b.bet.get("bet") == owner.bet_id
                 and b.hand_key == key), None)


def blackjack_decision(hands: play.Play, bets: list[BetView], used: set[str], seat: int,
                       hand: int, decision: str, cards: list[str], bet_id: str | None,
                       amount: object, followers: Sequence[str]) -> list[BetView]:
    """The stakes a blackjack decision takes (none for hit, stand, surrender, even money)."""
    if not hands.get("seats"):
        raise conflict("record the deal first", code="not_dealt")
    current = play.hand_of(hands, seat, hand)
    if current is None:
        raise invalid("seat {seat} has no hand {hand}",
                      params={"seat": seat, "hand": hand}, code="no_such_seat", field="hand")
    if current["done"] and decision not in ("insurance", "even_money"):
        raise conflict("hand {hand} of seat {seat} is finished",
                       params={"hand": hand, "seat": seat}, code="hand_finished")
    if decision not in bj.DECISIONS:
        raise invalid("{decision!r} is not a blackjack decision",
                      params={"decision": decision}, field="decision")
    allowed = bj.allowed_decisions({"cards": current["cards"], "split": current["split"],
                                    "double": current["double"]}, hands["upcard"])
    if decision not in allowed:
        raise conflict("{decision} is not allowed on this hand now ({cards} against {upcard})",
                       params={"decision": decision_words(decision),
                               "cards": " ".join(current["cards"]), "upcard": hands["upcard"]},
                       code="decision_not_allowed", allowed=sorted(allowed))
    need = {"hit": 1, "double": 1, "split": 2}.get(decision, 0)
    check_cards(cards, need, "cards")
    holder = next(b for b in bets if b.seat == seat and b.bet_type == "main")
    backs = {b.bet_id: b for b in bets if b.seat == seat and b.bet_type == "back"}
    for follower in followers:
        if follower not in backs:
            raise invalid("{follower!r} is not a back bet on seat {seat}",
                          params={"follower": follower, "seat": seat}, field="followers")
    new: list[BetView] = []

    def add(owner: BetView, kind: str, stake_amount: Decimal, fields: dict[str, Any],
            hand_key: str | None = None) -> None:
        new_id = next_id(used)
        used.add(new_id)
        new.append(BetView(bet_id=new_id, seat=seat, player=owner.player, bet_type=kind,
                           amount=stake_amount, stage="decision", hand_key=hand_key,
                           bet={"id": new_id, "type": kind, "amount": fmt(stake_amount)} | fields))

    if decision == "split":
        after = play.apply_decision(hands, seat, hand, "split", cards)
        new_key = after["seats"][str(seat)][hand]["key"]
        for owner in [holder, *(backs[f] for f in followers)]:
            if stake_on_hand(bets, owner, current["key"], seat) is None:
                raise invalid("{bet_id} is not on this hand",
                              params={"bet_id": owner.bet_id}, field="followers")
            add(owner, "split", owner.amount, {"bet": owner.bet_id, "hand": hand + 1}, new_key)
    elif decision == "double":
        for owner in [holder, *(backs[f] for f in followers)]:
            stake = stake_on_hand(bets, owner, current["key"], seat)
            if stake is None:
                raise invalid("{bet_id} has no stake on this hand",
                              params={"bet_id": owner.bet_id}, field="followers")
            add(owner, "double", stake.amount, {"bet": stake.bet_id})
    elif decision in ("insurance", "even_money"):
        owner_bet = backs.get(bet_id or "") or (holder if bet_id == holder.bet_id else None)
        if owner_bet is None:
            raise invalid("name the main or back bet of seat {seat} that takes {decision}",
                          params={"seat": seat, "decision": decision_words(decision)},
                          field="bet_id")
        if any(b.bet.get("bet") == owner_bet.bet_id for b in bets if b.bet_type == "insurance") \
                or owner_bet.bet.get("even_money"):
            raise conflict("{bet_id} already took insurance or even money",
                           params={"bet_id": owner_bet.bet_id},
                           code="already_decided")
        if decision == "insurance":
            if owner_bet.bet_type == "back" and not any(
                    b.bet_type == "insurance" and b.bet.get("bet") == holder.bet_id for b in bets):
                raise conflict("a back bettor insures only when the seat holder insured "
                               "(Portaria 217/2007, blackjack, n.º 15)",
                               code="decision_not_allowed")
            half = cents_down(owner_bet.amount / 2)
            value = half if amount is None else parse_amount(amount)
            if value > half:
                raise invalid("insurance is at most half the bet: {half} (n.º 33)",
                              params={"half": half},
                              code="over_limit", article="Portaria 217/2007, blackjack, n.º 33")
            add(owner_bet, "insurance", value, {"bet": owner_bet.bet_id})
    return new
