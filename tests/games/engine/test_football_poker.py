"""Poker de Futebol (Macau, DRE of 21 June 2004): the third-card rule and every total x every bet.

The grid below is written out by hand from the regulation's bets and payout sections; the
worked examples are in ``cases/football_poker.jsonl``.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import check_bet, settle
from games.engine.errors import RoundError
from games.engine.football_poker import draws_third_card

# A hand for each final total: two cards for 1-8; three cards (first two 0 or 9) for "3:0", "3:9".
HANDS = {
    "1": ["AS", "KD"],
    "2": ["AS", "AD"],
    "3": ["AS", "2D"],
    "4": ["2S", "2D"],
    "5": ["2S", "3D"],
    "6": ["3S", "3D"],
    "7": ["3S", "4D"],
    "8": ["4S", "4D"],
    "3:0": ["KS", "KD", "QC"],
    "3:9": ["4S", "5D", "KC"],
    "3:4": ["KS", "QD", "4C"],  # 0, then a 4: an ordinary 4
}
# (status, win, returned) of a 10.00 bet; "+" won 1:1, "-" lost, "=" push, "/" half lost, "P" won 8:1.
GRID = {
    # upper lower even odd post
    "1": "+-" + "-+" + "-",
    "2": "+-" + "+-" + "-",
    "3": "+-" + "-+" + "-",
    "4": "+-" + "+-" + "-",
    "5": "-+" + "-+" + "-",
    "6": "-+" + "+-" + "-",
    "7": "-+" + "-+" + "-",
    "8": "-+" + "+-" + "-",
    "3:0": "////P",
    "3:9": "====P",
    "3:4": "+-+--",
}
LINE = {
    "+": ("won", "10.00", "20.00"),
    "-": ("lost", "0.00", "0.00"),
    "=": ("push", "0.00", "10.00"),
    "/": ("half_lost", "0.00", "5.00"),
    "P": ("won", "80.00", "90.00"),
}
TYPES = ("upper", "lower", "even", "odd", "post")


@pytest.mark.parametrize("key", list(GRID))
def test_every_bet_on_every_total(key: str) -> None:
    bets = [{"id": kind, "type": kind, "seat": 1, "amount": "10"} for kind in TYPES]
    result = settle(
        {
            "game": "football_poker",
            "outcome": {"hands": [{"seat": 1, "cards": HANDS[key]}]},
            "bets": bets,
        }
    )
    got = [(line["status"], line["win"], line["returned"]) for line in result["bets"]]
    assert got == [LINE[mark] for mark in GRID[key]]


def test_third_card_on_0_and_9_only() -> None:
    assert draws_third_card(["KS", "QD"])
    assert draws_third_card(["4S", "5D"])
    assert draws_third_card(["4S", "6D"])  # 10 counts 0 (FP-5)
    assert draws_third_card(["9S", "KD"])
    assert not draws_third_card(["AS", "KD"])
    assert not draws_third_card(["4S", "4D"])


def test_placement_check() -> None:
    assert check_bet(
        "football_poker", {"decks": 8}, {"id": "u", "type": "upper", "seat": 25, "amount": "5"}
    ) == {"decks": 8}
    bad: list[dict[str, Any]] = [
        {"id": "u", "type": "upper", "seat": 0, "amount": "5"},
        {"id": "u", "type": "upper", "seat": 1.0, "amount": "5"},
        {"id": "u", "type": "tie", "seat": 1, "amount": "5"},
        {"id": "u", "type": "post", "amount": "5"},
    ]
    for bet in bad:
        with pytest.raises(RoundError) as raised:
            check_bet("football_poker", {}, bet)
        assert (raised.value.code, raised.value.bet) == ("invalid_bet", "u")
