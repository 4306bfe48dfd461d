"""Append to and read from the event store.

Design overview
---------------
``append`` is the only function that writes events. It runs inside the caller's transaction (the
event store is the unit of work), so the events, the live projections they update and the
command's idempotency record commit or roll back together.

The global-position trap. A reader that follows the store by position (``WHERE position > last
ORDER BY position``) must never skip an event. With a plain sequence, transaction A can take
position 7, transaction B take 8 and commit first; a follower that reads 8 and moves its cursor
past it never sees 7 when A commits a moment later. We avoid the trap by serialising appends with
one transaction-scoped advisory lock (``pg_advisory_xact_lock``), held until the appending
transaction commits or rolls back: positions are handed out in commit order, with no gaps, and
the hash chain (each event's hash covers the previous hash) needs that order anyway. PostgreSQL
makes a commit visible before it releases the transaction's locks, so the next appender always
sees the previous one's rows. This is the same choice as the eventsourcing library's
``LOCK TABLE ... IN EXCLUSIVE MODE``; see docs/adr/0002-global-position.md and
https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from functools import cached_property
from typing import Any

import psycopg
from django.db import connection
from django.utils import timezone

from .events import JSON, Event, decode
from .hashing import GENESIS_HASH, canonical_json, event_hash_from_json, format_time

# pg_advisory_xact_lock key for "appending to the event store" (ASCII "casino").
APPEND_LOCK_KEY = 0x636173696E6F


class EventStoreError(Exception):
    """Base of the store's errors."""


class ConcurrencyError(EventStoreError):
    """Someone else wrote to the stream since the caller read it. Nothing was written."""

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        self.stream = stream
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"{stream} was changed by someone else (expected version {expected}, found {actual}); "
            "nothing was recorded: reload and try again"
        )


class DuplicateCommand(EventStoreError):
    """The idempotency key was recorded by a concurrent command that committed first."""

    def __init__(self, casino: str, key: str) -> None:
        self.casino = casino
        self.key = key
        super().__init__(f"idempotency key {key!r} was already used in casino {casino!r}")


@dataclasses.dataclass(frozen=True)
class Metadata:
    """Who did it, for which casino, and why: stored with every event."""

    actor: str
    role: str
    casino: str
    request_id: str = ""
    causation_id: str = ""
    correlation_id: str = ""
    idempotency_key: str = ""

    def as_dict(self) -> dict[str, str]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class RecordedEvent:
    position: int
    stream: str
    version: int
    event_type: str
    schema_version: int
    data: JSON
    metadata: JSON
    recorded_at: datetime
    prev_hash: str
    hash: str

    @cached_property
    def event(self) -> Event:
        """The domain event, read through the upcasters."""
        return decode(self.event_type, self.schema_version, self.data)

    @property
    def stream_type(self) -> str:
        return self.stream.partition("/")[0]

    @property
    def stream_id(self) -> str:
        return self.stream.partition("/")[2]

    def as_export(self) -> JSON:
        """The event as exported (JSON Lines) and as hashed: see docs/event-hash.md."""
        return {
            "position": self.position,
            "stream": self.stream,
            "version": self.version,
            "type": self.event_type,
            "schema_version": self.schema_version,
            "data": self.data,
            "metadata": self.metadata,
            "recorded_at": format_time(self.recorded_at),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


_LOCK_SQL = "SELECT pg_advisory_xact_lock(%s)"
_HEAD_SQL = """
SELECT last.position, last.hash,
       (SELECT max(version) FROM event WHERE stream = %s),
       (SELECT 1 FROM command_record WHERE casino_id = %s AND idempotency_key = %s),
       txid_current()
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (SELECT position, hash FROM event ORDER BY position DESC LIMIT 1) AS last ON true
"""
_LOCK_AND_FIND_SQL = """
SELECT txid_current(), c.idempotency_key, c.command, c.fingerprint, c.result
FROM (SELECT pg_advisory_xact_lock(%s)) AS locked
LEFT JOIN command_record c ON c.casino_id = %s AND c.idempotency_key = %s
"""
# One statement per append, so the chain trigger runs once per append. (Column arrays through
# unnest() were measured slower than VALUES rows here.)
_INSERT_SQL = """
INSERT INTO event (position, stream, version, event_type, schema_version, data, metadata,
                   casino_id, recorded_at, prev_hash, hash)
VALUES """
_ROW_SQL = "(%s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, %s, %s)"


def raw_connection() -> psycopg.Connection[Any]:
    """The psycopg connection under Django's, for server-side binding and prepared statements."""
    connection.ensure_connection()
    raw: psycopg.Connection[Any] = connection.connection
    return raw


def lock_appends() -> None:
    """Take the append lock for the rest of the transaction (see the module docstring)."""
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_SQL, [APPEND_LOCK_KEY])
        cursor.execute("SELECT txid_current()")
        _note_lock(cursor.fetchone()[0])


