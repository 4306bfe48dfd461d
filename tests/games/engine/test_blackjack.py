"""Blackjack/21 (Portaria 217/2007, Cap. III, Secção I): totals, the bank's rule, decisions, bets.

Settlement examples live in ``cases/blackjack.jsonl`` (run by ``test_golden_cases.py``); these
tests pin the pure helpers the platform calls before an outcome exists, and check that settle
uses the same rules.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import check_bet, settle
from games.engine.blackjack import (
    allowed_decisions,
    dealer_must_hit,
    dealer_total,
    hand_total,
    is_blackjack,
    is_bonus,
)
from games.engine.errors import RoundError

# --- totals (n.os 6, 32) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        (["AS", "KD"], 21, True),
        (["AS", "6D"], 17, True),
        (["AS", "AD"], 12, True),
        (["AS", "AD", "AH"], 13, True),
        (["AS", "5D", "TC"], 16, False),
        (["AS", "5D", "5C"], 21, True),
        (["TS", "6D", "8C"], 24, False),  # bust: the sum, aces 1
        (["AS", "TD", "KC"], 21, False),
        (["9S", "2C", "TH"], 21, False),
        (["5S", "6D"], 11, False),
    ],
)
def test_player_total(cards: list[str], total: int, soft: bool) -> None:
    assert hand_total(cards) == (total, soft)


def test_doubled_hand_keeps_its_first_ace_at_one() -> None:
    # n.º 32: A-8 doubled + 2 is 11, not 21; A-9 doubled + A is 21 through the second ace.
    assert hand_total(["AH", "8C", "2D"], doubled=True) == (11, False)
    assert hand_total(["AH", "8C", "2D"]) == (21, True)
    assert hand_total(["AH", "9C", "AD"], doubled=True) == (21, True)
    assert hand_total(["5H", "4C", "AD"], doubled=True) == (20, True)


@pytest.mark.parametrize(
    ("cards", "total", "must_hit"),
    [
        (["AS", "6D"], 17, False),  # n.º 6 a: soft 17 stands
        (["AS", "5D"], 6, True),  # A-5 is 6
        (["AS", "5D", "AC"], 17, False),
        (["AS", "5D", "TC"], 16, True),
        (["TS", "6D"], 16, True),
        (["TS", "7D"], 17, False),  # n.º 19
        (["AS", "AD", "5C"], 17, False),
        (["TS", "6D", "8C"], 24, False),
        (["AS", "KD"], 21, False),
    ],
)
def test_bank_total_and_drawing(cards: list[str], total: int, must_hit: bool) -> None:
    assert dealer_total(cards) == total
    assert dealer_must_hit(cards, {"decks": 6}) is must_hit


def test_blackjack_is_two_cards_ace_and_ten_never_after_a_split() -> None:
    assert is_blackjack(["AS", "KD"])
    assert is_blackjack(["TD", "AC"])
    assert not is_blackjack(["AS", "KD"], split=True)  # n.º 20
    assert not is_blackjack(["AS", "5D", "5C"])
    assert not is_blackjack(["AS", "9D"])


def test_bonus_hands() -> None:
    # n.º 35: 6-7-8 of one suit in any order, or three 7s of any suits.
    assert is_bonus(["8H", "6H", "7H"])
    assert is_bonus(["7S", "7D", "7C"])
    assert not is_bonus(["6H", "7H", "8S"])
    assert not is_bonus(["7S", "7D"])
    assert not is_bonus(["7S", "7D", "AC", "6H"])


# --- decisions ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "upcard", "allowed"),
    [
        ({"cards": ["TS", "6D"]}, "9H", {"hit", "stand", "surrender"}),
        ({"cards": ["TS", "6D"]}, "AH", {"hit", "stand", "insurance"}),  # n.os 33, 36
        ({"cards": ["5S", "6D"]}, "9H", {"hit", "double", "surrender"}),  # n.º 18: no stand on 11
        ({"cards": ["5S", "4D"]}, "9H", {"hit", "double", "surrender"}),
        ({"cards": ["5S", "3D"]}, "9H", {"hit", "surrender"}),
        (
            {"cards": ["AS", "8D"]},
            "9H",
            {"hit", "stand", "double", "surrender"},
        ),  # n.º 32: A-8 is 9
        ({"cards": ["AS", "7D"]}, "9H", {"hit", "stand", "surrender"}),
        ({"cards": ["8S", "8D"]}, "9H", {"hit", "stand", "split", "surrender"}),
        (
            {"cards": ["KS", "QD"]},
            "9H",
            {"hit", "stand", "split", "surrender"},
        ),  # BJ-4; 20 < 21 may hit
        ({"cards": ["AS", "AD"]}, "9H", {"hit", "stand", "split", "surrender"}),
        ({"cards": ["AS", "KD"]}, "9H", set()),  # n.º 21: paid at once
        ({"cards": ["AS", "KD"]}, "AH", {"insurance", "even_money"}),  # n.os 33, 34
        ({"cards": ["TS", "5D", "6C"]}, "9H", {"stand"}),  # n.º 18: nothing more at 21
        ({"cards": ["TS", "5D", "9C"]}, "9H", set()),  # bust
        ({"cards": ["TS", "2D", "3C"]}, "AH", {"hit", "stand"}),
        ({"cards": ["5S", "6D"], "split": True}, "9H", {"hit", "double"}),  # n.º 31
        ({"cards": ["TS", "AD"], "split": True}, "9H", {"stand"}),  # n.os 18, 20, 32 (REG-BJ-1)
        ({"cards": ["AS", "9D"], "split": True}, "9H", set()),  # n.º 26: split aces, one card
        # n.º 27 «poderá voltar a fazê-lo», BJ-5: resplit or keep the ace (n.º 26: no hit)
        ({"cards": ["AS", "AD"], "split": True}, "9H", {"split", "stand"}),
        ({"cards": ["AS", "AD"], "split": True}, "AH", {"split", "stand"}),
        ({"cards": ["AS"], "split": True}, "9H", set()),
        ({"cards": ["5S", "6D"], "double": True}, "9H", set()),  # waiting for the one card
        ({"cards": ["5S", "6D", "2C"], "double": True}, "9H", set()),
    ],
)
def test_allowed_decisions(hand: dict[str, Any], upcard: str, allowed: set[str]) -> None:
    assert allowed_decisions(hand, upcard, {"decks": 6}) == allowed


def test_allowed_decisions_rejects_non_cards() -> None:
    with pytest.raises(RoundError):
        allowed_decisions({"cards": ["TS", "6X"]}, "9H")


# --- settle uses the same rules ------------------------------------------------------------------


def _round(
    dealer: list[str], hands: list[dict[str, Any]], bets: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "game": "blackjack",
        "outcome": {"dealer": {"cards": dealer}, "seats": [{"seat": 1, "hands": hands}]},
        "bets": bets,
    }


MAIN = {"id": "m", "type": "main", "seat": 1, "amount": "10"}


@pytest.mark.parametrize(
    ("cards", "valid"),
    [
        (["TS", "2D"], True),  # 12 may stand (n.º 18)
        (["5S", "6D"], False),  # 11 may not
        (["5S", "6D", "TC"], True),
        (["TS", "6D", "5C", "2C"], False),  # a card at 21
        (["AS", "5D", "5C"], True),
        (["AS", "AD"], True),
        (["TS", "6D", "8C"], True),  # bust
        (["TS", "5D", "9C", "2C"], False),  # a card after busting
    ],
)
def test_settle_accepts_exactly_the_hands_the_decisions_allow(
    cards: list[str], valid: bool
) -> None:
    """A hand is valid when every card was taken with "hit" allowed and it ended standing or bust."""
    walk_ok = all(
        "hit" in allowed_decisions({"cards": cards[:k]}, "9H") for k in range(2, len(cards))
    )
    end = allowed_decisions({"cards": cards}, "9H")
    total, _soft = hand_total(cards)
    assert (walk_ok and ("stand" in end or total > 21)) is valid
    result = settle(_round(["9H", "8D"], [{"cards": cards}], [MAIN]))
    assert ("error" not in result) is valid, result


def test_placement_check_of_one_bet() -> None:
    assert check_bet("blackjack", {}, MAIN) == {"decks": 6, "jackpot": None}
    check_bet(
        "blackjack",
        {"decks": 4},
        {"id": "s", "type": "split", "bet": "m", "hand": 2, "amount": "10"},
    )
    for bad in [
        {"id": "m", "type": "main", "seat": 8, "amount": "10"},
        {"id": "m", "type": "main", "seat": True, "amount": "10"},
        {"id": "m", "type": "main", "amount": "10"},
        {"id": "m", "type": "main", "seat": 1, "amount": "10", "even_mony": True},
        {"id": "s", "type": "split", "bet": "m", "hand": 1, "amount": "10"},
        {"id": "s", "type": "split", "bet": 3, "hand": 2, "amount": "10"},
        {"id": "d", "type": "double", "amount": "10"},
        {"id": "j", "type": "jackpot", "seat": 1, "amount": "1"},
    ]:
        with pytest.raises(RoundError) as raised:
            check_bet("blackjack", {}, bad)
        assert raised.value.code == "invalid_bet"
        assert raised.value.bet == bad["id"]


def test_results_come_back_in_input_order_with_exactly_the_contract_fields() -> None:
    round_ = _round(
        ["AS", "KH"],
        [{"cards": ["8S", "3D", "TC"], "double": True}, {"cards": ["8H", "9C"]}],
        [
            {"id": "i", "type": "insurance", "bet": "m", "amount": "5"},
            {"id": "d", "type": "double", "bet": "m", "amount": "10"},
            {"id": "s", "type": "split", "bet": "m", "hand": 2, "amount": "10"},
            MAIN,
        ],
    )
    result = settle(round_)
    assert [line["id"] for line in result["bets"]] == ["i", "d", "s", "m"]
    assert all(
        list(line) == ["id", "status", "stake", "win", "returned"] for line in result["bets"]
    )
