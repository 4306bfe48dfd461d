"""The rake and the time charge (PR-1, PR-2 of docs/poker-room.md), figures worked by hand."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.rules.errors import RuleError
from pokerroom.rules.rake import Hand, RakeRule, check_hand, rake_due, time_charge

RULE = RakeRule(percent=D("5"), cap=D("5.00"), minimum_pot=D("10.00"), no_flop_no_drop=True)


def test_five_percent_of_a_pot_rounded_down_to_the_cent() -> None:
    # PR-1: 5 % of 80.30 = 4.015 -> 4.01 (down to the cent), under the cap 5.00
    assert rake_due(RULE, D("80.30"), flop_dealt=True) == D("4.01")


def test_the_cap_holds_on_a_big_pot() -> None:
    # PR-1: 5 % of 500.00 = 25.00, capped at 5.00
    assert rake_due(RULE, D("500.00"), flop_dealt=True) == D("5.00")


def test_no_flop_no_drop() -> None:
    # PR-1: a hand won before the flop pays nothing, whatever the pot
    assert rake_due(RULE, D("60.00"), flop_dealt=False) == D("0.00")


def test_below_the_minimum_pot_no_rake() -> None:
    # PR-1: a pot of 9.99 is under the minimum 10.00
    assert rake_due(RULE, D("9.99"), flop_dealt=True) == D("0.00")


def test_a_hand_that_adds_up() -> None:
    # seats 1, 2, 3 put 20 + 20 + 40.30 = 80.30; rake 4.01; seat 3 takes 80.30 - 4.01 = 76.29
    hand = Hand({1: D("20.00"), 2: D("20.00"), 3: D("40.30")}, {3: D("76.29")}, D("4.01"), True)
    assert check_hand(RULE, hand) == D("80.30")


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        # 5.01 is above the cap of 5.00 (pot 200.00)
        (Hand({1: D("100"), 2: D("100")}, {1: D("194.99")}, D("5.01"), True), "rake_above_cap"),
        # rake 12.00 on a pot of 11.00: more than the pot (checked before the cap)
        (Hand({1: D("5.50"), 2: D("5.50")}, {1: D("0")}, D("12.00"), True), "rake_above_pot"),
        # 4.00 on 80.30, the approved rake is 4.01
        (Hand({1: D("40.15"), 2: D("40.15")}, {1: D("76.30")}, D("4.00"), True),
         "rake_not_as_approved"),
        # rake before the flop: no flop, no drop (approved 0.00)
        (Hand({1: D("30"), 2: D("30")}, {1: D("57")}, D("3.00"), False), "rake_not_as_approved"),
        # 80.30 in, 4.01 rake, 70.00 awarded: 74.01 is not 80.30
        (Hand({1: D("40.15"), 2: D("40.15")}, {1: D("70.00")}, D("4.01"), True),
         "pot_does_not_add_up"),
        # seat 9 put nothing in
        (Hand({1: D("40.15"), 2: D("40.15")}, {9: D("76.29")}, D("4.01"), True),
         "winner_not_in_hand"),
    ],
)
def test_a_hand_that_breaks_a_rule_is_refused_by_name(hand: Hand, code: str) -> None:
    with pytest.raises(RuleError) as refused:
        check_hand(RULE, hand)
    assert refused.value.code == code


def test_time_charge_per_period_begun() -> None:
    # PR-2: 30.00 a period of 60 minutes; 61 minutes begin two periods: 60.00
    assert time_charge(D("30.00"), minutes=61, period_minutes=60) == D("60.00")
    assert time_charge(D("30.00"), minutes=60, period_minutes=60) == D("30.00")


cents = st.integers(min_value=0, max_value=10_000_000).map(lambda c: D(c) / 100)


@given(
    pot=cents,
    percent=st.integers(min_value=0, max_value=1000).map(lambda p: D(p) / 100),
    cap=cents,
    minimum=cents,
    flop=st.booleans(),
)
def test_the_rake_never_exceeds_the_cap_or_the_pot(
    pot: D, percent: D, cap: D, minimum: D, flop: bool
) -> None:
    rake = rake_due(RakeRule(percent, cap, minimum), pot, flop_dealt=flop)
    assert D(0) <= rake <= cap
    assert rake <= pot
    assert rake == rake.quantize(D("0.01"))
