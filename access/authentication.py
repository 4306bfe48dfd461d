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

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS
from rest_framework import exceptions

from access.models import ApiToken, RegulatorAccount


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's check in one query: the token with its user and the user's regulator account
    (``edge.api.permissions.is_regulator`` reads it from there). knox also sweeps the user's
    other expired tokens on every request (one more query each time); here an expired token
    is deleted when it is used, and refused."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, ApiToken]:
        refused = _("Invalid token.")
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error):
            raise exceptions.AuthenticationFailed(refused) from None
        for found in _tokens(text[:CONSTANTS.TOKEN_KEY_LENGTH]):
            if not compare_digest(digest, found.digest):
                continue
            if found.expiry is not None and found.expiry < timezone.now():
                found.delete()
                break
            return self.validate_user(found)  # type: ignore[no-any-return]
        raise exceptions.AuthenticationFailed(refused)


def _tokens(key: str) -> list[ApiToken]:
    """The tokens whose key is ``key``, each with its user and the user's regulator account
    (or its absence) cached, as ``select_related("user", "user__regulator_account")`` gives
    them, from one plain statement: every API request asks it, and the ORM took longer to
    compile the join than the server took to answer it."""
    models_: tuple[type[Model], ...] = (ApiToken, get_user_model(), RegulatorAccount)
    fields = [list(m._meta.concrete_fields) for m in models_]
    quote = connection.ops.quote_name
    columns = ", ".join(f"{alias}.{quote(f.column)}" for alias, group in zip("tua", fields,
                                                                            strict=True)
                        for f in group)
    token_t, user_t, account_t = (quote(m._meta.db_table) for m in models_)
    user_pk = quote(models_[1]._meta.pk.column)
    column = {(m, f.name): quote(f.column) for m, group in zip(models_, fields, strict=True)
              for f in group}
    token_user, account_user, key_column = (
        column[ApiToken, "user"], column[RegulatorAccount, "user"], column[ApiToken, "token_key"])
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {token_t} t JOIN {user_t} u ON u.{user_pk} = t.{token_user} "
            f"LEFT JOIN {account_t} a ON a.{account_user} = u.{user_pk} "
            f"WHERE t.{key_column} = %s", [key])
        rows = cursor.fetchall()
    found = []
    for row in rows:
        values = iter(row)
        token, user, account = (_instance(m, group, values)
                                for m, group in zip(models_, fields, strict=True))
        token._state.fields_cache["user"] = user
        user._state.fields_cache["regulator_account"] = account
        if account is not None:
            account._state.fields_cache["user"] = user
        found.append(token)
    return found


def _instance(model: type[Model], fields: list[Any], values: Any) -> Any:
    """The next ``len(fields)`` values as an instance of ``model`` (None for a left join's
    missing row), each converted as the ORM converts it."""
    taken = [next(values) for _ in fields]
    if taken[0] is None:
        return None
    converted = []
    for f, value in zip(fields, taken, strict=True):
        for convert in (*connection.ops.get_db_converters(f), *f.get_db_converters(connection)):
            value = convert(value, f, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)
