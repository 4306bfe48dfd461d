"""A request's budget (issue 35, finding 5): under gunicorn (``config.wsgi``) the database cuts a
web request's statement at the budget, and the cut is an answer, never a 500; any request past
the budget is logged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_the_wsgi_application_cuts_statements_at_the_budget_and_manage_py_does_not() -> None:
    env = {**os.environ, "REQUEST_BUDGET_SECONDS": "7", "DEBUG": "1"}
    env.pop("DATABASE_STATEMENT_TIMEOUT_SECONDS", None)
    show = ("from django.conf import settings; "
            "print(settings.DATABASES['default']['OPTIONS'].get('options', 'none'))")
    web = subprocess.run([sys.executable, "-c", "import config.wsgi; " + show], cwd=ROOT,
                         env=env, capture_output=True, text=True, check=True)
    other = subprocess.run([sys.executable, "-c", "import django, os; os.environ.setdefault("
                            "'DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup(); "
                            + show], cwd=ROOT, env=env, capture_output=True, text=True,
                           check=True)
    assert web.stdout.strip() == "-c statement_timeout=7000"  # 7 s, in milliseconds
    assert other.stdout.strip() == "none"


def test_a_web_worker_has_its_views_loaded_before_its_first_request() -> None:
    """The first request to a new gunicorn worker does not wait for the URLconf's imports
    (1.15 s on the development machine: docs/benchmarks.md, 2026-12-07)."""
    env = {**os.environ, "DEBUG": "1"}
    loaded = ("import sys; print(sorted(m for m in ('config.urls', 'games.api.urls', "
              "'regulator.views', 'cage.web.views') if m in sys.modules))")
    web = subprocess.run([sys.executable, "-W", "ignore", "-c", "import config.wsgi; " + loaded],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert web.stdout.strip() == str(sorted(
        ["config.urls", "games.api.urls", "regulator.views", "cage.web.views"]))


def test_a_statement_cut_by_the_database_is_a_503_with_retry_after() -> None:
    from edge.api.errors import domain_error_of

    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = 50")
        with pytest.raises(Exception) as cut:  # noqa: PT011 - the database's own error
            cursor.execute("SELECT pg_sleep(2)")
    refusal = domain_error_of(cut.value)
    assert refusal is not None
    assert (refusal.http_status, refusal.code) == (503, "unavailable")


def test_a_request_past_its_budget_is_logged(settings, caplog: pytest.LogCaptureFixture) -> None:
    settings.REQUEST_BUDGET_SECONDS = -1  # every request is past it
    with caplog.at_level("WARNING", logger="casino.budget"):
        Client().get("/accounts/login/")
    assert any("over its budget" in r.getMessage() and "/accounts/login/" in r.getMessage()
               for r in caplog.records)