def lock_and_find_command(casino: str, key: str) -> tuple[Any, ...] | None:
    """Take the append lock and look up an idempotency key in one statement (one round trip).

    The lookup's snapshot may predate the lock, so it can miss a twin that committed while we
    waited; ``append`` looks again once it holds the lock (``DuplicateCommand``).
    """
    with psycopg.Cursor(raw_connection()) as cursor:
        cursor.execute(_LOCK_AND_FIND_SQL, [APPEND_LOCK_KEY, casino, key], prepare=True)
        row = cursor.fetchone()
    assert row is not None
    _note_lock(row[0])
    return None if row[1] is None else tuple(row[1:])


def _note_lock(xid: int) -> None:
    connection.casino_append_lock_xid = xid  # type: ignore[attr-defined]


def _lock_and_read_head(stream: str, metadata: Metadata) -> tuple[Any, ...]:
    """Hold the append lock, then read the head of the store and of the stream.

    The head is read in a statement that starts after the lock is granted: under READ COMMITTED
    its snapshot then holds everything the previous appender committed. When this transaction
    took the lock already (``lock_and_find_command``), the head query alone suffices; the
    transaction id it returns proves the lock belongs to this transaction.
    """
    with psycopg.Cursor(raw_connection()) as cursor:
        held = getattr(connection, "casino_append_lock_xid", None)
        if held is None:
            cursor.execute(_LOCK_SQL, [APPEND_LOCK_KEY], prepare=True)
        cursor.execute(_HEAD_SQL, [stream, metadata.casino, metadata.idempotency_key],
                       prepare=True)
        row = cursor.fetchone()
        assert row is not None
        if held is not None and row[4] != held:  # a lock noted in an earlier transaction
            cursor.execute(_LOCK_SQL, [APPEND_LOCK_KEY], prepare=True)
            cursor.execute(_HEAD_SQL, [stream, metadata.casino, metadata.idempotency_key],
                           prepare=True)
            row = cursor.fetchone()
            assert row is not None
        _note_lock(row[4])
    return tuple(row[:4])


