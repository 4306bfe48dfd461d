"""A tournament's pool and its payout (PR-3, PR-4 of docs/poker-room.md), worked by hand."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.rules.errors import RuleError
from pokerroom.rules.payout import Structure, check_prizes, prize_pool, split_pool

STRUCTURE = Structure(buy_in=D("100.00"), entry_fee=D("10.00"), rebuy=D("100.00"),
                      rebuy_fee=D("10.00"), addon=D("50.00"), addon_fee=D("5.00"),
                      guarantee=D("1500.00"))


def test_a_guarantee_not_reached_makes_an_overlay() -> None:
    # 10 × 100 + 2 × 100 = 1,200.00 collected; guarantee 1,500.00: overlay 300.00;
    # fees 10 × 10 + 2 × 10 = 120.00; house revenue 120 - 300 = -180.00
    pool = prize_pool(STRUCTURE, entries=10, rebuys=2)
    assert (pool.collected, pool.pool, pool.overlay, pool.fees) == (
        D("1200.00"), D("1500.00"), D("300.00"), D("120.00"))
    assert pool.house_revenue == D("-180.00")


def test_a_guarantee_passed_makes_no_overlay() -> None:
    # 14 × 100 + 3 × 100 + 4 × 50 = 1,900.00 > 1,500.00; fees 140 + 30 + 20 = 190.00
    pool = prize_pool(STRUCTURE, entries=14, rebuys=3, addons=4)
    assert (pool.pool, pool.overlay, pool.fees, pool.house_revenue) == (
        D("1900.00"), D("0.00"), D("190.00"), D("190.00"))


def test_split_by_fifty_thirty_twenty() -> None:
    # 1,500.00: 750.00, 450.00, 300.00
    assert split_pool(D("1500.00"), [D(50), D(30), D(20)]) == (
        D("750.00"), D("450.00"), D("300.00"))


def test_an_odd_cent_goes_to_the_better_place_on_equal_remainders() -> None:
    # 100.01 by 50/50: 50.005 each, floors 50.00 + 50.00 = 100.00, one cent left; the remainders
    # are equal, so first place takes it: 50.01, 50.00
    assert split_pool(D("100.01"), [D(50), D(50)]) == (D("50.01"), D("50.00"))


def test_the_cents_left_go_by_largest_remainder() -> None:
    # 10.00 by 33/33/34: 3.30, 3.30, 3.40 exactly; 10.01: 3.3033, 3.3033, 3.4034 -> floors
    # 3.30, 3.30, 3.40 = 10.00, one cent to the largest remainder (0.34 of a cent, third place)
    assert split_pool(D("10.01"), [D(33), D(33), D(34)]) == (D("3.30"), D("3.30"), D("3.41"))


def test_a_table_not_summing_to_100_is_refused() -> None:
    with pytest.raises(RuleError) as refused:
        split_pool(D("1000.00"), [D(50), D(30)])
    assert refused.value.code == "payout_table_not_100"


def test_prizes_that_do_not_sum_to_the_pool_are_refused() -> None:
    # 700 + 300 = 1,000.00 against a pool of 1,000.01
    with pytest.raises(RuleError) as refused:
        check_prizes(D("1000.01"), [D("700.00"), D("300.00")])
    assert refused.value.code == "prizes_do_not_sum_to_pool"
    assert "PR-4" in refused.value.message


@given(
    pool=st.integers(min_value=0, max_value=10**11).map(lambda c: D(c) / 100),
    weights=st.lists(st.integers(min_value=1, max_value=1000), min_size=1, max_size=30),
)
def test_the_prizes_sum_to_the_pool(pool: D, weights: list[int]) -> None:
    total = sum(weights)
    percents = [D(w) * 100 / D(total) for w in weights[:-1]]
    percents.append(D(100) - sum(percents, D(0)))
    if percents[-1] <= 0:
        return  # rounding of the context left nothing for the last place
    prizes = split_pool(pool, percents)
    assert sum(prizes, D(0)) == pool
    assert all(prize == prize.quantize(D("0.01")) for prize in prizes)
