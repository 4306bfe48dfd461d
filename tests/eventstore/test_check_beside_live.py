"""``rebuild_projections --check`` rebuilds beside the live tables, on a snapshot: while it runs,
commands commit and screens read the live tables, and it reports what its snapshot held
(ADR 0016). Two real connections: the check's, and a command's on a thread of its own."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
from django.db import connection, connections

import eventstore
from casino.context import system_metadata
from casino.models import Casino
from casino.services.casinos import casino_change_settings
from eventstore import compare, projections

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("casinos")]


def _live_casinos() -> list[tuple[str, str, int, int]]:
    """The casinos' projection rows as another connection reads them (what a screen sees)."""
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as other:
        rows = other.execute("SELECT code, name, gaming_day_closes_at, version "
                             "FROM casino_casino ORDER BY code").fetchall()
    return [tuple(row) for row in rows]


def _closes_at(rows: list[tuple[Any, ...]]) -> list[tuple[str, int]]:
    """A difference's casino rows as (code, the hour its gaming day closes)."""
    names = [f.attname for f in compare._compared_columns(Casino)]
    return [(row[names.index("code")], row[names.index("gaming_day_closes_at")]) for row in rows]


def _on_a_thread(work: Any) -> tuple[threading.Thread, list[Any]]:
    """Start ``work`` on another thread (its own connection); the thread, and the list that
    will hold what ``work`` returned or raised."""
    done: list[Any] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as error:  # given back to the test
            done.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, done


def test_a_command_commits_and_a_screen_reads_while_a_check_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The check is held mid-replay (its copy of the live rows made, its own tables made, the
    # events being replayed). Before ADR 0016 it held the position lock and had emptied the
    # live tables: the command waited for the check, and a screen's read for its TRUNCATE.
    replaying, release = threading.Event(), threading.Event()
    replay = compare.replay

    def held(*args: Any, **kwargs: Any) -> int:
        replaying.set()
        assert release.wait(30), "the test never let the check go on"
        return replay(*args, **kwargs)

    monkeypatch.setattr(compare, "replay", held)
    checker, checked = _on_a_thread(eventstore.check)
    try:
        assert replaying.wait(30), "the check never reached its replay"
        command, outcome = _on_a_thread(lambda: casino_change_settings(
            code="macau", name="Casino Lisboa Macau", gaming_day_closes_at=8,
            metadata=system_metadata("macau", job="test")))
        command.join(10)
        assert not command.is_alive(), "the command waited for the check"
        assert not isinstance(outcome[0], BaseException), outcome
        assert ("macau", "Casino Lisboa Macau", 8, 2) in _live_casinos()
    finally:
        release.set()
    checker.join(30)
    assert not checker.is_alive()
    # The check compared the state its snapshot held, which the events rebuild exactly: the
    # command committed meanwhile is neither missed in the live rows nor in the events.
    assert checked == [[]]
    assert _live_casinos() == [("lisboa", "Casino Estoril", 5, 2),
                               ("macau", "Casino Lisboa Macau", 8, 2)]
    assert eventstore.check() == []


def test_the_check_still_finds_a_row_written_behind_the_events_back() -> None:
    Casino.objects.filter(code="lisboa").update(gaming_day_closes_at=9)
    (found,) = eventstore.check(["casino"])
    assert (found.projection, found.table) == ("casino", "casino_casino")
    assert _closes_at(found.only_live) == [("lisboa", 9)]
    assert _closes_at(found.only_rebuilt) == [("lisboa", 5)]
    # and the live row is left as it was: the check changes nothing
    assert ("lisboa", "Casino Estoril", 9, 2) in _live_casinos()


def test_after_a_check_this_connections_statements_write_the_live_tables_again() -> None:
    # The check's tables shadow the live ones under the same names, and every statement planned
    # before is looked up again (DISCARD PLANS). After its roll-back the same connection's
    # statements, prepared ones included (the command's own, run often enough before and
    # during the check to be prepared), must find the live tables again.
    for closes in (1, 2, 3, 4, 5, 6):
        casino_change_settings(code="macau", gaming_day_closes_at=closes,
                               metadata=system_metadata("macau", job="test"))
    assert eventstore.check() == []
    casino_change_settings(code="macau", gaming_day_closes_at=9,
                           metadata=system_metadata("macau", job="test"))
    assert ("macau", "Casino Macau", 9, 8) in _live_casinos()
    assert Casino.objects.get(code="macau").gaming_day_closes_at == 9
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relpersistence = 't'")
        assert cursor.fetchone()[0] == 0  # the check's temporary tables went with it
    assert eventstore.check() == []


def test_a_check_of_one_casino_compares_that_casinos_rows_only() -> None:
    Casino.objects.filter(code="macau").update(gaming_day_closes_at=11)  # the other casino
    assert eventstore.check(["casino"], casino="lisboa") == []
    (found,) = eventstore.check(["casino"], casino="macau")
    assert _closes_at(found.only_live) == [("macau", 11)]
    assert _closes_at(found.only_rebuilt) == [("macau", 7)]


def test_a_check_in_a_session_that_has_temporary_tables_already_replays_into_its_own() -> None:
    # Inside a caller's transaction (the check holds the position lock there), in a session
    # whose temporary schema exists already: the check still finds the drift, and leaves the
    # caller's own writes as they were.
    from django.db import transaction

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMPORARY TABLE scratch (n int) ON COMMIT DROP")
        for closes in (1, 2, 3, 4, 5, 6):
            casino_change_settings(code="macau", gaming_day_closes_at=closes,
                                   metadata=system_metadata("macau", job="test"))
        Casino.objects.filter(code="lisboa").update(gaming_day_closes_at=9)
        (found,) = eventstore.check(["casino"])
        assert _closes_at(found.only_live) == [("lisboa", 9)]
        assert _closes_at(found.only_rebuilt) == [("lisboa", 5)]
        assert Casino.objects.get(code="macau").gaming_day_closes_at == 6


def test_a_statement_prepared_before_the_check_reads_the_checks_table_once_it_exists() -> None:
    # A statement the server prepared while the session's temporary schema existed already names
    # the live table; making a temporary table of the same name does not change the search path.
    # The check has every statement looked up again (DISCARD PLANS) once its tables exist.
    from django.conf import settings
    from django.db import transaction

    casino = projections.registry.projections["casino"]
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMPORARY TABLE scratch (n int) ON COMMIT DROP")
            for _ in range(settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"] + 1):
                cursor.execute("SELECT count(*) FROM casino_casino WHERE code <> %s", ["-"])
                assert cursor.fetchone()[0] == 2  # the live rows; prepared by now
            cursor.execute("SELECT count(*) FROM pg_prepared_statements "
                           "WHERE statement LIKE '%%casino_casino WHERE code <> $1%%'")
            assert cursor.fetchone()[0] == 1
            compare._shadow([casino])
            cursor.execute("SELECT count(*) FROM casino_casino WHERE code <> %s", ["-"])
            assert cursor.fetchone()[0] == 0  # the check's own table, empty
        transaction.set_rollback(True)
    assert Casino.objects.count() == 2
