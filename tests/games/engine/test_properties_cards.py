"""Properties of the card games, over randomly dealt rounds (hypothesis).

- Settling is deterministic and does not touch its input.
- ``returned`` is stake + win for ``won``, the stake for ``push``, half the stake rounded down for
  ``half_lost``, 0 for ``lost``; every amount has exactly two decimals.
- Baccarat coups dealt from a shuffled shoe by the tableau (written out again here from
  PB-1 in ``docs/settlement.md``, independently of the engine) are never rejected, and a coup
  with one third card added or taken away is ``invalid_outcome``.
- Blackjack rounds played at random with only the decisions ``allowed_decisions`` offers are
  always accepted (the platform's helper and settle agree).
"""

from __future__ import annotations

import copy
import random
import re
from decimal import ROUND_FLOOR, Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import settle
from games.engine.blackjack import (
    allowed_decisions,
    dealer_must_hit,
    hand_in_play,
    hand_total,
    is_blackjack,
)

RANKS = "A23456789TJQK"
DECK = [rank + suit for rank in RANKS for suit in "SHDC"]
POINTS = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}
AMOUNT = re.compile(r"^[0-9]+\.[0-9]{2}$")
CENT = Decimal("0.01")

# PB-1 (docs/settlement.md § Interpretations), rule 4 (banker total -> player third-card values it
# draws on).
BANKER_DRAWS_ON = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: set(range(10)) - {8},
    4: set(range(2, 8)),
    5: set(range(4, 8)),
    6: {6, 7},
    7: set(),
}

amounts = st.builds(
    lambda cents, style: (
        f"{cents // 100}.{cents % 100:02d}"
        if style == 0
        else f"{cents // 100}"
        if cents % 100 == 0
        else f"{cents // 100}.{cents % 100:02d}".rstrip("0")
    ),
    st.integers(min_value=1, max_value=10**8),
    st.integers(min_value=0, max_value=1),
)


def points(cards: list[str]) -> int:
    return sum(POINTS[card[0]] for card in cards) % 10


def shoe(rnd: random.Random, decks: int) -> list[str]:
    cards = DECK * decks
    rnd.shuffle(cards)
    return cards


def check_money(round_: dict[str, Any]) -> dict[str, Any]:
    """Settle twice, compare, and check every result line's arithmetic."""
    before = copy.deepcopy(round_)
    result = settle(round_)
    assert round_ == before, "settle changed its input"
    assert settle(copy.deepcopy(round_)) == result, "settling is not deterministic"
    assert "error" not in result, result
    assert [line["id"] for line in result["bets"]] == [bet["id"] for bet in round_["bets"]]
    for bet, line in zip(round_["bets"], result["bets"], strict=True):
        assert list(line) == ["id", "status", "stake", "win", "returned"]
        for key in ("stake", "win", "returned"):
            assert AMOUNT.match(line[key]), line
        stake, win, returned = (
            Decimal(line["stake"]),
            Decimal(line["win"]),
            Decimal(line["returned"]),
        )
        assert stake == Decimal(bet["amount"])
        status = line["status"]
        if status == "won":
            assert win >= 0  # 0.01 on the banker, 5% or half off: a prize of 0.00 (rounded down)
            assert returned == stake + win
        elif status == "lost":
            assert (win, returned) == (0, 0)
        elif status == "push":
            assert (win, returned) == (0, stake)
        else:
            assert status == "half_lost"
            assert win == 0
            assert returned == (stake / 2).quantize(CENT, rounding=ROUND_FLOOR)
    return result


# --- baccarat ---------------------------------------------------------------------------------------


def deal_coup(rnd: random.Random, decks: int) -> tuple[list[str], list[str]]:
    """A coup dealt from a shuffled shoe by the tableau: P, B, P, B, then the third cards."""
    cards = shoe(rnd, decks)
    p1, b1, p2_card, b2_card = (
        cards.pop(),
        cards.pop(),
        cards.pop(),
        cards.pop(),
    )  # n.º 13: alternately
    player, banker = [p1, p2_card], [b1, b2_card]
    p2, b2 = points(player), points(banker)
    if p2 >= 8 or b2 >= 8:
        return player, banker
    if p2 <= 5:
        player.append(cards.pop())
        if POINTS[player[2][0]] in BANKER_DRAWS_ON[b2]:
            banker.append(cards.pop())
    elif b2 <= 5:
        banker.append(cards.pop())
    return player, banker


coups = st.tuples(st.randoms(use_true_random=False), st.sampled_from([6, 8])).map(
    lambda a: (deal_coup(a[0], a[1]), a[1])
)
bac_bet_types = st.sampled_from(["player", "banker", "tie", "player_pair", "banker_pair"])


