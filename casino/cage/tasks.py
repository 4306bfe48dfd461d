"""Celery tasks of the cage: thin, each calling one service.

A cashier's shift is closed by people (it needs a count); what runs on its own at the casino's
gaming-day boundary is the record of the chips in circulation, idempotent by state.
"""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.db import OperationalError

from casino.eventstore.store import ConcurrencyError


@shared_task(name="cage.gaming_day_chips_record",
             autoretry_for=(OperationalError, ConcurrencyError), retry_backoff=True,
             max_retries=5)
def gaming_day_chips_record_task(casino: str, gaming_day: str | None = None) -> dict[str, object]:
    """Record the chips in circulation for ``gaming_day`` (default: the day that just closed).

    Running it twice records nothing the second time and returns the figure on record.
    """
    from django.utils import timezone

    from casino.cage.gaming_day import gaming_day_of
    from casino.cage.services import gaming_day_chips_record
    from casino.context import system_metadata
    from casino.models import Casino

    the_casino = Casino.objects.get(code=casino)
    day = (dt.date.fromisoformat(gaming_day) if gaming_day
           else gaming_day_of(the_casino, timezone.now() - dt.timedelta(minutes=1)))
    return gaming_day_chips_record(
        gaming_day=day,
        metadata=system_metadata(casino, job="gaming_day_chips_record",
                                 idempotency_key=f"cage-day:{day.isoformat()}"),
    )
