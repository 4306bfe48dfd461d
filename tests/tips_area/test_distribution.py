"""The pure rule of distribution (``tips.distribution``), figures worked by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tips.distribution import Person, RuleError, distribute, fund_percent_pt, period_of, split


def test_the_fund_takes_12_percent_until_2016_and_15_from_2017() -> None:
    assert fund_percent_pt(dt.date(2016, 12, 1)) == D("12")
    assert fund_percent_pt(dt.date(2017, 1, 1)) == D("15")


def test_a_split_by_largest_remainder_sums_exactly() -> None:
    # 100.00 in three equal parts: 33.333.. each, 33.33 each floors to 99.99; the one cent left
    # goes to the first of the equal remainders
    assert split(D("100.00"), [("a", D(1)), ("b", D(1)), ("c", D(1))]) == {
        "a": D("33.34"), "b": D("33.33"), "c": D("33.33")}


def test_a_month_of_tips_shared_by_the_fund_the_categories_and_the_people() -> None:
    # 247.35 of tips; the fund 15 %: 37.1025 -> 37.10; the staff 210.25.
    # Weights (points x days): chefe s1 14x20 = 280; croupier s2 10x20 = 200, s3 10x15 = 150
    # (350); pagador s4 8x20 = 160; in all 790.
    # Categories: chefe 210.25x280/790 = 74.5189.. -> 74.51 (+.0090), croupier 210.25x350/790
    # = 93.1487.. -> 93.14 (+.0087), pagador 210.25x160/790 = 42.5822.. -> 42.58 (+.0023):
    # 210.23, the two cents left to chefe and croupier: 74.52, 93.15, 42.58.
    # Croupier 93.15: s2 93.15x200/350 = 53.2285.. -> 53.22 (+.0086), s3 93.15x150/350 =
    # 39.9214.. -> 39.92 (+.0014): the cent left to s2: 53.23, 39.92.
    shared = distribute(D("247.35"), D("15"), [
        Person("s1", "chefe", D(14), 20), Person("s2", "croupier", D(10), 20),
        Person("s3", "croupier", D(10), 15), Person("s4", "pagador", D(8), 20)])
    assert (shared.fund, shared.staff) == (D("37.10"), D("210.25"))
    assert {c.category: c.amount for c in shared.categories} == {
        "chefe": D("74.52"), "croupier": D("93.15"), "pagador": D("42.58")}
    assert {s.staff_number: s.amount for s in shared.shares} == {
        "s1": D("74.52"), "s2": D("53.23"), "s3": D("39.92"), "s4": D("42.58")}


def test_nobody_to_share_with_is_refused() -> None:
    with pytest.raises(RuleError, match="nobody to share"):
        distribute(D("10.00"), D("15"), [])


def test_a_month_and_a_day_as_periods() -> None:
    assert period_of(dt.date(2025, 2, 14), "month") == (
        "2025-02", dt.date(2025, 2, 1), dt.date(2025, 2, 28))
    assert period_of(dt.date(2025, 2, 14), "day") == (
        "2025-02-14", dt.date(2025, 2, 14), dt.date(2025, 2, 14))


@given(st.decimals(min_value=D("0.00"), max_value=D("99999.99"), places=2),
       st.decimals(min_value=D("0"), max_value=D("100"), places=2),
       st.lists(st.tuples(st.sampled_from(["chefe", "croupier", "caixa"]),
                          st.integers(1, 20), st.integers(0, 31)), min_size=1, max_size=12))
def test_every_distribution_sums_exactly_to_the_tips(total: D, percent: D,
                                                     people: list[tuple[str, int, int]]) -> None:
    staff = [Person(f"s{i}", category, D(points), days)
             for i, (category, points, days) in enumerate(people)]
    if not any(p.days for p in staff):
        return  # nobody worked: refused (test_nobody_to_share_with_is_refused)
    shared = distribute(total, percent, staff)
    assert shared.fund + shared.staff == total
    assert sum((c.amount for c in shared.categories), D(0)) == shared.staff
    assert sum((s.amount for s in shared.shares), D(0)) == shared.staff
    assert all(s.amount == s.amount.quantize(D("0.01")) and s.amount >= 0 for s in shared.shares)
