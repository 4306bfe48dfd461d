"""Blackjack/21 (``blackjack``): the main bet by seeded simulation under a documented basic
strategy; insurance exact.

Main (and back) bet — simulation
    Every round is dealt from a full shoe of ``decks`` decks, freshly shuffled (as the automatic
    shuffler of Subsecção III does; a hand-dealt shoe with a cut card differs slightly: the cut-card
    effect), by a ``random.Random(seed)``. The player plays :data:`STRATEGY_TEXT`; every decision
    is checked against the engine's ``allowed_decisions`` and the bank draws by the engine's
    ``dealer_must_hit``; the round (one seat, a ``main`` bet, a ``back`` bet that follows every split
    and double, and the split and double stakes) is settled by the engine. The house edge is the
    mean loss per initial main bet (splits, doubles, surrender, the 3:2 blackjack and the n.º 35
    6-7-8 / 7-7-7 bonus included), with a 95 % confidence interval from the sample variance.

Insurance — exact
    The dealer shows an ace; the player's two cards and the hole card are enumerated by value with
    card removal, each round completed by the rules and settled by the engine. Figure per unit of
    the insurance stake.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.blackjack import (
    DECKS,
    allowed_decisions,
    dealer_must_hit,
    hand_total,
    is_blackjack,
)
from games.engine.cards import BLACKJACK_VALUE, RANKS, SUITS
from games.engine.math.core import (
    UNIT,
    UNIT_TEXT,
    Figure,
    Sample,
    collapse_options,
    integer_moments,
    net_cents,
    settle_round,
)

GAME = "blackjack"

STRATEGY_TEXT = """\
Basic strategy for these rules (no hole-card peek: a bank blackjack takes doubles and splits; bank
stands on soft 17; doubles on hard 9-11 only, after splits too; any pair may be split and resplit;
surrender of the first two cards, not against an ace; a player stands only above 11). Up card:
2-10 or A. Decisions not allowed by the engine at that point fall back to hit, then stand.
- Pairs: A-A split against 2-10, hit against A (split aces dealt an ace are split again);
  10-10 stand; 9-9 split against 2-6, 8, 9, else stand; 8-8 split against 2-9, surrender
  against 10, hit against A; 7-7 split against 2-7, surrender against 10, else hit;
  6-6 split against 2-6, else hit; 5-5 as hard 10; 4-4 split against 5-6, else hit;
  3-3 and 2-2 split against 2-7, else hit.
- Surrender: hard 14, 15, 16 against 10.
- Hard totals: 5-8 hit; 9 double against 3-6, else hit; 10 double against 2-9, else hit;
  11 double against 2-9, else hit (never against 10 or A: a bank blackjack takes the double);
  12 stand against 4-6, else hit; 13-16 stand against 2-6, else hit; 17-21 stand.
- Soft totals (never doubled: A-8 and A-9 may double only as hard 9 and 10, n.º 32):
  soft 12-17 hit; soft 18 stand against 2-8, hit against 9, 10, A; soft 19-21 stand.
