"""The one error shape of every API: ``{"error": {"code", "message", "extra"}}``.

DRF's views go through ``exception_handler``. What fails before or around them (a middleware
reading the session while the database restarts, a body too large for Django) reaches Django's
error views, ``bad_request`` and ``server_error`` (``config.urls``): under ``/api/`` they answer
in the same shape, and a database out of reach is a 503 with ``Retry-After`` on every page.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views import defaults
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.errors import RETRY_AFTER, ConcurrentChange, DomainError, Unavailable, is_retryable

BODY_TOO_LARGE = "the request body is larger than the API takes (2.5 MB)"
BROKER_UNAVAILABLE = ("the task queue cannot be reached just now; nothing was queued: send it "
                      "again in a few seconds")
# a task sent while the broker is gone (kombu's error, Redis's), after the publish policy
BROKER_LOST: tuple[type[BaseException], ...] = (BrokerError, RedisConnectionError,
                                                RedisTimeoutError)


def _body(code: str, message: str, extra: Any = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "extra": extra or {}}}


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _first_message(value)
            return inner if key == "non_field_errors" else f"{key}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def domain_error_of(exc: BaseException) -> DomainError | None:
    """The refusal a database failure means to a client: a lost race (409) or the database out
    of reach (503), both retryable with nothing recorded; None for any other error."""
    if isinstance(exc, DatabaseError) and is_retryable(exc):
        return ConcurrentChange()  # a deadlock or serialization failure: rolled back
    if isinstance(exc, OperationalError | InterfaceError):
        return Unavailable()  # connection refused, lost, or the server shutting down
    if isinstance(exc, BROKER_LOST):  # the publish policy's retries spent (config.settings)
        return Unavailable(BROKER_UNAVAILABLE)
    if isinstance(exc, RuntimeError) and isinstance(exc.__cause__, BROKER_LOST):
        # the result store's reconnection given up, by the same policy (Celery says "the
        # application must be restarted": the next send makes a new connection)
        return Unavailable(BROKER_UNAVAILABLE)
    return exc if isinstance(exc, DomainError) else None


def error_response(exc: DomainError) -> Response:
    response = Response(_body(exc.code, exc.message, exc.extra), status=exc.http_status)
    if exc.code in RETRY_AFTER:
        response["Retry-After"] = str(RETRY_AFTER[exc.code])
    return response


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    refusal = domain_error_of(exc)
    if refusal is not None:  # the store's and the commands' refusals included
        return error_response(refusal)
    if isinstance(exc, RequestDataTooBig):
        return Response(_body("too_large", BODY_TOO_LARGE), status=413)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = _body("invalid", _first_message(exc.detail), {"fields": exc.detail})
    elif isinstance(exc, exceptions.APIException):
        response.data = _body(exc.default_code if isinstance(exc.default_code, str) else "error",
                              _first_message(exc.detail))
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 (a body too large, a host not allowed...): JSON under ``/api/``."""
    if isinstance(exception, RequestDataTooBig):
        if _is_api(request):
            return JsonResponse(_body("too_large", BODY_TOO_LARGE), status=413)
        return HttpResponse(_("The request is too large."), status=413, content_type="text/plain")
    if _is_api(request):
        return JsonResponse(_body("bad_request", "the request could not be read"), status=400)
    return defaults.bad_request(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 (no URL matched: a path parameter the route refuses): JSON under ``/api/``."""
    if _is_api(request):
        return JsonResponse(_body("not_found", "there is nothing at this address"), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500: a database out of reach is a 503 with Retry-After (JSON under ``/api/``);
    anything else a 500, in the error shape under ``/api/``, never a traceback."""
    import sys

    refusal = domain_error_of(sys.exc_info()[1] or Exception())
    if isinstance(refusal, Unavailable | ConcurrentChange):
        if _is_api(request):
            response: HttpResponse = JsonResponse(
                _body(refusal.code, refusal.message, refusal.extra), status=refusal.http_status)
        else:
            response = HttpResponse(
                "<!doctype html><html><head><meta charset=\"utf-8\"><title>503</title></head>"
                "<body><h1>" + escape(_("Not now")) + "</h1><p>"
                + escape(_("The books or the task queue cannot be reached just now; nothing "
                           "was recorded or queued. Try again in a few seconds."))
                + "</p></body></html>", status=refusal.http_status,
                content_type="text/html; charset=utf-8")
        response["Retry-After"] = str(RETRY_AFTER[refusal.code])
        return response
    if _is_api(request):
        return JsonResponse(_body("server_error", "the server failed: send the request again with the same Idempotency-Key, which records it at most once"),
                            status=500)
    return defaults.server_error(request)
