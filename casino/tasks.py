"""Celery tasks of the core: thin, calling one service each."""

from __future__ import annotations

from celery import shared_task

from casino.retries import RETRY


@shared_task(name="casino.projections_check", **RETRY)
def projections_check_task(names: list[str] | None = None) -> dict[str, object]:
    """Rebuild the projections beside the live ones, on a snapshot, in a rolled-back
    transaction, and report any difference (``eventstore.check``)."""
    import eventstore

    differences = eventstore.check(names)
    return {
        "ok": not differences,
        "differences": [
            {"projection": d.projection, "table": d.table,
             "only_live": len(d.only_live), "only_rebuilt": len(d.only_rebuilt)}
            for d in differences
        ],
    }
