"""Celery tasks of the ledger: thin, one service each (the gaming-day close builds on it)."""

from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(name="ledger.period_close", autoretry_for=(OSError,), retry_backoff=True,
             max_retries=5)
def period_close_task(casino: str, day: str) -> dict[str, Any]:
    """Close gaming day ``day`` (YYYY-MM-DD) of ``casino``: idempotent, a closed day is left as
    it is."""
    import datetime as dt

    from casino.context import system_metadata
    from ledger.services import period_close

    return period_close(casino=casino, day=dt.date.fromisoformat(day),
                        metadata=system_metadata(casino, job="close_period"))