@settings(max_examples=300, deadline=None)
@given(
    coup=coups,
    game=st.sampled_from(["punto_banco", "punto_banco_macau"]),
    deduction=st.sampled_from(["none", "five_percent", "half_on_five"]),
    bets=st.lists(st.tuples(bac_bet_types, amounts), min_size=1, max_size=8),
)
def test_dealt_baccarat_coups_settle(
    coup: tuple[tuple[list[str], list[str]], int],
    game: str,
    deduction: str,
    bets: list[tuple[str, str]],
) -> None:
    (player, banker), decks = coup
    round_ = {
        "game": game,
        "options": {"decks": decks, "banker_deduction": deduction, "pairs": True},
        "outcome": {"player": player, "banker": banker},
        "bets": [
            {"id": f"b{i}", "type": kind, "amount": amount} for i, (kind, amount) in enumerate(bets)
        ],
    }
    result = check_money(round_)
    outcome = result["outcome"]
    pt, bt = points(player), points(banker)
    assert (outcome["player_total"], outcome["banker_total"]) == (pt, bt)
    assert outcome["winner"] == ("player" if pt > bt else "banker" if bt > pt else "tie")
    for (kind, _amount), line in zip(bets, result["bets"], strict=True):
        if kind in ("player", "banker") and outcome["winner"] == "tie":
            assert line["status"] == "push"
        if kind == "player_pair":
            assert (line["status"] == "won") is (player[0][0] == player[1][0])


@settings(max_examples=300, deadline=None)
@given(coup=coups, which=st.sampled_from(["player", "banker"]), extra=st.sampled_from(DECK))
def test_a_coup_with_one_third_card_too_many_or_too_few_is_rejected(
    coup: tuple[tuple[list[str], list[str]], int], which: str, extra: str
) -> None:
    (player, banker), decks = coup
    hands = {"player": list(player), "banker": list(banker)}
    hand = hands[which]
    if len(hand) == 3:
        hand.pop()
    else:
        hand.append(extra)
    result = settle(
        {"game": "punto_banco", "options": {"decks": decks}, "outcome": hands, "bets": []}
    )
    assert result["error"]["code"] == "invalid_outcome", (player, banker, hands)


# --- football poker -----------------------------------------------------------------------------------


@st.composite
def football_rounds(draw: st.DrawFn) -> dict[str, Any]:
    rnd = draw(st.randoms(use_true_random=False))
    decks = draw(st.integers(min_value=6, max_value=9))
    cards = shoe(rnd, decks)
    seats = draw(
        st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=10, unique=True)
    )
    hands = []
    for seat in seats:
        hand = [cards.pop(), cards.pop()]
        if points(hand) in (0, 9):  # terceira carta 1
            hand.append(cards.pop())
        hands.append({"seat": seat, "cards": hand})
    kinds = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["upper", "lower", "even", "odd", "post"]),
                st.sampled_from(seats),
                amounts,
            ),
            max_size=10,
        )
    )
    bets = [{"id": f"b{i}", "type": k, "seat": s, "amount": a} for i, (k, s, a) in enumerate(kinds)]
    return {
        "game": "football_poker",
        "options": {"decks": decks},
        "outcome": {"hands": hands},
        "bets": bets,
    }


@settings(max_examples=300, deadline=None)
@given(round_=football_rounds())
def test_dealt_football_poker_rounds_settle(round_: dict[str, Any]) -> None:
    result = check_money(round_)
    assert [h["seat"] for h in result["outcome"]["hands"]] == sorted(
        h["seat"] for h in round_["outcome"]["hands"]
    )


# --- stud poker -----------------------------------------------------------------------------------------


@st.composite
def stud_rounds(draw: st.DrawFn) -> dict[str, Any]:
    rnd = draw(st.randoms(use_true_random=False))
    cards = shoe(rnd, 1)
    seats = draw(
        st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=7, unique=True)
    )
    out_seats, bets = [], []
    for seat in seats:
        decision = draw(st.sampled_from(["call", "fold"]))
        out_seats.append(
            {"seat": seat, "cards": [cards.pop() for _ in range(5)], "decision": decision}
        )
        ante = draw(amounts)
        bets.append({"id": f"a{seat}", "type": "ante", "seat": seat, "amount": ante})
        if decision == "call":
            bets.append(
                {"id": f"c{seat}", "type": "call", "seat": seat, "amount": str(Decimal(ante) * 2)}
            )
    rnd.shuffle(bets)
    return {
        "game": "stud_poker",
        "outcome": {"dealer": {"cards": [cards.pop() for _ in range(5)]}, "seats": out_seats},
        "bets": bets,
    }


@settings(max_examples=300, deadline=None)
@given(round_=stud_rounds())
def test_dealt_stud_poker_rounds_settle(round_: dict[str, Any]) -> None:
    result = check_money(round_)
    seats = {s["seat"]: s for s in result["outcome"]["seats"]}
    for bet, line in zip(round_["bets"], result["bets"], strict=True):
        played = seats[bet["seat"]]
        if played["result"] == "folded":
            assert line["status"] == "lost"
        if played["result"] == "dealer_not_qualified":
            assert line["status"] == ("won" if bet["type"] == "ante" else "push")
        if bet["type"] == "ante" and line["status"] == "won":
            assert line["win"] == line["stake"]  # n.º 18: antes at even money


