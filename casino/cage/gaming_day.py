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
