"""Cards shared by the card games: parsing, shoe counts, point values, poker hands, jackpot options.

Expected values are written out by hand from Portaria 217/2007 (Cap. III) and the Macau football
poker regulation; the golden cases (``cases/*.jsonl``) cover the same rules through ``settle()``.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.cards import (
    BLACKJACK_VALUE,
    CARDS,
    POINT_VALUE,
    POKER_CATEGORIES,
    POKER_RANK,
    check_cards,
    check_copies,
    check_jackpot_option,
    point_total,
    poker_hand_key,
    rank_poker_hand,
)
from games.engine.errors import RoundError

# --- cards ------------------------------------------------------------------------------------------


def test_there_are_52_cards_of_two_characters() -> None:
    assert len(CARDS) == 52
    assert {"AS", "TD", "7H", "KC", "2S"} <= CARDS
    assert all(len(card) == 2 for card in CARDS)


@pytest.mark.parametrize("bad", ["10H", "ah", "1S", "KX", "", None, 7, "AS ", "A", "ASS", ["AS"]])
def test_what_is_not_a_card_is_invalid_outcome(bad: Any) -> None:
    with pytest.raises(RoundError) as raised:
        check_cards(["KD", bad], "player", 2, 3)
    assert raised.value.code == "invalid_outcome"


@pytest.mark.parametrize("value", ["AS KD", None, {"cards": []}, ("AS", "KD")])
def test_cards_must_be_a_json_list(value: Any) -> None:
    with pytest.raises(RoundError) as raised:
        check_cards(value, "player", 2, 3)
    assert raised.value.code == "invalid_outcome"


def test_card_count_bounds() -> None:
    assert check_cards(["AS", "KD"], "p", 2, 3) == ["AS", "KD"]
    assert check_cards(["AS", "KD", "2C"], "p", 2, 3) == ["AS", "KD", "2C"]
    assert check_cards(["AS"] * 9, "p", 2, None) == ["AS"] * 9
    for count in (0, 1, 4):
        with pytest.raises(RoundError, match="must be 2 or 3"):
            check_cards(["AS"] * count, "p", 2, 3)
    with pytest.raises(RoundError, match="must be 5"):
        check_cards(["AS"] * 4, "p", 5, 5)
    with pytest.raises(RoundError, match="at least 2"):
        check_cards(["AS"], "p", 2, None)


def test_check_cards_returns_a_copy_in_dealing_order() -> None:
    given = ["9S", "2H", "KD"]
    got = check_cards(given, "p", 2, 3)
    assert got == given
    assert got is not given


def test_copies_up_to_the_shoe_are_fine_one_more_is_not() -> None:
    check_copies(["AS"] * 6 + ["KD"] * 6, 6)
    check_copies(["AS", "KD", "QH", "JC", "TS"], 1)
    with pytest.raises(RoundError, match="AS appears 7 times") as raised:
        check_copies(["AS"] * 7, 6)
    assert raised.value.code == "invalid_outcome"
    with pytest.raises(RoundError, match="the deck holds only 1"):
        check_copies(["AS", "KD", "AS"], 1)


# --- values ------------------------------------------------------------------------------------------


def test_baccarat_and_football_poker_values() -> None:
    # Bacará n.º 9 / Poker de Futebol valores 1-3: ás 1, rei dama valete e 10 zero, outras a face.
    expected = {
        "A": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "T": 0,
        "J": 0,
        "Q": 0,
        "K": 0,
    }
    for card in CARDS:
        assert POINT_VALUE[card] == expected[card[0]]


def test_point_totals_keep_the_last_digit() -> None:
    assert point_total(["9S", "5D", "KH"]) == 4  # 14
    assert point_total(["4S", "6D"]) == 0  # exactly 10 (FP-5)
    assert point_total(["KS", "QD", "JC"]) == 0
    assert point_total(["9S", "9D", "2C"]) == 0  # exactly 20
    assert point_total(["9S", "9D", "3C"]) == 1  # 21
    assert point_total(["AS", "7D"]) == 8


def test_blackjack_values_ace_stored_as_one() -> None:
    # n.º 6: figuras 10, ás 1 ou 11 (decided by the hand), outras o valor indicado.
    assert BLACKJACK_VALUE["AS"] == 1
    assert {BLACKJACK_VALUE[c] for c in ("TS", "JD", "QH", "KC")} == {10}
    assert BLACKJACK_VALUE["7H"] == 7


def test_poker_ranks_ace_high() -> None:
    # Póquer sem descarte n.º 1: ás, rei, dama, valete, 10, 9, ..., 2.
    order = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]
    assert [POKER_RANK[c] for c in order] == list(range(14, 1, -1))


# --- poker hands (n.os 6, 7) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "category", "tiebreak"),
    [
        (["AH", "KH", "QH", "JH", "TH"], "royal_flush", ()),
        (["9D", "KD", "QD", "JD", "TD"], "straight_flush", (13,)),
        (["AC", "2C", "3C", "4C", "5C"], "straight_flush", (5,)),
        (["7S", "7H", "7D", "7C", "KS"], "four_of_a_kind", (7,)),
        (["QS", "QH", "QD", "4C", "4D"], "full_house", (12,)),
        (["4S", "4H", "4D", "QC", "QD"], "full_house", (4,)),
        (["AH", "TH", "8H", "6H", "3H"], "flush", (14, 10, 8, 6, 3)),
        (["TS", "9S", "8C", "7C", "6S"], "straight", (10,)),
        (["AS", "KD", "QH", "JD", "TH"], "straight", (14,)),
        (["5S", "4D", "3C", "2H", "AS"], "straight", (5,)),
        (["JS", "JH", "JD", "5S", "4S"], "three_of_a_kind", (11,)),
        (["AS", "AD", "3C", "3D", "9C"], "two_pair", (14, 3, 9)),
        (["3S", "9D", "3C", "9H", "KC"], "two_pair", (9, 3, 13)),
        (["8S", "8H", "AC", "5D", "3S"], "one_pair", (8, 14, 5, 3)),
        (["AS", "KD", "7C", "5H", "2D"], "high_card", (14, 13, 7, 5, 2, 0)),
        (["AS", "KS", "9S", "5D", "3C"], "high_card", (14, 13, 9, 5, 3, 1)),
        (["AS", "KS", "9D", "5D", "3D"], "high_card", (14, 13, 9, 5, 3, 1)),
        (["AS", "KS", "9D", "5D", "3C"], "high_card", (14, 13, 9, 5, 3, 0)),
    ],
)
def test_rank_poker_hand(cards: list[str], category: str, tiebreak: tuple[int, ...]) -> None:
    assert rank_poker_hand(cards) == (category, tiebreak)


def test_categories_are_listed_lowest_to_highest_as_n6_lists_them_highest_first() -> None:
    n6_highest_first = [
        "royal_flush",  # a) sequência real de cor
        "straight_flush",  # b) sequência de cor
        "four_of_a_kind",  # c) póquer
        "full_house",  # d) full
        "flush",  # e) cor
        "straight",  # f) sequência
        "three_of_a_kind",  # g) trio
        "two_pair",  # h) dois pares
        "one_pair",  # i) um par
        "high_card",  # j) cartas maiores
    ]
    assert list(POKER_CATEGORIES) == n6_highest_first[::-1]


def test_card_order_does_not_matter() -> None:
    assert rank_poker_hand(["2D", "5H", "7C", "KD", "AS"]) == rank_poker_hand(
        ["AS", "KD", "7C", "5H", "2D"]
    )


@pytest.mark.parametrize(
    ("better", "worse", "rule"),
    [
        (
            ["2S", "3S", "4S", "5S", "6S"],
            ["AH", "AD", "AC", "AS", "KD"],
            "n.º 6: straight flush over four",
        ),
        (["AH", "AD", "AC", "AS", "2D"], ["KH", "KD", "KC", "QS", "QD"], "n.º 6: four over full"),
        (["2H", "2D", "2C", "3S", "3D"], ["AH", "KH", "QH", "JH", "9H"], "n.º 6: full over flush"),
        (
            ["2H", "4H", "6H", "8H", "TH"],
            ["AS", "KD", "QH", "JD", "TH"],
            "n.º 6: flush over straight",
        ),
        (
            ["AS", "2D", "3H", "4D", "5H"],
            ["AH", "AD", "AC", "KS", "QD"],
            "n.º 6: straight over three",
        ),
        (
            ["2H", "2D", "2C", "3S", "4D"],
            ["AH", "AD", "KC", "KS", "QD"],
            "n.º 6: three over two pair",
        ),
        (
            ["2H", "2D", "3C", "3S", "4D"],
            ["AH", "AD", "KC", "QS", "JD"],
            "n.º 6: two pair over a pair",
        ),
        (
            ["2H", "2D", "3C", "4S", "5D"],
            ["AH", "KD", "QC", "JS", "9D"],
            "n.º 6: a pair over high cards",
        ),
        (
            ["6S", "5D", "4C", "3H", "2S"],
            ["AH", "2H", "3D", "4D", "5C"],
            "n.º 7 c: ace is 1 in 5-4-3-2-A",
        ),
        (["AS", "KS", "QS", "JS", "TS"], ["KH", "QH", "JH", "TH", "9H"], "n.º 7 c: top card"),
        (["AH", "JH", "8H", "6H", "3H"], ["AS", "JS", "8S", "6S", "2S"], "n.º 7 d; SP-2"),
        (["KD", "KC", "5D", "5C", "TS"], ["KS", "KH", "5S", "5H", "9D"], "n.º 7 f: last card"),
        (
            ["KD", "KC", "3D", "3C", "2S"],
            ["QS", "QH", "JS", "JH", "AD"],
            "n.º 7 f: higher pair first",
        ),
        (
            ["KD", "KC", "6D", "6C", "2S"],
            ["KS", "KH", "5S", "5H", "AD"],
            "n.º 7 f: then the other pair",
        ),
        (["QD", "QC", "9H", "7S", "4H"], ["QS", "QH", "9S", "7D", "3C"], "n.º 7 g; SP-2"),
        (["QD", "QC", "AH", "2S", "3H"], ["JS", "JH", "AS", "KD", "QH"], "n.º 7 g: the pair first"),
        (["AH", "KD", "9C", "4S", "3D"], ["AS", "KH", "7C", "5H", "2D"], "n.º 6 j: next card"),
        (
            ["AC", "KC", "9C", "5H", "3H"],
            ["AS", "KH", "9D", "5C", "3S"],
            "n.º 6 j: three of a suit; SP-1",
        ),
    ],
)
def test_hand_order(better: list[str], worse: list[str], rule: str) -> None:
    assert poker_hand_key(better) > poker_hand_key(worse), rule


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            ["AH", "KH", "QH", "JH", "TH"],
            ["AS", "KS", "QS", "JS", "TS"],
        ),  # n.º 6 a: royals always equal
        (["QD", "QC", "9H", "7C", "3D"], ["QS", "QH", "9S", "7D", "3C"]),  # same pair, same kickers
        (
            ["AS", "KS", "9S", "5D", "3C"],
            ["AH", "KD", "9C", "5H", "3H"],
        ),  # both three of a suit (SP-1)
        (["AS", "KH", "9D", "5C", "3S"], ["AH", "KD", "9C", "5H", "3D"]),  # neither (SP-1)
        (["6S", "5D", "4C", "3H", "2S"], ["6H", "5S", "4D", "3C", "2H"]),  # equal straights
    ],
)
def test_equal_hands_tie(a: list[str], b: list[str]) -> None:
    assert poker_hand_key(a) == poker_hand_key(b)


# --- jackpot configuration (docs/jackpots.md § Configuration) -------------------------------------

STUD = (
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
SPEC_CONFIG: dict[str, Any] = {
    "bet": "1.00",
    "increment_percent": "70",
    "start": "10000.00",
    "paytable": [
        {"combination": "royal_flush", "pays": "jackpot"},
        {"combination": "straight_flush", "pays": "10%"},
        {"combination": "four_of_a_kind", "pays": "500x"},
        {"combination": "full_house", "pays": "100x"},
        {"combination": "flush", "pays": "50x"},
    ],
}


def test_the_documented_configuration_and_null_are_valid() -> None:
    assert check_jackpot_option(SPEC_CONFIG, STUD) == SPEC_CONFIG
    assert check_jackpot_option(None, STUD) is None


def _with(**changes: Any) -> dict[str, Any]:
    config = dict(SPEC_CONFIG)
    config.update(changes)
    return config


@pytest.mark.parametrize(
    "config",
    [
        "1.00",
        [],
        _with(bet="0"),
        _with(bet=1),
        _with(bet="1.001"),
        _with(increment_percent="0"),
        _with(increment_percent="100.5"),
        _with(increment_percent=70),
        _with(increment_percent="-5"),
        _with(start="9999.99"),  # BJ n.º 44, SP n.º 10: at least 10 000 x bet
        _with(paytable=[]),
        _with(paytable="royal_flush"),
        _with(
            paytable=[
                {"combination": "royal_flush", "pays": "jackpot"},
                {"combination": "royal_flush", "pays": "5x"},
            ]
        ),
        _with(paytable=[{"combination": "two_aces", "pays": "jackpot"}]),
        _with(paytable=[{"combination": "one_pair", "pays": "jackpot"}]),
        _with(paytable=[{"combination": "flush", "pays": "5x"}]),  # no top entry
        _with(
            paytable=[
                {"combination": "royal_flush", "pays": "jackpot"},
                {"combination": "flush", "pays": "jackpot"},
            ]
        ),
        _with(
            paytable=[
                {"combination": "royal_flush", "pays": "5x"},
                {"combination": "flush", "pays": "jackpot"},
            ]
        ),
        _with(
            paytable=[
                {"combination": "royal_flush", "pays": "jackpot"},
                {"combination": "flush", "pays": "0x"},
            ]
        ),
        _with(
            paytable=[
                {"combination": "royal_flush", "pays": "jackpot"},
                {"combination": "flush", "pays": "101%"},
            ]
        ),
        _with(
            paytable=[
                {"combination": "royal_flush", "pays": "jackpot"},
                {"combination": "flush", "pays": "50"},
            ]
        ),
        _with(paytable=[{"combination": "royal_flush", "pays": "jackpot", "note": "x"}]),
        _with(paytable=[{"combination": "royal_flush"}]),
        {k: v for k, v in SPEC_CONFIG.items() if k != "start"},
        _with(pool="5.00"),
    ],
)
def test_bad_jackpot_configurations_are_invalid_option(config: Any) -> None:
    with pytest.raises(RoundError) as raised:
        check_jackpot_option(config, STUD)
    assert raised.value.code == "invalid_option"


def test_start_of_exactly_ten_thousand_bets_is_enough() -> None:
    check_jackpot_option(_with(bet="2.50", start="25000"), STUD)
    with pytest.raises(RoundError):
        check_jackpot_option(_with(bet="2.50", start="24999.99"), STUD)
