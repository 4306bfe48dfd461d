"""A request's budget (issue 35, finding 5): every request that takes longer than
``REQUEST_BUDGET_SECONDS`` is logged (logger ``casino.budget``, WARNING: method, path, status,
seconds, who); its statements are cut by the database at that budget under gunicorn
(``config.wsgi``: ``statement_timeout``), which answers 503 with ``Retry-After``
(``edge.api.errors``), and gunicorn kills a worker silent past its ``timeout``."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

log = logging.getLogger("casino.budget")


class RequestBudgetMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.monotonic()
        response = self.get_response(request)
        seconds = time.monotonic() - started
        if seconds > settings.REQUEST_BUDGET_SECONDS:
            user = getattr(request, "user", None)
            log.warning("request over its budget of %s s: %s %s answered %s after %.1f s (%s)",
                        settings.REQUEST_BUDGET_SECONDS, request.method, request.path[:200],
                        response.status_code, seconds,
                        user.get_username() if user is not None and user.is_authenticated
                        else "anonymous")
        return response
