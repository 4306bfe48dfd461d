"""The gaming day (dia de jogo) a moment belongs to, in the casino's own time zone."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from casino.models import Casino


def gaming_day_of(casino: Casino, moment: dt.datetime) -> dt.date:
    """The gaming day closes at ``casino.gaming_day_closes_at`` local time: before that hour a
    moment still belongs to the previous calendar day's gaming day."""
    local = moment.astimezone(zoneinfo.ZoneInfo(casino.time_zone))
    day = local.date()
    if local.hour < casino.gaming_day_closes_at:
        day -= dt.timedelta(days=1)
    return day


def last_close(casino: Casino, moment: dt.datetime) -> dt.datetime:
    """The latest gaming-day boundary at or before ``moment``: ``gaming_day_closes_at`` o'clock,
    local time (a wall-clock hour, so it follows the casino's summer time)."""
    zone = zoneinfo.ZoneInfo(casino.time_zone)
    hour = dt.time(casino.gaming_day_closes_at)
    local_day = moment.astimezone(zone).date()
    boundary = dt.datetime.combine(local_day, hour, tzinfo=zone)
    if boundary > moment:
        boundary = dt.datetime.combine(local_day - dt.timedelta(days=1), hour, tzinfo=zone)
    return boundary


def closed_just_now(casino: Casino, moment: dt.datetime, window: dt.timedelta) -> dt.date | None:
    """The gaming day that closed at most ``window`` before ``moment``, if one did."""
    boundary = last_close(casino, moment)
    if moment - boundary > window:
        return None
    return gaming_day_of(casino, boundary - dt.timedelta(minutes=1))
