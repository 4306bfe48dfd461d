"""Token authentication: DRF's, as configured for every API (``REST_FRAMEWORK`` settings).

Kept as the project's own name so that the settings, the schema and the regulator's docs point
at one place should the scheme change (expiry, revocation: issue 18).
"""

from __future__ import annotations

from rest_framework import authentication


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``; the token and its user read in one query
    (``select_related``), an inactive user refused, as DRF does."""
