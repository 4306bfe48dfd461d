"""Test-suite wiring.

* With no DATABASE_URL, the tests run on a throwaway embedded PostgreSQL cluster (deleted at exit).
* Without CELERY_BROKER_URL, an embedded Redis from its wheel is the broker
  (``config.pytest_env``, ``config/embedded_redis.py``): the tests marked ``broker`` run on a real
  worker here as in CI; every other test runs its tasks in process (below).
* In CI (CI=true) a skipped test fails the run: nothing may be skipped there.
* ``decimal.FloatOperation`` is trapped so that a float mixing into money fails loudly.
* Hypothesis runs without its per-example deadline: on a loaded two-core machine one example can
  take longer than 200 ms, a timing flake that proves nothing (speed lives in ``bench/``).
"""

from __future__ import annotations

import decimal
import os
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import settings as hypothesis_settings

hypothesis_settings.register_profile("casino", deadline=None, print_blob=True)
hypothesis_settings.load_profile("casino")

if not os.environ.get("DATABASE_URL"):
    os.environ.setdefault(
        "CASINO_EMBEDDED_PGDATA", os.path.join(tempfile.mkdtemp(prefix="casino-test-pg-"), "pgdata")
    )
    os.environ.setdefault("CASINO_EMBEDDED_CLEANUP", "delete")


APPEND_ONLY_TABLES = (
    "event", "command_record", "journal_entry", "journal_line", "ledger_period",
)


def _flush_append_only_tables_too() -> None:
    """Let Django's flush (between transactional tests) empty the append-only tables.

    Those tables refuse TRUNCATE by trigger, as they must in production. Between tests, and only
    here, the flush disables the user triggers of those tables around its TRUNCATE (which the
    owner role the tests run as may do), then enables them again in the same transaction.
    """
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):  # type: ignore[no-untyped-def]
        statements = original(self, style, tables, reset_sequences=reset_sequences,
                              allow_cascade=allow_cascade)
        guarded = [t for t in APPEND_ONLY_TABLES if t in tables]
        if not statements or not guarded:
            return statements
        off = [f'ALTER TABLE "{t}" DISABLE TRIGGER USER;' for t in guarded]
        on = [f'ALTER TABLE "{t}" ENABLE TRIGGER USER;' for t in guarded]
        return off + statements + on

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


_flush_append_only_tables_too()


@pytest.fixture(autouse=True)
def _tasks_in_process_unless_testing_the_broker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run in process in every test but those marked ``broker``, which use a real worker.

    With CELERY_BROKER_URL set (CI), ``task.delay(...).get()`` in an ordinary test would wait for
    a worker that is not there.
    """
    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = request.node.get_closest_marker("broker") is None or eager
    try:
        yield
    finally:
        app.conf.task_always_eager = eager


@pytest.fixture(autouse=True)
def _each_test_in_the_default_language() -> Iterator[None]:
    """A test starts in the default language, whatever the test before it asked for: a request
    in pt-PT leaves its language active in the thread (the locale middleware activates it and
    nothing deactivates it), which turned the next test's English PDF Portuguese."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _trap_float_decimal_mixing() -> Iterator[None]:
    context = decimal.getcontext()
    trapped = context.traps[decimal.FloatOperation]
    context.traps[decimal.FloatOperation] = True
    try:
        yield
    finally:
        context.traps[decimal.FloatOperation] = trapped


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CI") != "true":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped:
        if reporter:
            reporter.write_line(f"CI: {skipped} test(s) were skipped; no test may be skipped in CI")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _patron_master_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixed master key for the patron vault (``compliance``): tests never write a
    development key file. 32 bytes, base64; a test of the key's absence unsets it."""
    import base64

    monkeypatch.setenv("CASINO_PATRON_MASTER_KEY", base64.b64encode(b"k" * 32).decode())


@pytest.fixture
def identified_patron() -> object:
    """Register a (fictional) patron, identified and verified, in a casino: ``make(casino)``
    gives their id. For movements at the anti-money-laundering threshold (docs/patrons.md)."""
    from casino.context import person_metadata
    from casino.models import Role
    from compliance.services import patron_register

    numbers = iter(range(1, 10_000))

    def make(casino: str) -> str:
        result = patron_register(
            metadata=person_metadata(username="rececao", role=Role.CASHIER, casino=casino),
            verified=True, name="Joana Exemplo", document_type="passport",
            document_number=f"X{next(numbers):07d}", document_country="PT",
            date_of_birth="1980-01-01", nationality="PT", address="Avenida 1, Lisboa",
            pep=False, document_image="scans/test.jpg")
        return result.patron_id

    return make
