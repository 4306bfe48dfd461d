"""Shared set-up for the benchmarks: Django configured on a fresh throwaway database.

With DATABASE_URL the benchmark runs on that server; otherwise on the embedded one (a throwaway
cluster). Either way it creates a fresh database (Django's test-database machinery), migrates it,
and drops it at the end.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@contextmanager
def bench_database() -> Iterator[None]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    # Never the test suite's database name: a benchmark must not clobber a running test run.
    os.environ.setdefault("TEST_DATABASE_NAME", "casino_bench_throwaway")
    if not (os.environ.get("CASINO_PATRON_MASTER_KEY")
            or os.environ.get("CASINO_PATRON_MASTER_KEY_FILE")):
        # The demo day registers patrons, whose personal data is encrypted under this key: a
        # throwaway one for a throwaway database (without it play_day is refused).
        import base64

        os.environ["CASINO_PATRON_MASTER_KEY"] = base64.b64encode(os.urandom(32)).decode()
    if not os.environ.get("DATABASE_URL"):
        os.environ.setdefault("CASINO_EMBEDDED_PGDATA",
                              os.path.join(tempfile.mkdtemp(prefix="casino-bench-pg-"), "pgdata"))
        os.environ.setdefault("CASINO_EMBEDDED_CLEANUP", "delete")
    import django

    django.setup()
    from django.db import connection

    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>12,.0f}"
