"""Chips in circulation (``casino.cage.circulation``), worked out from the events where every chip
is, equals the ledger's account of chips in players' hands (2781) at every instant, and is
recorded for a gaming day as it stood at the day's boundary (issue 13, finding 1).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal as D
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings

from casino.cage import selectors
from casino.cage import services as cage
from casino.errors import Conflict, DomainError
from ledger import reports

from .conftest import CASINO, NEW_CHIPS, TABLE_FLOAT, Clock, Floor, make_floor, supervisor
from .test_properties import in_pieces, operations, run, value

pytestmark = pytest.mark.django_db
LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")


def in_players_hands() -> D:
    """The ledger's account 2781: a credit balance is what the casino owes its players."""
    return -reports.account_balance(casino=CASINO, code="2781")


def circulation() -> D:
    return selectors.chips_in_circulation(casino=CASINO).value


def test_a_worked_day(floor: Floor) -> None:
    # the floor fixture: 5,000 x 100 ... put into service at the vault, some sent to window w1
    in_service = value(NEW_CHIPS)  # 89,000.00
    figure = selectors.chips_in_circulation(casino=CASINO)
    assert figure.pieces("in_service") == {D(d): n for d, n in NEW_CHIPS.items()}
    assert figure.value == D("0.00") == in_players_hands()

    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})  # 300.00 of chips to a player
    floor.open_table("r1")  # its first float (2,600.00) is taken over into service
    floor.buy_in("r1", "200.00")  # 200.00 of chips from the tray for cash
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)  # the house wins 50.00
    floor.credit("r1", {"100.00": 5}, receive=False)  # 500.00 on their way to the cage
    figure = selectors.chips_in_circulation(casino=CASINO)
    # 300 sold + 200 sold at the table - 50 lost by the player = 450.00 in players' hands
    assert figure.value == D("450.00") == in_players_hands()
    assert figure.pieces("in_transit") == {D("100.00"): 5}
    assert figure.open_tables == D("-150.00")  # the tray: -200 sold, +50 won since its count
    assert figure.taken_over == value(TABLE_FLOAT)
    assert sum((r.denomination * r.in_service for r in figure.rows), D(0)) == (
        in_service + value(TABLE_FLOAT))


def test_the_day_is_recorded_as_it_stood_at_its_boundary(db: None, clock: Clock) -> None:
    day = dt.date(2026, 11, 30)
    clock.set(dt.datetime(2026, 11, 30, 20, 0, tzinfo=LISBON))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 3}, {"100.00": 3})  # 300.00 before the boundary
    with pytest.raises(Conflict) as refused:
        cage.gaming_day_chips_record(gaming_day=day, metadata=supervisor())
    assert refused.value.code == "gaming_day_open"
    assert "2026-12-01 06:00" in refused.value.message

    clock.set(dt.datetime(2026, 12, 1, 6, 30, tzinfo=LISBON))
    floor.sell({"25.00": 4}, {"100.00": 1})  # 100.00 after it: the next day's
    recorded = cage.gaming_day_chips_record(gaming_day=day, metadata=supervisor())
    assert (recorded["recorded"], recorded["value"]) == (True, "300.00")
    assert recorded["as_at"] == "2026-12-01T06:00:00+00:00"
    assert in_players_hands() == D("400.00") == circulation()  # now, both sales
    again = cage.gaming_day_chips_record(gaming_day=day, metadata=supervisor())
    assert (again["recorded"], again["value"]) == (False, "300.00")
    assert selectors.circulation_day_list(casino=CASINO).get().value == D("300.00")


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(operations)
def test_chips_in_circulation_equals_the_ledger_after_every_step(
        ops: list[tuple[Any, ...]]) -> None:
    with transaction.atomic():
        floor = make_floor()
        floor.stock_window({"100.00": 20, "50.00": 20}, {"100.00": 40, "25.00": 100,
                                                         "5.00": 200, "1.00": 200})
        floor.open_table("r1")
        assert circulation() == in_players_hands()
        for op in ops:
            try:
                with transaction.atomic():
                    run(floor, op)
            except DomainError:
                pass  # refused by a service: nothing was recorded
            assert circulation() == in_players_hands(), op
        if "r1" in floor.tables:
            floor.close_table("r1", in_pieces(reports.account_balance(
                casino=CASINO, code="0120.r1")), "0.00")
            assert circulation() == in_players_hands()
        transaction.set_rollback(True)
