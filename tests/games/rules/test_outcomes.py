"""Outcomes on plain values: checked against what was recorded while the round was played, and
completed from it (the craps point, the blackjack hands, the stud poker calls)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from games import play
from games.rules.bets import BetView
from games.rules.errors import CONFLICT, INVALID, RuleError
from games.rules.outcomes import check_decided, prepare_outcome, undecided_boxes


def refusal(call: Any, *args: Any) -> RuleError:
    with pytest.raises(RuleError) as refused:
        call(*args)
    return refused.value


def ante(seat: int) -> BetView:
    return BetView(bet_id=f"b{seat}", seat=seat, player=f"seat {seat}", bet_type="ante",
                   amount=Decimal("10.00"), bet={"id": f"b{seat}", "type": "ante",
                                                 "amount": "10.00", "seat": seat})


def test_an_outcome_is_an_object() -> None:
    error = refusal(prepare_outcome, "american_roulette", [17], None, {})
    assert (error.kind, error.code, error.message, error.extra) == (
        INVALID, "invalid", "the outcome is an object in the game's own form",
        {"field": "outcome"})


def test_a_craps_roll_takes_the_table_point_and_leaves_the_outcome_given_alone() -> None:
    given = {"dice": [3, 4]}
    assert prepare_outcome("craps", given, 8, {}) == {"dice": [3, 4], "point": 8}
    assert given == {"dice": [3, 4]}
    assert prepare_outcome("craps", {"dice": [1, 1]}, None, {}) == {"dice": [1, 1], "point": None}


def test_a_craps_roll_naming_another_point_is_refused() -> None:
    error = refusal(prepare_outcome, "craps", {"dice": [3, 4], "point": 6}, 8, {})
    assert (error.code, error.message, error.extra) == (
        "invalid_outcome", "the table point before this roll is 8, not 6", {"field": "outcome"})


def test_a_blackjack_outcome_takes_the_hands_as_they_were_played() -> None:
    hands = play.apply_decision(play.deal("9C", {"1": ["TS", "6H"]}), 1, 1, "hit", ["2D"])
    prepared = prepare_outcome("blackjack", {"dealer": {"cards": ["9C", "8S"]}}, None, hands)
    assert prepared == {"dealer": {"cards": ["9C", "8S"]}, "seats": [
        {"seat": 1, "hands": [{"cards": ["TS", "6H", "2D"], "double": False,
                               "surrender": False}]}]}


def test_a_blackjack_outcome_with_other_hands_or_another_up_card_is_refused() -> None:
    hands = play.deal("9C", {"1": ["TS", "6H"]})
    other = [{"seat": 1, "hands": [{"cards": ["TS", "7H"], "double": False, "surrender": False}]}]
    assert refusal(prepare_outcome, "blackjack", {"seats": other}, None, hands).message == (
        "the hands differ from those recorded as they were played")
    error = refusal(prepare_outcome, "blackjack", {"dealer": {"cards": ["KC", "8S"]}}, None,
                    hands)
    assert (error.code, error.message) == ("invalid_outcome", "the bank's up card was 9C")


def test_a_blackjack_outcome_without_a_recorded_deal_is_the_engine_s_to_check() -> None:
    given = {"dealer": {"cards": ["KC"]}, "seats": []}
    assert prepare_outcome("blackjack", given, None, {}) == given


def test_a_stud_poker_outcome_takes_each_box_s_decision() -> None:
    hands = {"decisions": {"1": "call", "2": "fold"}}
    prepared = prepare_outcome("stud_poker", {"seats": [{"seat": 1}, {"seat": 2},
                                                        {"seat": 3}]}, None, hands)
    assert prepared["seats"] == [{"seat": 1, "decision": "call"}, {"seat": 2, "decision": "fold"},
                                 {"seat": 3}]
    error = refusal(prepare_outcome, "stud_poker",
                    {"seats": [{"seat": 2, "decision": "call"}]}, None, hands)
    assert (error.code, error.message) == ("invalid_outcome", "box 2 decided fold")


def test_the_boxes_that_have_not_decided() -> None:
    antes = [ante(1), ante(2), ante(3)]
    assert undecided_boxes(antes, {"decisions": {"2": "call"}}) == [1, 3]
    assert undecided_boxes(antes, {}) == [1, 2, 3]


def test_once_a_box_decided_every_box_decides_before_the_outcome() -> None:
    antes = [ante(3), ante(1), ante(2)]
    error = refusal(check_decided, "stud_poker", antes, {"decisions": {"2": "call"}})
    assert (error.kind, error.code, error.message) == (
        CONFLICT, "undecided", "boxes [1, 3] have not called or folded")
    check_decided("stud_poker", antes, {})  # no decision recorded: the outcome says them all
    check_decided("stud_poker", antes, {"decisions": {"1": "fold", "2": "call", "3": "call"}})
