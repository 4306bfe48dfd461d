"""The scheduled gaming-day close: beat runs ``cage.gaming_day_close_due`` every five minutes,
and it records a casino's chips in circulation once, just after the casino's own boundary."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest

from cage.models import Shift
from cage.tasks import CLOSE_WINDOW, closed_just_now, gaming_day_close_due_task
from casino.gaming_day import last_boundary
from casino.models import Casino
from eventstore.models import StoredEvent

from .conftest import after_the_day

LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")
MACAU = zoneinfo.ZoneInfo("Asia/Macau")


def at(zone: zoneinfo.ZoneInfo, *parts: int) -> dt.datetime:
    return dt.datetime(*parts, tzinfo=zone)  # type: ignore[misc]


def test_a_day_is_due_just_after_the_casinos_local_boundary_and_not_later() -> None:
    lisboa = Casino(code="x", time_zone="Europe/Lisbon", gaming_day_closes_at=6)
    assert closed_just_now(lisboa, at(LISBON, 2026, 11, 30, 6, 5), CLOSE_WINDOW) == \
        dt.date(2026, 11, 29)
    assert closed_just_now(lisboa, at(LISBON, 2026, 11, 30, 6, 20), CLOSE_WINDOW) is None
    assert closed_just_now(lisboa, at(LISBON, 2026, 11, 30, 5, 59), CLOSE_WINDOW) is None
    # summer time: the boundary is still 06:00 on the wall clock (05:00 UTC)
    assert last_boundary(at(LISBON, 2026, 7, 1, 6, 5), lisboa.time_zone, 6) == \
        dt.datetime(2026, 7, 1, 5, 0, tzinfo=dt.UTC)


def test_each_casino_closes_at_its_own_hour_and_zone() -> None:
    macau = Casino(code="y", time_zone="Asia/Macau", gaming_day_closes_at=7)
    moment = dt.datetime(2026, 11, 30, 23, 3, tzinfo=dt.UTC)  # 07:03 on 1 December in Macau
    assert closed_just_now(macau, moment, CLOSE_WINDOW) == dt.date(2026, 11, 30)
    assert last_boundary(moment, macau.time_zone, 7) == at(MACAU, 2026, 12, 1, 7, 0)


@pytest.mark.django_db
def test_the_scheduled_close_records_the_chips_once_at_the_boundary(window: str) -> None:
    day = Shift.objects.get(id=window).gaming_day
    boundary = at(LISBON, day.year, day.month, day.day, 6, 0) + dt.timedelta(days=1)

    with after_the_day(day, minutes=2):
        first = gaming_day_close_due_task.delay((boundary + dt.timedelta(minutes=2)).isoformat())
    with after_the_day(day, minutes=7):
        again = gaming_day_close_due_task.delay((boundary + dt.timedelta(minutes=7)).isoformat())
    late = gaming_day_close_due_task.delay((boundary + dt.timedelta(minutes=40)).isoformat())

    assert first.get() == again.get() == [{"casino": "lisboa", "gaming_day": day.isoformat()}]
    assert late.get() == []
    recorded = StoredEvent.objects.filter(event_type="ChipsInCirculationRecorded")
    assert [e.data["gaming_day"] for e in recorded] == [day.isoformat()]


def test_beat_runs_the_close_every_five_minutes() -> None:
    from config.celery import app

    entry = app.conf.beat_schedule["cage-gaming-day-close"]
    assert entry["task"] == gaming_day_close_due_task.name
    assert entry["schedule"] == 300.0
    assert entry["schedule"] <= CLOSE_WINDOW.total_seconds() / 2  # every boundary seen twice