- Never insurance, never even money. The n.º 35 bonus does not change any decision.
"""


def _up(upcard: str) -> int:
    """The up card as 2..10, 11 for an ace."""
    value = BLACKJACK_VALUE[upcard]
    return 11 if value == 1 else value


def decide(cards: list[str], split: bool, upcard: str) -> str:
    """The basic-strategy decision for a hand (see :data:`STRATEGY_TEXT`)."""
    allowed = allowed_decisions({"cards": cards, "split": split}, upcard)
    choice = _wanted(cards, upcard, allowed)
    if choice in allowed:
        return choice
    return "hit" if "hit" in allowed else "stand"


def _wanted(cards: list[str], upcard: str, allowed: set[str]) -> str:
    up = _up(upcard)
    if "split" in allowed:
        pair = BLACKJACK_VALUE[cards[0]]
        if pair == 1:
            return "split" if up != 11 else "hit"
        split_against = {
            9: (2, 3, 4, 5, 6, 8, 9),
            8: (2, 3, 4, 5, 6, 7, 8, 9),
            7: (2, 3, 4, 5, 6, 7),
            6: (2, 3, 4, 5, 6),
            4: (5, 6),
            3: (2, 3, 4, 5, 6, 7),
            2: (2, 3, 4, 5, 6, 7),
        }.get(pair, ())
        if up in split_against:
            return "split"
    total, soft = hand_total(cards)
    if "surrender" in allowed and up == 10 and not soft and 14 <= total <= 16:
        return "surrender"
    if soft:
        if total >= 19 or (total == 18 and up <= 8):
            return "stand"
        return "hit"
    if total <= 8:
        return "hit"
    if total == 9:
        return "double" if 3 <= up <= 6 else "hit"
    if total in (10, 11):
        return "double" if up <= 9 else "hit"
    if total == 12:
        return "stand" if 4 <= up <= 6 else "hit"
    if total <= 16:
        return "stand" if up <= 6 else "hit"
    return "stand"


class _Shoe:
    """A full shoe, each round dealt from a fresh shuffle (partial Fisher-Yates per card)."""

    def __init__(self, decks: int, rng: random.Random) -> None:
        self.cards = [rank + suit for rank in RANKS for suit in SUITS] * decks
        self.rng = rng
        self.dealt = 0

    def new_round(self) -> None:
        self.dealt = 0  # the cards are still a full shoe in some order: shuffle as we deal

    def deal(self) -> str:
        cards, i = self.cards, self.dealt
        j = i + int(self.rng.random() * (len(cards) - i))
        cards[i], cards[j] = cards[j], cards[i]
        self.dealt = i + 1
        return cards[i]


def play_round(shoe: _Shoe) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Deal and play one round by the strategy; the outcome and the bets to settle."""
    shoe.new_round()
    first, upcard, second, hole = shoe.deal(), shoe.deal(), shoe.deal(), shoe.deal()
    hands: list[dict[str, Any]] = [{"cards": [first, second]}]
    split = False
    if not is_blackjack(hands[0]["cards"]):
        i = 0
        while i < len(hands):
            hand = hands[i]
            cards = hand["cards"]
            if len(cards) == 1:
                cards.append(shoe.deal())
            while True:
                choice = decide(cards, split, upcard) if cards else "stand"
                if choice == "split":
                    split = True
                    hands.insert(i + 1, {"cards": [cards.pop()]})
                    cards.append(shoe.deal())
                    continue
                if choice == "double":
                    hand["double"] = True
                    cards.append(shoe.deal())
                elif choice == "surrender":
                    hand["surrender"] = True
                elif choice == "hit":
                    cards.append(shoe.deal())
                    continue
                break
            i += 1
    dealer = [upcard, hole]
    in_play = any(
        not hand.get("surrender")
        and not (len(hands) == 1 and is_blackjack(hand["cards"]))
        and hand_total(hand["cards"], doubled=hand.get("double", False))[0] <= 21
        for hand in hands
    )
    if in_play:
        while dealer_must_hit(dealer):
            dealer.append(shoe.deal())
    bets: list[dict[str, Any]] = [
        {"id": "m", "type": "main", "seat": 1, "amount": UNIT_TEXT},
        {"id": "b", "type": "back", "seat": 1, "amount": UNIT_TEXT},
    ]
    for k, hand in enumerate(hands, 1):
        if k > 1:
            bets.append(
                {"id": f"m{k}", "type": "split", "bet": "m", "hand": k, "amount": UNIT_TEXT}
            )
            bets.append(
                {"id": f"b{k}", "type": "split", "bet": "b", "hand": k, "amount": UNIT_TEXT}
            )
        if hand.get("double"):
            for owner in ("m", "b"):
                stake = owner if k == 1 else f"{owner}{k}"
                bets.append(
                    {"id": f"d{stake}", "type": "double", "bet": stake, "amount": UNIT_TEXT}
                )
    outcome = {"dealer": {"cards": dealer}, "seats": [{"seat": 1, "hands": hands}]}
    return outcome, bets


