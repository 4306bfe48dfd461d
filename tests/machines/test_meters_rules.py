"""The pure core: meters parsed and differenced, the win, the pay table's return and spread, the
band of the return watch. Figures by hand."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from machines import meters as m

EUR = ("5.00", "10.00", "20.00", "50.00", "100.00", "200.00", "500.00")


def _meters(**values: object) -> dict[str, object]:
    out: dict[str, object] = {n: "0.00" for n in m.MONEY_METERS}
    out["games_played"] = 0
    out.update(values)
    return out


def test_a_difference_is_meter_by_meter_and_a_meter_gone_back_is_refused() -> None:
    before = m.parse_meters(_meters(coin_in="100.00", coin_out="90.00", games_played=10,
                                    bills_in="20.00", bills={"20.00": 1}), denominations=EUR)
    after = m.parse_meters(_meters(coin_in="150.50", coin_out="120.00", jackpots="10.00",
                                   games_played=16, bills_in="70.00",
                                   bills={"20.00": 1, "50.00": 1}), denominations=EUR)
    diff = m.difference(before, after)
    # coin in 50.50, coin out 30.00, jackpots 10.00: win 50.50 − 30.00 − 10.00 = 10.50
    assert (diff.coin_in, diff.coin_out, diff.jackpots, diff.games_played) == (
        Decimal("50.50"), Decimal("30.00"), Decimal("10.00"), 6)
    assert diff.win == Decimal("10.50")
    assert diff.bills == (("50.00", 1),)
    with pytest.raises(m.MeterError) as back:
        m.difference(after, before)
    assert back.value.code == "meter_went_back"


@pytest.mark.parametrize(("values", "code"), [
    ({"coin_in": 1.5}, "invalid_reading"),  # a float
    ({"coin_in": "1.234"}, "invalid_reading"),  # not cents
    ({"coin_in": "-1.00"}, "invalid_reading"),
    ({"games_played": "x"}, "invalid_reading"),
    ({"coin_drop": "1.00"}, "unknown_meter"),
    ({"bills": {"30.00": 1}}, "unknown_denomination"),
])
def test_a_malformed_reading_is_refused_naming_what(values: dict[str, object], code: str) -> None:
    with pytest.raises(m.MeterError) as refused:
        m.parse_meters(_meters(**values), denominations=EUR)
    assert refused.value.code == code


def test_bills_by_note_must_make_the_bills_in_meter() -> None:
    meters = m.parse_meters(_meters(bills_in="60.00", bills={"20.00": 2}), denominations=EUR)
    with pytest.raises(m.MeterError) as refused:  # 2 × 20 = 40 ≠ 60
        m.check_bills(meters)
    assert refused.value.code == "bills_do_not_add_up"


def test_a_pay_tables_return_and_spread() -> None:
    table = m.parse_paytable([{"weight": 800, "pays": 0}, {"weight": 150, "pays": 2},
                              {"weight": 40, "pays": 10}, {"weight": 10, "pays": 20}])
    # mean (300 + 400 + 200) / 1000 = 0.9: 90.00 %
    assert m.theoretical_return(table) == Decimal("90.00")
    # E[x²] = (150·4 + 40·100 + 10·400) / 1000 = 8.6; variance 8.6 − 0.81 = 7.79;
    # √7.79 = 2.7911… → 279.11 %
    assert m.return_spread(table) == Decimal("279.11")
    spins = random.Random(1)
    paid = sum(m.spin(table, spins) for _ in range(20000))
    assert 0.80 < paid / 20000 < 1.00  # 90 % give or take the spread over 20,000 games


def test_the_band_narrows_with_games_and_flags_a_machine_outside_it() -> None:
    # 10,000 games: 3 × 279.11 / √10,000 = 8.37 points: 81.63 – 98.37
    wide = m.return_check(coin_in=Decimal("10000.00"), paid=Decimal("8300.00"), games=10000,
                          certified=Decimal("90.00"), spread=Decimal("279.11"))
    assert (wide.low, wide.high, wide.actual, wide.outside) == (
        Decimal("81.63"), Decimal("98.37"), Decimal("83.00"), False)
    # 1,000,000 games: 3 × 279.11 / 1,000 = 0.84 points: 89.16 – 90.84; 83 % is outside
    narrow = m.return_check(coin_in=Decimal("1000000.00"), paid=Decimal("830000.00"),
                            games=1000000, certified=Decimal("90.00"), spread=Decimal("279.11"))
    assert (narrow.low, narrow.high, narrow.outside) == (Decimal("89.16"), Decimal("90.84"),
                                                         True)
    idle = m.return_check(coin_in=Decimal("0.00"), paid=Decimal("0.00"), games=0,
                          certified=Decimal("90.00"), spread=Decimal("279.11"))
    assert (idle.actual, idle.outside) == (None, False)
