"""A command's first round trip carries the BEGIN of its transaction, with the append lock and
the idempotency look-up (``wire.beginning``): psycopg's own BEGIN, which waits for its answer
before anything else is sent, is held back. Counted on the wire, in libpq's protocol trace."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import DatabaseError, connection
from psycopg import pq

from eventstore import store, wire
from eventstore.commands import run_command
from eventstore.models import CommandRecord, StoredEvent
from eventstore.store import Metadata

from .conftest import counted

pytestmark = pytest.mark.django_db(transaction=True)


def _meta(key: str = "") -> Metadata:
    return Metadata(actor="ana", role="cashier", casino="lisboa", idempotency_key=key)


def _trace(raw: psycopg.Connection[Any], path: Path, work: Callable[[], object]) -> list[str]:
    """What ``work`` sent and got on ``raw``, one protocol message a line."""
    with path.open("w") as out:
        raw.pgconn.trace(out.fileno())
        raw.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            work()
        finally:
            raw.pgconn.untrace()
    return path.read_text().splitlines()


def _round_trips(lines: list[str]) -> list[list[str]]:
    """The statements sent before each answer waited for (a ReadyForQuery ends a round trip)."""
    trips: list[list[str]] = [[]]
    for line in lines:
        text = re.match(r'F\t\d+\t(?:Parse\t "" "([^"]*)"|Query\t "([^"]*)")', line)
        prepared = re.match(r'F\t\d+\tBind\t "" "(_pg3_\d+)"', line)
        if text:
            trips[-1].append(text.group(1) or text.group(2))
        elif prepared:
            trips[-1].append(prepared.group(1))  # a statement prepared before
        elif "\tReadyForQuery\t" in line:
            trips.append([])
    return trips[:-1]


@pytest.fixture
def raw() -> psycopg.Connection[Any]:
    connection.ensure_connection()
    found: psycopg.Connection[Any] = connection.connection
    return found


def _count(stream: str, key: str) -> None:
    """A command that counts two chips on ``stream``, its answer recorded with its events."""

    def handler() -> dict[str, int]:
        store.append(stream, counted(2), expected_version=0, metadata=_meta(key),
                     answer={"counted": 2})
        return {"counted": 2}

    run_command(command="count", metadata=_meta(key), payload={"stream": stream},
                handler=handler)


def test_a_command_begins_its_transaction_in_its_first_round_trip(
        casinos: None, raw: psycopg.Connection[Any], tmp_path: Path) -> None:
    # a first command prepares the statements (psycopg prepares each with a round trip of its
    # own, once per connection); the second is what every later command costs
    _count("cage/C0", "k-0")
    lines = _trace(raw, tmp_path / "trace", lambda: _count("cage/C1", "k-1"))

    trips = _round_trips(lines)
    # three round trips: BEGIN with the lock and the look-up (one prepared statement); the
    # events and the record (another); COMMIT. psycopg's own BEGIN was one more, alone.
    assert len(trips) == 3, trips
    first, events, commit = trips
    assert first[0] == "BEGIN"
    assert len(first) == 2  # BEGIN, then the lock's prepared statement
    assert len(events) == 1
    assert events[0].startswith("_pg3_")
    assert commit == ["COMMIT"]
    assert StoredEvent.objects.filter(stream="cage/C1").count() == 2
    assert CommandRecord.objects.filter(idempotency_key="k-1").count() == 1
    assert raw.autocommit  # Django's autocommit back on after the command


def test_a_command_whose_first_round_trip_fails_leaves_nothing_and_the_connection_usable(
        casinos: None, raw: psycopg.Connection[Any]) -> None:
    before = StoredEvent.objects.count()
    with pytest.raises(DatabaseError, match="division by zero"):
        run_command(command="count", metadata=_meta("k-2"), payload={},
                    handler=lambda: {"never": "run"}, reads=[("SELECT 1 / 0", [])])
    assert raw.info.transaction_status == pq.TransactionStatus.IDLE
    assert raw.autocommit
    assert StoredEvent.objects.count() == before
    assert not CommandRecord.objects.filter(idempotency_key="k-2").exists()
    # the next command runs as usual, its BEGIN in its first round trip again
    _count("cage/C2", "k-2")
    assert StoredEvent.objects.filter(stream="cage/C2").count() == 2


def test_the_begin_keeps_the_connections_isolation_level(tmp_path: Path) -> None:
    # A connection of psycopg's own, not in autocommit, at REPEATABLE READ: the BEGIN sent
    # with the pipeline says so, and psycopg takes the transaction for its own (it commits it).
    params = connection.get_connection_params()
    with psycopg.connect(**params) as raw:
        raw.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        found: list[Any] = []

        def work() -> None:
            with psycopg.Cursor(raw) as cursor:
                with wire.beginning(raw):
                    cursor.execute("SELECT current_setting('transaction_isolation')")
                row = cursor.fetchone()
                assert row is not None
                found.append(row[0])

        trips = _round_trips(_trace(raw, tmp_path / "trace", work))
        assert found == ["repeatable read"]
        assert len(trips) == 1
        assert trips[0][0] == "BEGIN ISOLATION LEVEL REPEATABLE READ"
        assert str(raw.info.transaction_status.name) == "INTRANS"
        assert not raw.autocommit
        raw.commit()  # psycopg's to end: it took the transaction for its own
        assert str(raw.info.transaction_status.name) == "IDLE"
