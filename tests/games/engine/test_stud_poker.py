"""Póquer sem descarte (Portaria 217/2007, Cap. III, Secção II): qualification, paytable, bets.

Showdowns and payouts are in ``cases/stud_poker.jsonl``; the ranking itself in ``test_cards.py``.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.engine import check_bet, settle
from games.engine.cards import POKER_CATEGORIES
from games.engine.errors import RoundError
from games.engine.stud_poker import JACKPOT_COMBINATIONS, PAYTABLE, dealer_qualifies


@pytest.mark.parametrize(
    ("cards", "qualifies"),
    [
        (["AS", "KD", "4C", "3H", "2D"], True),  # n.º 18: ás e rei
        (["AS", "QD", "JC", "TH", "8D"], False),
        (["KS", "QD", "JC", "9H", "7D"], False),
        (["2S", "2D", "5C", "8H", "JD"], True),  # any pair
        (["3S", "4D", "5C", "6H", "7D"], True),  # a straight (no ace, no king)
        (["AS", "2D", "3C", "4H", "5D"], True),  # the wheel is a straight
        (["2H", "5H", "7H", "9H", "JH"], True),  # a flush
        (["AS", "KS", "QS", "JS", "9D"], True),  # A-K high
    ],
)
def test_dealer_qualifies(cards: list[str], qualifies: bool) -> None:
    assert dealer_qualifies(cards) is qualifies


def test_paytable_is_n6() -> None:
    # n.º 6 a-j: 100, 50, 20, 7, 5, 4, 3, 2, 1, 1 times the bet.
    assert {
        "royal_flush": Decimal(100),
        "straight_flush": Decimal(50),
        "four_of_a_kind": Decimal(20),
        "full_house": Decimal(7),
        "flush": Decimal(5),
        "straight": Decimal(4),
        "three_of_a_kind": Decimal(3),
        "two_pair": Decimal(2),
        "one_pair": Decimal(1),
        "high_card": Decimal(1),
    } == PAYTABLE
    assert set(PAYTABLE) == set(POKER_CATEGORIES)


def test_jackpot_vocabulary_is_jackpots_md() -> None:
    assert JACKPOT_COMBINATIONS == (
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
        "royal_flush",
    )


def test_placement_check() -> None:
    assert check_bet("stud_poker", {}, {"id": "a", "type": "ante", "seat": 7, "amount": "5"}) == {
        "jackpot": None
    }
    for bad in [
        {"id": "a", "type": "ante", "seat": 0, "amount": "5"},
        {"id": "a", "type": "ante", "amount": "5"},
        {"id": "a", "type": "raise", "seat": 1, "amount": "5"},
        {"id": "a", "type": "call", "seat": 1, "amount": "5", "decision": "call"},
    ]:
        with pytest.raises(RoundError) as raised:
            check_bet("stud_poker", {}, bad)
        assert (raised.value.code, raised.value.bet) == ("invalid_bet", "a")


def test_every_box_settles_on_its_own_showdown() -> None:
    dealer = ["2C", "2D", "7S", "9H", "JC"]  # a pair of twos qualifies
    seats = [
        {"seat": 5, "cards": ["AH", "KH", "QC", "9S", "3D"], "decision": "call"},  # high card: lost
        {
            "seat": 1,
            "cards": ["8S", "8H", "AC", "5D", "3S"],
            "decision": "call",
        },  # pair of 8s: won 1:1
        {
            "seat": 3,
            "cards": ["KS", "KD", "KC", "4H", "4D"],
            "decision": "fold",
        },  # folded a full house
    ]
    bets = [
        {"id": "a5", "type": "ante", "seat": 5, "amount": "10"},
        {"id": "c5", "type": "call", "seat": 5, "amount": "20"},
        {"id": "a1", "type": "ante", "seat": 1, "amount": "10"},
        {"id": "c1", "type": "call", "seat": 1, "amount": "20"},
        {"id": "a3", "type": "ante", "seat": 3, "amount": "10"},
    ]
    result = settle(
        {
            "game": "stud_poker",
            "outcome": {"dealer": {"cards": dealer}, "seats": seats},
            "bets": bets,
        }
    )
    assert [s["seat"] for s in result["outcome"]["seats"]] == [1, 3, 5]
    assert [s["result"] for s in result["outcome"]["seats"]] == ["won", "folded", "lost"]
    assert [s["hand"] for s in result["outcome"]["seats"]] == [
        "one_pair",
        "full_house",
        "high_card",
    ]
    assert [(b["id"], b["status"], b["win"], b["returned"]) for b in result["bets"]] == [
        ("a5", "lost", "0.00", "0.00"),
        ("c5", "lost", "0.00", "0.00"),
        ("a1", "won", "10.00", "20.00"),
        ("c1", "won", "20.00", "40.00"),
        ("a3", "lost", "0.00", "0.00"),
    ]
