"""Bad input never reaches a view (issue 35, finding 3): a web form's or a query's value with a
NUL or a lone surrogate, longer than ``edge.bounds.MAX_FORM_VALUE``, a ``seat`` that is not 1 to
``MAX_SEAT``, is a 400 naming the field (the API's error shape under ``/api/``, a page
elsewhere), before any service, fingerprint or INSERT. A client's ``X-Request-Id`` and
``X-Correlation-Id`` that are not short tokens are replaced by fresh ones here, for every view.
JSON bodies are the parser's (``edge.api.parsers``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext

from edge.bounds import MAX_FORM_VALUE, MAX_PLAYER, MAX_SEAT, request_token, text_refusal

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _value_refusal(name: str, value: str) -> str:
    if name == "seat" and value.strip() and not (
            value.strip().isdigit() and 1 <= int(value.strip()[:6]) <= MAX_SEAT):
        return f"a seat is a whole number from 1 to {MAX_SEAT}"
    return text_refusal(value, MAX_PLAYER if name == "player" else MAX_FORM_VALUE)


def _in_words(why: str) -> str:
    """A bound's refusal in the active language (the screens'; the API keeps the English)."""
    n = re.search(r"\d+", why)
    if why.startswith("a seat is a whole number"):
        return gettext("a seat is a whole number from 1 to %(n)s") % {"n": MAX_SEAT}
    if why.startswith("is longer than") and n:
        return gettext("is longer than %(n)s characters") % {"n": n.group()}
    if why == "holds a NUL character":
        return gettext("holds a NUL character")
    if why.startswith("holds a lone surrogate"):
        return gettext("holds a lone surrogate (not Unicode text)")
    return why


def input_refusals(request: HttpRequest) -> dict[str, str]:
    found: dict[str, str] = {}
    sources = [request.GET]
    if request.method == "POST" and request.content_type in FORM_TYPES:
        sources.append(request.POST)
    for source in sources:
        for name, values in source.lists():
            why = text_refusal(name, 100)
            for value in values:
                why = why or _value_refusal(name, value)
            if why:
                found[name if not text_refusal(name, 100) else "?"] = why
    return found


class InputBoundsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for header in ("HTTP_X_REQUEST_ID", "HTTP_X_CORRELATION_ID"):
            if header in request.META:
                request.META[header] = request_token(request.META[header])
        refused = input_refusals(request)
        if refused:
            name, why = sorted(refused.items())[0]
            message = f"{name}: {why}"
            if request.path.startswith("/api/"):
                return JsonResponse({"error": {"code": "invalid", "message": message,
                                               "extra": {"fields": {n: [w] for n, w in
                                                                    refused.items()}}}},
                                    status=400)
            said = f"{name}: {_in_words(why)}"  # in the page's language
            return HttpResponse(f'<!doctype html><title>400</title><p class="error" role="alert">'
                                f"{escape(said)}</p>", status=400)
        return self.get_response(request)
