"""The one error shape of every API: ``{"error": {"code", "message", "extra"}}``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.errors import DomainError
from casino.eventstore.commands import IdempotencyConflict
from casino.eventstore.store import ConcurrencyError


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
    if isinstance(exc, DomainError):
        return Response(_body(exc.code, exc.message, exc.extra), status=exc.http_status)
    if isinstance(exc, ConcurrencyError):
        return Response(
            _body("conflict", str(exc), {"stream": exc.stream, "expected_version": exc.expected,
                                         "actual_version": exc.actual}),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, IdempotencyConflict):
        return Response(_body("idempotency_conflict", str(exc), {"key": exc.key}),
                        status=status.HTTP_409_CONFLICT)
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
