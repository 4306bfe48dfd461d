"""Token authentication for every API: django-rest-knox's (ADR 0007).

``Authorization: Token <token>``: the token is looked up by its first characters and checked
against its stored SHA-512 digest; an expired one is refused (and deleted), a revoked one no
longer exists, an inactive user is refused. Kept as the project's own name so that the
settings, the schema and the regulator's docs point at one place.
"""

from __future__ import annotations

from knox.auth import TokenAuthentication as KnoxTokenAuthentication


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <token>`` (the project's one token model, ``access.ApiToken``)."""
