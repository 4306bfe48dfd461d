"""One gaming-day rule (``casino.gaming_day``) for the pit, the cage and the ledger: a table
session that crosses the boundary belongs, with everything recorded on it, to the gaming day it
opened in, in the pit's figures and in the ledger's alike (issue 13, finding 5).

A roulette table in Lisbon and in Macau, both closing at 06:00 local time: the session opens at
05:00, a round loses 100.00 to the house at 05:30 (before the boundary), another 50.00 at 06:30
(after it); the session closes at 07:00. The pit shows 150.00 of round results on the day the
session opened; so must the ledger, on that same day, nothing on the next.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal as D

import pytest

import eventstore
from casino import gaming_day as gaming_days
from games.models import GamingDayResult, TableSession
from ledger.models import AccountDayBalance, JournalEntry

from .conftest import CASINO, TABLE_FLOAT, Clock, make_floor


def revenue_by_day(casino: str, table: str) -> dict[dt.date, D]:
    """Round results booked to the table's gaming revenue (a credit is the house's win)."""
    days: dict[dt.date, D] = {}
    for row in AccountDayBalance.objects.filter(casino_id=casino, account_code=f"7211.{table}"):
        days[row.day] = days.get(row.day, D("0.00")) + row.credit - row.debit
    return {d: v for d, v in days.items() if v}


@pytest.mark.parametrize("zone", ["Europe/Lisbon", "Asia/Macau"])
def test_a_session_across_the_boundary_counts_on_the_day_it_opened(
        db: None, clock: Clock, zone: str) -> None:
    local = zoneinfo.ZoneInfo(zone)
    opened_day = dt.date(2026, 11, 30)

    def at(hour: int, minute: int = 0) -> dt.datetime:
        return dt.datetime(2026, 12, 1, hour, minute, tzinfo=local)

    clock.set(at(4, 0))
    floor = make_floor(time_zone=zone)
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    clock.set(at(5, 0))
    session = floor.open_table("r1")
    clock.set(at(5, 30))
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "100"}], 2)  # black: house +100
    clock.set(at(6, 30))
    assert gaming_days.day_of(at(6, 30), zone, 6) == opened_day + dt.timedelta(days=1)
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 4)  # black: house +50
    clock.set(at(7, 0))
    closing = dict(TABLE_FLOAT, **{"1.00": TABLE_FLOAT["1.00"] + 150})
    floor.close_table("r1", closing, "0.00")

    pit = GamingDayResult.objects.get(casino_id=CASINO, table="r1")
    assert (pit.gaming_day, pit.round_result, pit.table_win) == (
        opened_day, D("150.00"), D("150.00"))
    assert TableSession.objects.get(session_id=session).gaming_day == opened_day
    assert revenue_by_day(CASINO, "r1") == {opened_day: D("150.00")}
    # every entry of the session is on the day it opened, the late round's too
    late = JournalEntry.objects.filter(casino_id=CASINO, event_type="RoundSettled").latest(
        "number")
    assert (late.day, late.event_day) == (opened_day, opened_day)
    assert eventstore.check(["ledger", "gaming_days"]) == []

