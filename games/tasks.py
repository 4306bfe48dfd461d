"""Celery tasks of the pit: thin, each calling one service (the ends of sessions)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from casino.errors import DomainError
from casino.retries import RETRY, is_transient
from eventstore.answers import as_data
from eventstore.records import Metadata


@shared_task(name="games.table_session_close", **RETRY)
def table_session_close_task(session_id: str, closing: dict[str, int],
                             metadata: dict[str, str]) -> dict[str, Any]:
    """Close a table session on its closing count, as the person in ``metadata`` asked.
    Idempotent by state: a session closed already is reported so, and nothing is recorded; a
    refusal is the task's result (a person acts on it), not retried."""
    from games.models import SessionStatus, TableSession
    from games.services import table_session_close

    session = TableSession.objects.filter(session_id=session_id).first()
    if session is not None and session.status == SessionStatus.CLOSED:
        return {"session_id": session_id, "closed": True, "already_closed": True,
                "closing_amount": str(session.closing_amount)}
    try:
        done = table_session_close(session_id=session_id, closing=closing,
                                   metadata=Metadata(**metadata))
    except DomainError as refusal:
        if is_transient(refusal):
            raise  # a lost race: retried (RETRY), not reported
        return {"session_id": session_id, "closed": False, **refusal.as_result()}
    return {**as_data(done), "closed": True, "already_closed": False}
