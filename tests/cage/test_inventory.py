"""The cage's pure core: inventory arithmetic, shortfalls, variance, minimum-cash crossings."""

from __future__ import annotations

from decimal import Decimal

from cage import inventory as inv

D = Decimal


def test_an_inventory_keeps_pieces_by_kind_set_and_denomination() -> None:
    held = inv.of({D("20.00"): 5, D("10.00"): 0}, {"main": {D("25.00"): 4}})
    assert held == {inv.Line("cash", "", D("20.00")): 5,
                    inv.Line("chips", "main", D("25.00")): 4}
    assert inv.value(held) == D("200.00")
    assert inv.value(held, inv.CASH) == D("100.00")
    assert inv.cash_part(held) == {D("20.00"): 5}
    assert inv.chips_part(held) == {"main": {D("25.00"): 4}}


def test_two_fifties_are_not_a_hundred() -> None:
    held = inv.of({D("50.00"): 2})
    wanted = inv.of({D("100.00"): 1})
    assert inv.shortfalls(held, wanted) == [(inv.Line("cash", "", D("100.00")), 0, 1)]
    assert inv.shortfalls(held, inv.of({D("50.00"): 2})) == []


def test_variance_is_counted_minus_expected_line_by_line() -> None:
    expected = inv.of({D("20.00"): 5, D("10.00"): 2})
    counted = inv.of({D("20.00"): 4, D("10.00"): 4})
    difference = inv.variance(expected, counted)
    assert difference == {inv.Line("cash", "", D("20.00")): -1,
                          inv.Line("cash", "", D("10.00")): 2}
    assert inv.value(difference) == D("0.00")  # balanced in value, not by denomination
    assert inv.variance(expected, expected) == {}


def test_adding_and_subtracting_drop_empty_lines() -> None:
    a = inv.of({D("5.00"): 3})
    assert inv.subtract(a, a) == {}
    assert inv.add(a, inv.of({D("5.00"): 1})) == inv.of({D("5.00"): 4})


def test_chips_of_all_sets_add_up_by_denomination() -> None:
    one = inv.of(chips={"main": {D("25.00"): 4}, "plaques": {D("25.00"): 1}})
    two = inv.of({D("25.00"): 9}, {"main": {D("5.00"): 2}})
    assert inv.chips_by_denomination([one, two]) == {D("25.00"): 5, D("5.00"): 2}


def test_minimum_cash_crossings() -> None:
    minimum = D("1000.00")
    assert inv.minimum_crossing(D("1500.00"), D("900.00"), minimum) == "fell"
    assert inv.minimum_crossing(D("900.00"), D("800.00"), minimum) is None
    assert inv.minimum_crossing(D("900.00"), D("1000.00"), minimum) == "restored"
    assert inv.minimum_crossing(None, D("10.00"), minimum) == "fell"
    assert inv.minimum_crossing(None, D("10.00"), D("0.00")) is None


def test_lines_sort_cash_first_then_chips_largest_first() -> None:
    lines = [inv.Line("chips", "main", D("5.00")), inv.Line("cash", "", D("10.00")),
             inv.Line("cash", "", D("50.00")), inv.Line("chips", "main", D("25.00"))]
    assert inv.sorted_lines(lines) == [lines[2], lines[1], lines[3], lines[0]]
