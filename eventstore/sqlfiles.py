"""Load SQL from files in migrations (forward and ``--- reverse:`` sections, as django-hordak does)."""

from __future__ import annotations

from pathlib import Path

from django.db import migrations


def run_sql_file(path: Path) -> migrations.RunSQL:
    text = path.read_text(encoding="utf-8")
    forward, _, reverse = text.partition("\n--- reverse:\n")
    return migrations.RunSQL(forward, reverse or migrations.RunSQL.noop)
