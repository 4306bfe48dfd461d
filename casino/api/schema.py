"""OpenAPI schema generation (drf-spectacular).

Our API views nest their serializers (``RoundOpenApi.InputSerializer``), so the bare class names
collide across views. Components of nested serializers are named after the view instead:
``RoundOpenApiInput``, ``CasinoListApiOutput``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema


class CasinoAutoSchema(AutoSchema):
    def _get_serializer_name(self, serializer: Any, direction: str, bypass_extensions: bool = False) -> str:
        name: str = super()._get_serializer_name(serializer, direction, bypass_extensions)
        cls = serializer.__class__
        outer, _, inner = cls.__qualname__.rpartition(".")
        if outer and name == inner.removesuffix("Serializer"):
            return f"{outer.replace('.', '')}{name}"
        return name


def redoc_policy(view: Any) -> Any:
    """The schema's page (Redoc) loads its script from a CDN, and styles and runs inline: the
    site's CSP is widened for that one page only."""
    from csp.decorators import csp_update

    return csp_update({
        "script-src": ["https://cdn.jsdelivr.net", "'unsafe-inline'"],
        "style-src": ["'unsafe-inline'", "https://fonts.googleapis.com"],
        "font-src": ["https://fonts.gstatic.com"],
        "worker-src": ["blob:"],
        "img-src": ["https://cdn.redoc.ly"],
    })(view)
