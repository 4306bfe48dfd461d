"""Póquer sem descarte (``stud_poker``, Caribbean stud): seeded simulation, per ante.

Every round deals ten cards of one fresh 52-card deck from a ``random.Random(seed)``: five to the
player, five to the bank, the bank's last card face up (n.º 16). The player calls or folds by
:data:`STRATEGY_TEXT`, ranking his own hand with the engine's ``rank_poker_hand``; the round (the
ante and, on a call, the call of twice the ante) is settled by the engine. The house edge is the
mean loss per ante, call included, with a 95 % confidence interval from the sample variance.
"""

from __future__ import annotations

import random

from games.engine.cards import POKER_RANK, RANKS, SUITS, rank_poker_hand
from games.engine.math.core import UNIT, UNIT_TEXT, Figure, Sample, net_cents, settle_round

GAME = "stud_poker"

STRATEGY_TEXT = """\
Call/fold strategy (a simplification of the optimal strategy, close to it; the figure is for
exactly this strategy):
1. Call with any pair or better.
2. Fold with less than ace-king high (no pair and not both an ace and a king).
3. With ace-king high and no pair, call if any of these holds, else fold:
   a. the bank's up card is 2 to Q and has the rank of one of the player's cards;
   b. the bank's up card is an A or a K and the player holds a Q or a J;
   c. the bank's up card has the rank of none of the player's cards, the player holds a Q, and
      the up card is lower than the player's fourth-highest card.
"""

_ACE, _KING, _QUEEN, _JACK = 14, 13, 12, 11
DECK = [rank + suit for rank in RANKS for suit in SUITS]


def decide(player: list[str], upcard: str) -> str:
    """``"call"`` or ``"fold"`` by :data:`STRATEGY_TEXT`."""
    category, _ = rank_poker_hand(player)
    if category != "high_card":
        return "call"
    ranks = sorted((POKER_RANK[card] for card in player), reverse=True)
    if ranks[0] != _ACE or ranks[1] != _KING:
        return "fold"
    up = POKER_RANK[upcard]
    matches = up in ranks
    if matches and up <= _QUEEN:
        return "call"
    if up in (_ACE, _KING) and (_QUEEN in ranks or _JACK in ranks):
        return "call"
    if not matches and _QUEEN in ranks and up < ranks[3]:
        return "call"
    return "fold"


def simulate(rounds: int, seed: int) -> Sample:
    rng = random.Random(seed)
    sample = Sample()
    call_amount = str(UNIT * 2)
    for _ in range(rounds):
        cards = rng.sample(DECK, 10)
        player, dealer = cards[:5], cards[5:]
        decision = decide(player, dealer[4])
        bets = [{"id": "a", "type": "ante", "seat": 1, "amount": UNIT_TEXT}]
        if decision == "call":
            bets.append({"id": "c", "type": "call", "seat": 1, "amount": call_amount})
        outcome = {
            "dealer": {"cards": dealer},
            "seats": [{"seat": 1, "cards": player, "decision": decision}],
        }
        result = settle_round(GAME, {}, outcome, bets)
        sample.add(sum(net_cents(line) for line in result["bets"]))
    return sample


def figures(rounds: int, seed: int) -> list[Figure]:
    sample = simulate(rounds, seed)
    return [
        sample.figure(GAME, {}, {"type": "ante"}, seed, "call/fold strategy (docs/game-math.md)")
    ]
