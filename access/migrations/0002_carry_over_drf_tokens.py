"""The tokens of DRF's ``authtoken`` (stored in clear, never expiring) become knox tokens:
stored as their SHA-512 digest, valid 90 days from the migration, then DRF's table is dropped.

A client keeps working with the token it has, until it expires (docs/regulator.md, ADR 0008).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from django.db import migrations
from django.utils import timezone


def carry_over(apps: Any, schema_editor: Any) -> None:
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("access", "ApiToken")
    expiry = timezone.now() + dt.timedelta(days=90)
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id, created FROM authtoken_token")
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        # knox's digest: SHA-512 of the token's characters (knox.crypto.hash_token)
        ApiToken.objects.create(digest=hashlib.sha512(key.encode()).hexdigest(),
                                token_key=key[:15], user_id=user_id, expiry=expiry,
                                name="carried over from the old token", issued_by="")
        ApiToken.objects.filter(token_key=key[:15], user_id=user_id).update(created=created)
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE authtoken_token")


class Migration(migrations.Migration):
    dependencies = [("access", "0001_tokens_regulators_access_log")]

    operations = [migrations.RunPython(carry_over, migrations.RunPython.noop)]
