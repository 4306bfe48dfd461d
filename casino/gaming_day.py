"""The gaming day (dia de jogo): the one rule, used by the pit, the cage and the ledger alike.

A casino's gaming day ends at its closing hour (``gaming_day_closes_at``), a wall-clock hour in
the casino's own time zone (so it follows the casino's summer time): a moment before that hour
belongs to the previous calendar day's gaming day (a casino closing at 06:00 books 03:00 on the
2nd to the 1st). A table session, and everything recorded on it (rounds, drop, slips, its close),
belongs to the gaming day in which it opened, even when it closes after the boundary; a cage
shift likewise belongs to the gaming day in which it opened. ``docs/architecture.md`` § Gaming
days.

Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo


def day_of(moment: dt.datetime, time_zone: str, closes_at: int) -> dt.date:
    """The gaming day ``moment`` falls in."""
    if moment.tzinfo is None:
        raise ValueError("a moment without a time zone has no gaming day")
    local = moment.astimezone(zoneinfo.ZoneInfo(time_zone))
    day = local.date()
    return day - dt.timedelta(days=1) if local.hour < closes_at else day


def start_of(day: dt.date, time_zone: str, closes_at: int) -> dt.datetime:
    """The moment gaming day ``day`` begins: ``closes_at`` local time on that calendar day."""
    local = dt.datetime.combine(day, dt.time(closes_at), tzinfo=zoneinfo.ZoneInfo(time_zone))
    return local.astimezone(dt.UTC)


def end_of(day: dt.date, time_zone: str, closes_at: int) -> dt.datetime:
    """The moment gaming day ``day`` ends (the next one begins)."""
    return start_of(day + dt.timedelta(days=1), time_zone, closes_at)


def last_boundary(moment: dt.datetime, time_zone: str, closes_at: int) -> dt.datetime:
    """The latest gaming-day boundary at or before ``moment``."""
    return start_of(day_of(moment, time_zone, closes_at), time_zone, closes_at)
