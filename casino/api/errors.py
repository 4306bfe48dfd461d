"""The one error shape of every API: ``{"error": {"code", "message", "extra"}}``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.errors import ConcurrentChange, DomainError, is_retryable


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


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DatabaseError) and is_retryable(exc):
        exc = ConcurrentChange()  # a deadlock or serialization failure: rolled back, retryable
    if isinstance(exc, DomainError):  # the store's and the commands' refusals included
        return Response(_body(exc.code, exc.message, exc.extra), status=exc.http_status)
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


def not_found(request: Any, exception: Exception | None = None) -> Any:
    """Django's "page not found" for an address that matches no URL: under ``/api/`` in the
    one error shape (an API client reads JSON, not an HTML page), elsewhere Django's page."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        return JsonResponse(_body("not_found", f"there is nothing at {request.path}"), status=404)
    return page_not_found(request, exception)
