"""Celery tasks of the ledger: thin, one service each (the gaming-day close builds on it)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from cage.tasks import CLOSE_WINDOW, closed_just_now
from casino.context import person_metadata, system_metadata
from casino.errors import DomainError
from casino.models import Casino
from casino.retries import RETRY, is_transient
from eventstore.answers import as_data
from ledger.models import ResultsExport
from ledger.services import period_close


@shared_task(name="ledger.period_close", **RETRY)
def period_close_task(casino: str, day: str) -> dict[str, Any]:
    """Close gaming day ``day`` (YYYY-MM-DD) of ``casino``: idempotent, a closed day is left as
    it is."""
    import datetime as dt

    answer: dict[str, Any] = as_data(period_close(
        casino=casino, day=dt.date.fromisoformat(day),
        metadata=system_metadata(casino, job="close_period")))
    return answer


@shared_task(name="ledger.gaming_day_close", **RETRY)
def gaming_day_close_task(casino: str, day: str, actor: str = "", role: str = ""
                          ) -> dict[str, Any]:
    """Close gaming day ``day`` of ``casino`` whole (``reporting.closes``), as the scheduled close
    or as the person who pressed the button (``actor``, ``role``). Idempotent by state: a
    closed day is returned as it is; a refusal (something still open, a difference) is the
    task's result, for a person to act on, not retried."""
    import datetime as dt

    from reporting.closes import gaming_day_close

    metadata = (person_metadata(username=actor, role=role, casino=casino) if actor
                else system_metadata(casino, job="gaming_day_close"))
    try:
        answer: dict[str, Any] = as_data(gaming_day_close(
            casino=casino, gaming_day=dt.date.fromisoformat(day), metadata=metadata))
        return answer
    except DomainError as refusal:
        if is_transient(refusal):
            raise  # a lost race: retried (RETRY), not reported
        return {"casino": casino, "gaming_day": day, "closed": False,
                **refusal.as_result()}


@shared_task(name="ledger.gaming_day_close_due", **RETRY)
def gaming_day_close_due_task(now: str | None = None) -> list[dict[str, str]]:
    """For each casino whose gaming day ended within ``CLOSE_WINDOW`` of ``now`` (default: the
    present), close that day (Celery beat runs it every five minutes: each boundary is seen two
    or three times, and a closed day is left as it is)."""
    import datetime as dt

    from django.utils import timezone

    moment = dt.datetime.fromisoformat(now) if now else timezone.now()
    due = []
    for casino in Casino.objects.order_by("code"):
        day = closed_just_now(casino, moment, CLOSE_WINDOW)
        if day is not None:
            gaming_day_close_task.delay(casino.code, day.isoformat())
            due.append({"casino": casino.code, "gaming_day": day.isoformat()})
    return due


@shared_task(name="ledger.results_export", **RETRY)
def results_export_task(export_id: str) -> dict[str, Any]:
    """Build an accountant's export of table results (``reporting.results_export``); its progress
    is written on its record as it goes. Idempotent: a file built already is left as it is."""
    from django.utils import translation

    from reporting.results_export import results_export_build

    language = ResultsExport.objects.filter(export_id=export_id).values_list(
        "language", flat=True).first() or "en"
    with translation.override(language):
        export = results_export_build(export_id)
    return {"export_id": export_id, "status": export.status, "rows": export.rows_total}
