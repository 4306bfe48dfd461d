"""OpenAPI schema generation (drf-spectacular).

Our API views nest their serializers (``RoundOpenApi.InputSerializer``), so the bare class names
collide across views. Components of nested serializers are named after the view instead:
``RoundOpenApiInput``, ``CasinoListApiOutput``.

Every operation documents the refusals it may answer, in the one error shape (``Error``:
``edge/api/errors.py``), and a download its file's media type (CSV, XLSX, PDF), read from the
path's suffix.

Every success answer is a named component (``tests/casino/test_api_schema.py``): an answer's
frozen dataclass (``<area>/answers.py``) gives its schema through ``answer_serializer``, the
component named after the dataclass, so the type a service returns and the schema a client reads
are written once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import types
import typing
from decimal import Decimal
from typing import Any, Literal

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers

FILE_TYPES = {
    ".csv": "text/csv",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".pdf": "application/pdf",
}
# What any operation may answer besides its own success, and why.
ERRORS = {
    "400": "invalid: the request says what is wrong (extra.field names the field)",
    "401": "not signed in (no token, or a token unknown)",
    "403": "not allowed: the role, the casino, four eyes",
    "404": "not found",
    "429": "throttled: too many requests; Retry-After says when to send again",
    "503": "unavailable: the database cannot be reached; nothing recorded; Retry-After",
}
WRITE_ERRORS = {
    "409": "conflict: the state does not allow it now, or a lost race (concurrent_change, "
           "retryable, with Retry-After); an idempotency key used for another request",
    "413": "too_large: the body is larger than 2.5 MB",
}


class ErrorDetail(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="what a program acts on")
    message = serializers.CharField(help_text="what was wrong, in words")
    extra = serializers.DictField(help_text="the details: the field, the article, retryable…")


class Error(serializers.Serializer[Any]):
    error = ErrorDetail()


class CasinoAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction: Literal["request", "response"] = "response"
                             ) -> dict[str, Any]:
        suffix = next((s for s in FILE_TYPES if self.path.endswith(s)), None)
        if suffix is not None:
            responses: dict[str, Any] = {"200": {
                "content": {FILE_TYPES[suffix]: {"schema": {"type": "string",
                                                            "format": "binary"}}},
                "description": f"the file ({suffix[1:].upper()}), streamed"}}
        else:
            responses = super()._get_response_bodies(direction)
        errors = dict(ERRORS)
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            errors |= WRITE_ERRORS
        for status, description in errors.items():
            if status not in responses:
                body = self._get_response_for_code(  # type: ignore[no-untyped-call]
                    Error, status, direction=direction)
                responses[status] = dict(body, description=description)
        return responses

    def _get_serializer_name(self, serializer: Any, direction: str, bypass_extensions: bool = False) -> str:
        name: str = super()._get_serializer_name(serializer, direction, bypass_extensions)
        cls = serializer.__class__
        outer, _, inner = cls.__qualname__.rpartition(".")
        if outer and name == inner.removesuffix("Serializer"):
            return f"{outer.replace('.', '')}{name}"
        return name


def _field(hint: Any, **kwargs: Any) -> serializers.Field[Any, Any, Any, Any]:
    """The serializer field that describes a value of type ``hint``."""
    if hint is Any:  # a document of its own (a coup's request, an event's data)
        return serializers.JSONField(**kwargs)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        kept = [a for a in args if a is not type(None)]
        if len(kept) != 1:
            raise TypeError(f"an answer's field is one type or None, not {hint}")
        return _field(kept[0], allow_null=len(kept) < len(args), **kwargs)
    if origin is Literal:
        return serializers.ChoiceField(choices=list(args), **kwargs)
    if origin is list or origin is tuple:
        return serializers.ListField(child=_field(args[0]), **kwargs)
    if origin is dict:
        return serializers.DictField(child=_field(args[1]), **kwargs)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return answer_serializer(hint)(**kwargs)
    simple: dict[Any, type[serializers.Field[Any, Any, Any, Any]]] = {
        str: serializers.CharField, bool: serializers.BooleanField,
        int: serializers.IntegerField, dt.date: serializers.DateField,
        dt.datetime: serializers.DateTimeField}
    if hint in simple:
        return simple[hint](**kwargs)
    if hint is Decimal:
        return serializers.DecimalField(max_digits=None, decimal_places=2, **kwargs)
    raise TypeError(f"an answer's field of type {hint!r} has no schema")


def _has_default(field: dataclasses.Field[Any]) -> bool:
    """A field with a default may be left out of the answer (the schema does not require it)."""
    return (field.default is not dataclasses.MISSING
            or field.default_factory is not dataclasses.MISSING)


@functools.cache
def answer_serializer(answer: type) -> type[serializers.Serializer[Any]]:
    """The (read-only) serializer of a frozen dataclass answer, from its fields' types: the
    OpenAPI component named after the dataclass (``ShiftOpenAnswer``), so the schema a client
    reads is the answer's own type, written once. Built once per dataclass."""
    hints = typing.get_type_hints(answer)
    fields = {f.name: _field(hints[f.name], required=not _has_default(f))
              for f in dataclasses.fields(answer)}
    doc = (answer.__doc__ or "").strip()
    if doc.startswith(f"{answer.__name__}("):  # the dataclass's generated signature
        doc = ""
    return type(f"{answer.__name__}Serializer", (serializers.Serializer,),
                {**fields, "__module__": answer.__module__, "__doc__": doc})


def docs_policy(view: Any) -> Any:
    """The API's documentation pages (Swagger UI and Redoc, served from drf-spectacular-sidecar:
    no CDN) start and style themselves inline: the site's CSP is widened for those pages only,
    to inline code and workers from the site itself (nothing from another host)."""
    from csp.decorators import csp_update

    return csp_update({
        "script-src": ["'unsafe-inline'"],
        "style-src": ["'unsafe-inline'"],
        "worker-src": ["blob:"],
        "img-src": ["data:"],
    })(view)


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """``Authorization: Token <token>`` in the schema (``access.authentication``)."""

    target_class = "access.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "`Token <token>`: a token issued from the web admin (/tokens/)"}