def simulate(decks: int, rounds: int, seed: int) -> tuple[Sample, Sample]:
    """(main, back) samples of ``rounds`` rounds dealt from ``random.Random(seed)``."""
    rng = random.Random(seed)
    shoe = _Shoe(decks, rng)
    options = {"decks": decks}
    main, back = Sample(), Sample()
    for _ in range(rounds):
        outcome, bets = play_round(shoe)
        result = settle_round(GAME, options, outcome, bets)
        mine = theirs = 0
        for line in result["bets"]:
            net = net_cents(line)
            if line["id"].startswith("b") or line["id"].startswith("db"):
                theirs += net
            else:
                mine += net
        main.add(mine)
        back.add(theirs)
    return main, back


# --- insurance, exact ----------------------------------------------------------------------------

_TENS = [rank + suit for rank in "TJQK" for suit in SUITS]  # 16 distinct ten-value cards
_RANK_OF_VALUE = {1: "A", **{v: str(v) for v in range(2, 10)}}


def insurance_figure(decks: int) -> Figure:
    """Insurance with an ace up, exact (module docstring)."""
    counts = {v: 4 * decks for v in range(1, 10)} | {10: 16 * decks}
    tens = iter(_TENS * 2)
    suits = iter(SUITS * 8)

    def card(value: int) -> str:
        return next(tens) if value == 10 else _RANK_OF_VALUE[value] + next(suits)

    options = {"decks": decks}
    stake = UNIT / 2  # at most half the main bet (n.º 33)
    bets: list[dict[str, Any]] = [
        {"id": "m", "type": "main", "seat": 1, "amount": UNIT_TEXT},
        {"id": "i", "type": "insurance", "bet": "m", "amount": str(stake)},
    ]
    s0 = s1 = s2 = 0
    counts[1] -= 1  # the up card is an ace
    for a in range(1, 11):
        for b in range(1, 11):
            for h in range(1, 11):
                left = dict(counts)
                weight = 1
                for v in (a, b, h):
                    weight *= left[v]
                    left[v] -= 1
                tens = iter(_TENS * 2)
                suits = iter(SUITS * 8)
                player = [card(a), card(b)]
                dealer = ["AC", card(h)]
                blackjack = is_blackjack(player)
                if not blackjack and hand_total(player)[0] <= 11:
                    player.append(card(10))  # a player stands only above 11 (n.º 18)
                if not blackjack:
                    while dealer_must_hit(dealer):
                        dealer.append(card(10))
                outcome = {
                    "dealer": {"cards": dealer},
                    "seats": [{"seat": 1, "hands": [{"cards": player}]}],
                }
                line = settle_round(GAME, options, outcome, bets)["bets"][1]
                net = net_cents(line)
                s0 += weight
                s1 += weight * net
                s2 += weight * net * net
    mean, var = integer_moments(s0, s1, s2, int(stake.scaleb(2)))
    return Figure(GAME, options, {"type": "insurance"}, "exact", -mean, var)


def figures(rounds: int, seed: int) -> list[Figure]:
    main_pairs: list[tuple[dict[str, Any], Figure]] = []
    back_pairs: list[tuple[dict[str, Any], Figure]] = []
    insurance_pairs: list[tuple[dict[str, Any], Figure]] = []
    for decks in DECKS:
        options = {"decks": decks}
        main, back = simulate(decks, rounds, seed)
        note = "basic strategy (docs/game-math.md)"
        main_pairs.append((options, main.figure(GAME, options, {"type": "main"}, seed, note)))
        back_pairs.append((options, back.figure(GAME, options, {"type": "back"}, seed, note)))
        insurance_pairs.append((options, insurance_figure(decks)))
    out: list[Figure] = []
    for pairs in (main_pairs, back_pairs, insurance_pairs):
        out.extend(collapse_options(GAME, pairs))
    return out
