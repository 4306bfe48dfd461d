"""Celery tasks of the cage: thin, each calling one service.

A cashier's shift is closed by people (it needs a count); what runs on its own at the casino's
gaming-day boundary is the record of the chips in circulation, idempotent by state. Celery beat
runs ``cage.gaming_day_close_due`` every five minutes (``CELERY_BEAT_SCHEDULE``): it records the
figure of every casino whose gaming day closed in the last ``CLOSE_WINDOW``.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from celery import shared_task

from casino import gaming_day as gaming_days
from casino.context import system_metadata
from casino.errors import DomainError
from casino.models import Casino
from casino.retries import RETRY, is_transient
from eventstore.answers import as_data
from eventstore.records import Metadata

if TYPE_CHECKING:
    from casino.models import Casino

# How late after a casino's gaming-day boundary the scheduled record still runs. The figure is
# the one at the moment it runs, so later than this it is left to a person (the API or the
# task by hand), who knows what moved since.
CLOSE_WINDOW = dt.timedelta(minutes=15)


def closed_just_now(casino: Casino, moment: dt.datetime, window: dt.timedelta
                    ) -> dt.date | None:
    """The gaming day that closed at most ``window`` before ``moment``, if one did."""
    boundary = gaming_days.last_boundary(moment, casino.time_zone, casino.gaming_day_closes_at)
    if moment - boundary > window:
        return None
    return casino.gaming_day(boundary - dt.timedelta(minutes=1))


@shared_task(name="cage.gaming_day_chips_record", **RETRY)
def gaming_day_chips_record_task(casino: str, gaming_day: str | None = None) -> dict[str, object]:
    """Record the chips in circulation for ``gaming_day`` (default: the day that just closed).

    Running it twice records nothing the second time and returns the figure on record, saying
    so (``recorded: false``): idempotent by state, checked under the append lock, so no key (a
    key would replay the first run's answer, ``recorded: true``).
    """
    from django.utils import timezone

    from cage.services import gaming_day_chips_record

    the_casino = Casino.objects.get(code=casino)
    day = (dt.date.fromisoformat(gaming_day) if gaming_day
           else the_casino.gaming_day(timezone.now() - dt.timedelta(minutes=1)))
    answer: dict[str, object] = as_data(gaming_day_chips_record(
        gaming_day=day,
        metadata=system_metadata(casino, job="gaming_day_chips_record"),
    ))
    return answer


@shared_task(name="cage.gaming_day_close_due", **RETRY)
def gaming_day_close_due_task(now: str | None = None) -> list[dict[str, str]]:
    """For each casino whose gaming day closed within ``CLOSE_WINDOW`` of ``now`` (default: the
    present; an ISO time to replay a missed run), record that day's chips in circulation.

    Beat runs it every five minutes, so each boundary is seen two or three times: the first run
    records, the others find the day on record and change nothing.
    """
    from django.utils import timezone

    moment = dt.datetime.fromisoformat(now) if now else timezone.now()
    due = []
    for casino in Casino.objects.order_by("code"):
        day = closed_just_now(casino, moment, CLOSE_WINDOW)
        if day is not None:
            gaming_day_chips_record_task.delay(casino.code, day.isoformat())
            due.append({"casino": casino.code, "gaming_day": day.isoformat()})
    return due


@shared_task(name="cage.shift_close", **RETRY)
def shift_close_task(shift_id: str, metadata: dict[str, str]) -> dict[str, object]:
    """Close a counted cashier shift, as the person in ``metadata`` asked. Idempotent by state:
    a closed shift is reported so and nothing is recorded; a refusal (a variance not approved)
    is the task's result, not retried."""
    from cage.models import Shift, ShiftStatus
    from cage.services import shift_close

    shift = Shift.objects.filter(id=shift_id).first()
    if shift is not None and shift.status == ShiftStatus.CLOSED:
        return {"shift_id": shift_id, "closed": True, "already_closed": True}
    try:
        done = shift_close(shift_id=shift_id, metadata=Metadata(**metadata))
    except DomainError as refusal:
        if is_transient(refusal):
            raise  # a lost race: retried (RETRY), not reported
        return {"shift_id": shift_id, "closed": False, **refusal.as_result()}
    return {**as_data(done), "closed": True, "already_closed": False}
