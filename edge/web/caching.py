"""No API answer is kept by a browser or a proxy (issue 35, finding 11): answers carry a
patron's data, a shift's figures, a token's list; each is ``Cache-Control: no-store`` unless
the view said otherwise (the published schema, the same for everyone, is kept an hour)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class ApiNoStoreMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith("/api/") and not response.has_header("Cache-Control"):
            response["Cache-Control"] = "no-store"
        return response
