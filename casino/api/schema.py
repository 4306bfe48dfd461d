"""OpenAPI schema generation (drf-spectacular).

Our API views nest their serializers (``RoundOpenApi.InputSerializer``), so the bare class names
collide across views. Components of nested serializers are named after the view instead:
``RoundOpenApiInput``, ``CasinoListApiOutput``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema


class CasinoAutoSchema(AutoSchema):
    def _get_serializer_name(self, serializer: Any, direction: str, bypass_extensions: bool = False) -> str:
        name: str = super()._get_serializer_name(serializer, direction, bypass_extensions)
        cls = serializer.__class__
        outer, _, inner = cls.__qualname__.rpartition(".")
        if outer and name == inner.removesuffix("Serializer"):
            return f"{outer.replace('.', '')}{name}"
        return name


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """``Authorization: Token <token>`` in the schema (``casino.api.authentication``)."""

    target_class = "casino.api.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "`Token <token>`: a token issued from the web admin (/tokens/)"}