# --- blackjack ------------------------------------------------------------------------------------------

PLAY = frozenset({"hit", "stand", "double", "split", "surrender"})


def play_blackjack(
    rnd: random.Random, decks: int, seats: list[int]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Deal and play a round choosing at random among the allowed decisions; bet accordingly."""
    cards = shoe(rnd, decks)
    first = {seat: [cards.pop()] for seat in seats}
    dealer = [cards.pop()]
    for seat in seats:
        first[seat].append(cards.pop())
    dealer.append(cards.pop())
    upcard = dealer[0]
    out_seats, bets, all_hands = [], [], []
    for seat in seats:
        hands: list[dict[str, Any]] = [{"cards": first[seat]}]
        split = False
        index = 0
        while index < len(hands):
            hand = hands[index]
            if len(hand["cards"]) == 1:
                hand["cards"].append(cards.pop())
            while True:
                view = {"cards": hand["cards"], "split": split, "double": hand.get("double", False)}
                allowed = allowed_decisions(view, upcard) & PLAY
                if not allowed:
                    break
                choice = rnd.choice(sorted(allowed))
                if choice == "stand":
                    break
                if choice == "hit":
                    hand["cards"].append(cards.pop())
                elif choice == "double":
                    hand["double"] = True
                    hand["cards"].append(cards.pop())
                    break
                elif choice == "surrender":
                    hand["surrender"] = True
                    break
                else:  # split: the second card starts a new hand right after this one
                    split = True
                    hands.insert(index + 1, {"cards": [hand["cards"].pop()]})
                    hand["cards"].append(cards.pop())
            index += 1
        out_seats.append({"seat": seat, "hands": hands})
        all_hands += [(h, split) for h in hands]
        # Bets: the holder's main, split stakes and doubles; a back bet that may follow or not.
        amount = Decimal(rnd.randint(2, 100_000)) / 100
        main = {"id": f"m{seat}", "type": "main", "seat": seat, "amount": str(amount)}
        bets.append(main)
        blackjack = is_blackjack(hands[0]["cards"], split=split)
        ace_up = upcard[0] == "A"
        if ace_up and blackjack and rnd.random() < 0.5:
            main["even_money"] = True
        elif ace_up and rnd.random() < 0.5:
            bets.append(
                {
                    "id": f"i{seat}",
                    "type": "insurance",
                    "bet": main["id"],
                    "amount": str((amount / 2).quantize(CENT, rounding=ROUND_FLOOR)),
                }
            )
        back = {"id": f"k{seat}", "type": "back", "seat": seat, "amount": "7.25"}
        bets.append(back)
        for number, hand in enumerate(hands, 1):
            stake = main["id"]
            if number > 1:
                stake = f"s{seat}_{number}"
                bets.append(
                    {
                        "id": stake,
                        "type": "split",
                        "bet": main["id"],
                        "hand": number,
                        "amount": main["amount"],
                    }
                )
                if rnd.random() < 0.5:
                    bets.append(
                        {
                            "id": f"t{seat}_{number}",
                            "type": "split",
                            "bet": back["id"],
                            "hand": number,
                            "amount": "7.25",
                        }
                    )
            if hand.get("double"):
                bets.append(
                    {"id": f"d{stake}", "type": "double", "bet": stake, "amount": main["amount"]}
                )
    in_play = False
    for hand, split in all_hands:
        total, _soft = hand_total(hand["cards"], doubled=hand.get("double", False))
        view = {
            "bust": total > 21,
            "surrender": hand.get("surrender", False),
            "blackjack": is_blackjack(hand["cards"], split=split),
        }
        in_play = in_play or hand_in_play(view)
    if in_play:
        while dealer_must_hit(dealer):
            dealer.append(cards.pop())
    return {"dealer": {"cards": dealer}, "seats": out_seats}, bets


@settings(max_examples=400, deadline=None)
@given(
    rnd=st.randoms(use_true_random=False),
    decks=st.sampled_from([4, 6]),
    seats=st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=7, unique=True),
)
def test_blackjack_rounds_played_by_the_allowed_decisions_settle(
    rnd: random.Random, decks: int, seats: list[int]
) -> None:
    outcome, bets = play_blackjack(rnd, decks, seats)
    result = check_money(
        {"game": "blackjack", "options": {"decks": decks}, "outcome": outcome, "bets": bets}
    )
    # Bets on a hand that is doubled settle alike; the double never carries the bonus.
    by_id = {line["id"]: line for line in result["bets"]}
    for bet in bets:
        if bet["type"] == "double":
            assert by_id[bet["id"]]["status"] in ("won", "lost", "push")
