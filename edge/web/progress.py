"""Where a close sent to the workers stands, for a page that follows it (htmx polling).

A close (a cage shift's, a gaming day's) is sent as a Celery task under an id chosen before it is
sent, so the page can name it at once (``?closing=<task>``). Its state is read from the result
backend (``CELERY_TASK_TRACK_STARTED`` says when a worker took it): 1 waiting for a worker, 2 a
worker on it (or trying it again after a lost race), 3 done: closed, or refused with the reason.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from celery import Celery
from django.http import HttpRequest

from casino.errors import Words
from edge.web.refusals import translated


@dataclass(frozen=True)
class CloseProgress:
    task: str
    step: int
    state: str  # waiting, running, retrying, closed, refused, failed
    answer: dict[str, Any]

    @property
    def done(self) -> bool:
        return self.step == 3

    @property
    def percent(self) -> int:
        return {1: 10, 2: 60, 3: 100}[self.step]


def close_progress(task: str, *, app: Celery, closed: bool) -> CloseProgress:
    """The task's state; ``closed`` (the thing found closed) is done whatever the backend says."""
    from celery.result import AsyncResult

    sent: AsyncResult[Any] = AsyncResult(task, app=app)
    if closed:
        return CloseProgress(task, 3, "closed", {"closed": True})
    try:
        state = sent.state
    except AttributeError:  # no result backend (tasks run in process): nothing to follow
        return CloseProgress(task, 1, "waiting", {})
    if state == "SUCCESS":
        answer = sent.result if isinstance(sent.result, dict) else {}
        return CloseProgress(task, 3, "closed" if answer.get("closed") else "refused", answer)
    if closed:
        return CloseProgress(task, 3, "closed", {"closed": True})
    if state == "FAILURE":
        return CloseProgress(task, 3, "failed", {"message": str(sent.result)})
    if state in ("STARTED", "RETRY"):
        return CloseProgress(task, 2, "running" if state == "STARTED" else "retrying", {})
    return CloseProgress(task, 1, "waiting", {})  # PENDING: queued (or not known yet)


def followed_task(request: HttpRequest) -> str | None:
    """The close the page follows (``?closing=<task>``), if it names one."""
    try:
        return str(uuid.UUID(request.GET.get("closing", "")))
    except ValueError:
        return None


def answer_text(answer: dict[str, Any], default: str) -> str:
    """A task's refusal in the page's language (its template translated), else its message."""
    message = str(answer.get("message") or default)
    template = answer.get("template")
    if isinstance(template, str) and template:
        params = answer.get("params")
        values = ({name: Words.from_data(v) if isinstance(v, dict) else v
                   for name, v in params.items()} if isinstance(params, dict) else None)
        return translated(template, values, message)
    return message
