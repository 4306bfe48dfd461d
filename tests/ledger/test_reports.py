"""Reports: results by table, game and day; gross gaming revenue by month and its taxes."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal as D

import pytest

from ledger import reports

from .conftest import CASINO, TABLE_FLOAT, Clock, Floor, make_floor

LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")
MARCH_31, APRIL_1 = dt.date(2025, 3, 31), dt.date(2025, 4, 1)


def at(day: dt.date, hour: int) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour), tzinfo=LISBON)


@pytest.fixture
def two_months(db: None, clock: Clock) -> Floor:
    """Roulette r1 and r2 on 31 March; r1 again on 1 April."""
    clock.set(at(MARCH_31, 15))
    floor = make_floor()
    floor.open_table("r1")
    floor.open_table("r2")
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "100"}], 2)  # +100
    floor.spin("r2", [{"seat": 1, "type": "straight", "numbers": [7], "amount": "2"}], 7)  # -70
    floor.close_table("r1", {"100.00": 10, "25.00": 40, "5.00": 80, "1.00": 100}, "200.00")
    floor.close_table("r2", TABLE_FLOAT | {"1.00": 70}, "0.00")  # 30 short of 2,600
    clock.set(at(APRIL_1, 15))
    floor.open_table("r1")
    floor.spin("r1", [{"seat": 1, "type": "black", "amount": "40"}], 2)  # -40
    floor.close_table("r1", {"100.00": 10, "25.00": 40, "5.00": 80, "1.00": 60}, "0.00")
    return floor


def test_results_by_table_and_day_with_hold(two_months: Floor) -> None:
    rows = reports.table_results(casino=CASINO, day_from=MARCH_31, day_to=APRIL_1)
    by_key = {(r.day, r.table): r for r in rows}
    r1 = by_key[(MARCH_31, "r1")]
    # win = drop 200 + closing 2,500 - opening 2,600 = 100; the round results say 100 too
    assert (r1.handle, r1.drop, r1.revenue, r1.variance, r1.win) == (
        D("100.00"), D("200.00"), D("100.00"), D("0.00"), D("100.00"))
    assert r1.hold_percent == D("50.00")
    assert r1.win_handle_percent == D("100.00")
    r2 = by_key[(MARCH_31, "r2")]
    assert (r2.revenue, r2.variance, r2.win) == (D("-70.00"), D("40.00"), D("-30.00"))
    assert r2.hold_percent is None  # no drop
    april = by_key[(APRIL_1, "r1")]
    assert (april.revenue, april.variance, april.win) == (D("-40.00"), D("0.00"), D("-40.00"))


def test_results_by_table_and_by_game(two_months: Floor) -> None:
    by_table = reports.table_results(casino=CASINO, day_from=MARCH_31, day_to=APRIL_1, by="table")
    assert [(r.table, r.win, r.sessions, r.rounds) for r in by_table] == [
        ("r1", D("60.00"), 2, 2), ("r2", D("-30.00"), 1, 1)]
    by_game = reports.table_results(casino=CASINO, day_from=MARCH_31, day_to=APRIL_1, by="game")
    assert [(r.game, r.win, r.handle) for r in by_game] == [
        ("french_roulette", D("30.00"), D("142.00"))]
    with pytest.raises(ValueError, match="day, table or game"):
        reports.table_results(casino=CASINO, day_from=MARCH_31, day_to=APRIL_1, by="week")


def test_gross_gaming_revenue_by_month(two_months: Floor) -> None:
    report = reports.gross_gaming_revenue(casino=CASINO, day_from=dt.date(2025, 3, 1),
                                          day_to=dt.date(2025, 4, 30))
    assert report.jurisdiction == "PT"
    assert [(m.month, m.gross_gaming_revenue) for m in report.months] == [
        (dt.date(2025, 3, 1), D("70.00")), (dt.date(2025, 4, 1), D("-40.00"))]
    # no day is closed, so no IEJ; the contrapartida's minimum (1,000,000.00 a year) accrues
    # by twelfths all the same: 83,333.33 in each month (docs/gaming-tax.md)
    assert [(m.days_closed, m.tax_total) for m in report.months] == [(0, D("83333.33")),
                                                                      (0, D("83333.33"))]


def test_a_casino_in_patacas_answers_to_macau(db: None, clock: Clock) -> None:
    clock.set(at(MARCH_31, 15))
    floor = make_floor("macau", currency="MOP", time_zone="Asia/Macau")
    from games.limits import default_limits
    from games.services import rounds, sessions, tables

    from .conftest import act

    boss = act("lei", "pit_boss", "macau")
    tables.table_configure(casino="macau", code="b1", name="B1", game="french_roulette", seats=8,
                           chip_set="main", limits=default_limits("french_roulette", D("1.00")),
                           metadata=boss)
    session = sessions.table_session_open(casino="macau", table="b1", opening=TABLE_FLOAT,
                                          metadata=boss).session_id
    rounds.round_record(session_id=session, bets=[{"seat": 1, "type": "red", "amount": "500"}],
                        outcome={"number": 2}, metadata=boss)
    assert floor.window
    report = reports.gross_gaming_revenue(casino="macau", day_from=dt.date(2025, 3, 1),
                                          day_to=dt.date(2025, 3, 31))
    assert (report.jurisdiction, report.currency) == ("MO", "MOP")
    assert report.months[0].gross_gaming_revenue == D("500.00")
