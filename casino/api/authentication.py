"""Token authentication for every API: django-rest-knox's (ADR 0008).

``Authorization: Token <token>``: the token is looked up by its first characters and checked
against its stored SHA-512 digest; an expired one is refused (and deleted), a revoked one no
longer exists, an inactive user is refused. Kept as the project's own name so that the
settings, the schema and the regulator's docs point at one place.
"""

from __future__ import annotations

import binascii
from hmac import compare_digest
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS
from rest_framework import exceptions

from casino.access.models import ApiToken


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's check in one query: the token with its user and the user's regulator account
    (``casino.api.permissions.is_regulator`` reads it from there). knox also sweeps the user's
    other expired tokens on every request (one more query each time); here an expired token
    is deleted when it is used, and refused."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, ApiToken]:
        refused = _("Invalid token.")
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error):
            raise exceptions.AuthenticationFailed(refused) from None
        for found in ApiToken.objects.filter(
                token_key=text[:CONSTANTS.TOKEN_KEY_LENGTH]).select_related(
                    "user", "user__regulator_account"):
            if not compare_digest(digest, found.digest):
                continue
            if found.expiry is not None and found.expiry < timezone.now():
                found.delete()
                break
            return self.validate_user(found)  # type: ignore[no-any-return]
        raise exceptions.AuthenticationFailed(refused)