def append(
    stream: str,
    events: Sequence[Event],
    *,
    expected_version: int,
    metadata: Metadata,
) -> list[RecordedEvent]:
    """Append ``events`` to ``stream`` if it is still at ``expected_version`` (0: a new stream).

    Must run inside ``transaction.atomic``. Raises ``ConcurrencyError`` (and writes nothing) when
    another writer got there first, ``DuplicateCommand`` when the metadata's idempotency key was
    recorded meanwhile. Applies the live projections before returning.
    """
    if not events:
        return []
    if not connection.in_atomic_block:
        raise EventStoreError("append must run inside transaction.atomic()")
    if "/" not in stream:
        raise EventStoreError(f"stream {stream!r} must look like 'type/id'")

    last_position, last_hash, stream_version, key_used = _lock_and_read_head(stream, metadata)
    if metadata.idempotency_key and key_used:
        raise DuplicateCommand(metadata.casino, metadata.idempotency_key)
    actual = stream_version or 0
    if actual != expected_version:
        raise ConcurrencyError(stream, expected_version, actual)

    position = last_position or 0
    prev_hash = last_hash or GENESIS_HASH
    recorded_at = timezone.now()
    stamp = format_time(recorded_at)
    meta = metadata.as_dict()
    meta_json = canonical_json(meta).decode()
    recorded: list[RecordedEvent] = []
    params: list[Any] = []
    for offset, event in enumerate(events, start=1):
        position += 1
        version = expected_version + offset
        data = event.to_data()
        data_json = canonical_json(data).decode()
        digest = event_hash_from_json(
            position=position,
            stream=stream,
            version=version,
            event_type=event.event_type,
            schema_version=event.schema_version,
            data_json=data_json,
            metadata_json=meta_json,
            recorded_at=stamp,
            prev_hash=prev_hash,
        )
        params += (position, stream, version, event.event_type, event.schema_version,
                   data_json, meta_json, metadata.casino, recorded_at, prev_hash, digest)
        item = RecordedEvent(
            position=position,
            stream=stream,
            version=version,
            event_type=event.event_type,
            schema_version=event.schema_version,
            data=data,
            metadata=meta,
            recorded_at=recorded_at,
            prev_hash=prev_hash,
            hash=digest,
        )
        item.__dict__["event"] = event  # already decoded: spare the upcast on the live path
        recorded.append(item)
        prev_hash = digest
    # Server-side binding (psycopg.Cursor rather than Django's client-side cursor): the values
    # travel as parameters and the statement, one per batch size, is prepared once.
    with psycopg.Cursor(raw_connection()) as cursor:
        cursor.execute(_INSERT_SQL + ", ".join([_ROW_SQL] * len(events)), params, prepare=True)

    from .projections import apply_live  # late import: projections import this module

    apply_live(recorded)
    return recorded


_SELECT = """
SELECT position, stream, version, event_type, schema_version, data, metadata, recorded_at,
       prev_hash, hash
FROM event
"""


def _row(row: tuple[Any, ...]) -> RecordedEvent:
    # Django's psycopg setup hands jsonb back as text (JSONField parses it): parse it here.
    position, stream, version, event_type, schema_version, data, meta, at, prev, digest = row
    return RecordedEvent(
        position,
        stream,
        version,
        event_type,
        schema_version,
        json.loads(data) if isinstance(data, str) else data,
        json.loads(meta) if isinstance(meta, str) else meta,
        at,
        prev,
        digest,
    )


def read_stream(stream: str) -> list[RecordedEvent]:
    with connection.cursor() as cursor:
        cursor.execute(_SELECT + " WHERE stream = %s ORDER BY version", [stream])
        return [_row(r) for r in cursor.fetchall()]


def stream_version(stream: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(version), 0) FROM event WHERE stream = %s", [stream])
        return int(cursor.fetchone()[0])


def read_page(after: int = 0, limit: int = 1000, *, casino: str | None = None) -> list[RecordedEvent]:
    """Events with ``position > after``, in order: a keyset page for followers."""
    with connection.cursor() as cursor:
        if casino is None:
            cursor.execute(
                _SELECT + " WHERE position > %s ORDER BY position LIMIT %s", [after, limit]
            )
        else:
            cursor.execute(
                _SELECT + " WHERE casino_id = %s AND position > %s ORDER BY position LIMIT %s",
                [casino, after, limit],
            )
        return [_row(r) for r in cursor.fetchall()]


def read_all(after: int = 0, page_size: int = 5000) -> Iterator[RecordedEvent]:
    """Every event after ``after``, by position, page by page (constant memory)."""
    while True:
        page = read_page(after, page_size)
        if not page:
            return
        yield from page
        after = page[-1].position


def head_position() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(position), 0) FROM event")
        return int(cursor.fetchone()[0])
