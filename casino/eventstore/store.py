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
import functools
import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from functools import cached_property
from typing import Any, Protocol

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone

from casino import prepared
from casino.prepared import raw_connection as raw_connection

from .events import JSON, Event, decode
from .hashing import GENESIS_HASH, ChainHasher, canonical_text, format_time

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
        return {"actor": self.actor, "role": self.role, "casino": self.casino,
                "request_id": self.request_id, "causation_id": self.causation_id,
                "correlation_id": self.correlation_id, "idempotency_key": self.idempotency_key}


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


_APPEND_LOCK_SQL = "SELECT * FROM event_append_lock(%s, %s, %s)"
_SHARED = 7  # first position, stream, expected version, metadata, casino, time, first prev_hash
_PER_EVENT = 4  # event type, schema version, data, hash


@functools.lru_cache(maxsize=128)
def _insert_sql(rows: int, *, with_record: bool = False) -> str:
    """The INSERT of ``rows`` events, with numbered placeholders ($1, $2 ...).

    One statement per append, so the chain trigger runs once per append. The WHERE clause is the
    optimistic-concurrency check: the stream must still be at the expected version, or nothing
    is inserted. What the events of an append share is sent once (``_SHARED``: the first
    position and the expected version, from which each row's position and version follow, the
    stream, metadata, casino, time and the first ``prev_hash``); each row's ``prev_hash`` is the
    hash parameter of the row before it. ``with_record``: the command's idempotency record
    (five more parameters) is inserted by the same statement, if and only if the events are.
    Numbered placeholders go to PostgreSQL as they are
    (``psycopg.RawCursor``): psycopg parses ``%s`` queries with over 50 parameters on every call,
    which cost more than the insert. (Column arrays through unnest() were measured slower than
    VALUES rows.)
    """
    values = []
    for row in range(rows):
        n = _SHARED + row * _PER_EVENT
        prev = "$7" if row == 0 else f"${n}"  # the hash of the row before
        values.append(
            f"($1::bigint + {row}, $2, $3::integer + {row + 1}, ${n + 1}, ${n + 2}::smallint, "
            f"${n + 3}::jsonb, $4::jsonb, $5, $6::timestamptz, {prev}, ${n + 4})"
        )
    events = (
        "INSERT INTO event (position, stream, version, event_type, schema_version, data, "
        "metadata, casino_id, recorded_at, prev_hash, hash) "
        f"SELECT * FROM (VALUES {', '.join(values)}) AS new_event "
        "WHERE (SELECT coalesce(max(version), 0) FROM event WHERE stream = $2) = $3"
    )
    if not with_record:
        return events
    n = _SHARED + rows * _PER_EVENT
    return (
        f"WITH new_events AS ({events} RETURNING 1) "
        "INSERT INTO command_record (casino_id, idempotency_key, command, fingerprint, result, "
        f"recorded_at) SELECT ${n + 1}, ${n + 2}, ${n + 3}, ${n + 4}, ${n + 5}::jsonb, now() "
        f"WHERE (SELECT count(*) FROM new_events) = {rows}"
    )


@dataclasses.dataclass(frozen=True)
class _Head:
    """The last event when this transaction took the append lock: where the next append goes."""

    position: int
    hash: str


def _take_append_lock(casino: str, key: str, ahead: Sequence[prepared.Statement] = ()
                      ) -> tuple[_Head, tuple[Any, ...] | None]:
    """Take the append lock; return the head of the store and the key's record, if any.

    One statement (the ``event_append_lock`` function, sql/0002_append_lock.sql) whose query
    starts after the lock is granted, so what it reads is current for as long as the lock is
    held. When the transaction has not started yet, its BEGIN goes in the same round trip, and
    so do the reads ``ahead`` (``prepared.remember`` keeps their rows for the command).
    """
    raw = raw_connection()
    cursors: list[psycopg.RawCursor[Any]] = []
    try:
        with connections[DEFAULT_DB_ALIAS].wrap_database_errors, psycopg.Cursor(raw) as cursor:
            if ahead or raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
                with raw.pipeline():
                    cursor.execute(_APPEND_LOCK_SQL, [APPEND_LOCK_KEY, casino, key],
                                   prepare=True)
                    prepared.run_on(raw, ahead, cursors)
            else:
                cursor.execute(_APPEND_LOCK_SQL, [APPEND_LOCK_KEY, casino, key], prepare=True)
            row = cursor.fetchone()
            for read, statement in zip(cursors, ahead, strict=True):
                prepared.remember(statement, read.fetchall())
    finally:
        for read in cursors:
            read.close()
    assert row is not None
    head = _Head(row[1] or 0, row[2] or GENESIS_HASH)
    return head, (None if row[3] is None else tuple(row[3:]))


def lock_appends() -> None:
    """Take the append lock for the rest of the transaction (see the module docstring)."""
    _take_append_lock("", "")


class CommandScope:
    """What ``run_command`` knows while its handler runs, kept on the connection as one
    attribute (``casino_command``): the head read under the lock, whether INSERTs may wait for
    the projections, and where the answer goes."""

    __slots__ = ("answer", "head", "insert_may_wait")

    def __init__(self, head: _Head | None, insert_may_wait: bool,
                 answer: AnswerSlot | None) -> None:
        self.head = head
        self.insert_may_wait = insert_may_wait
        self.answer = answer


def lock_and_find_command(casino: str, key: str, *, reads_under_lock: bool = False,
                          answer: AnswerSlot | None = None,
                          ahead: Sequence[prepared.Statement] = ()) -> tuple[Any, ...] | None:
    """Take the append lock and look up an idempotency key, in one round trip.

    The lookup runs after the lock is granted, so it is the truth until this transaction ends:
    ``run_command`` calls it first, and the head it read saves the command's first append a round
    trip (``_head_for_append``). ``reads_under_lock``: the command reads everything it decides on
    from here on, so the stream versions it appends at are current, and its INSERTs may wait for
    the live projections and travel with their writes (``append``). ``answer``: where
    ``append(answer=…)`` puts the command's answer. ``ahead``: the first reads of the command,
    sent in the same round trip (``prepared.remember``).
    """
    head, found = _take_append_lock(casino, key, ahead)
    connections[DEFAULT_DB_ALIAS].casino_command = CommandScope(  # type: ignore[attr-defined]
        head, reads_under_lock, answer)
    return found


def end_command_scope() -> None:
    """Forget the command's scope (``run_command`` calls it on the way out)."""
    connections[DEFAULT_DB_ALIAS].casino_command = None  # type: ignore[attr-defined]
    prepared.forget()


def _head_for_append(metadata: Metadata, scope: CommandScope | None) -> _Head:
    """Where this append goes, holding the append lock.

    The first append of a command uses the head that ``lock_and_find_command`` read under the
    lock a moment ago (no round trip); any other append takes the lock (re-entrant) and reads the
    head itself. Should the head ever be stale, the primary key and the chain trigger refuse the
    insert: nothing wrong can be recorded.
    """
    if scope is not None and scope.head is not None:
        head = scope.head
        scope.head = None
        return head
    head, found = _take_append_lock(metadata.casino, metadata.idempotency_key)
    # Inside ``run_command`` the key was looked up under the lock this transaction still holds:
    # a record found now is the command's own (written with an earlier append's answer).
    if metadata.idempotency_key and found is not None and scope is None:
        raise DuplicateCommand(metadata.casino, metadata.idempotency_key)
    return head


class AnswerSlot(Protocol):
    """Where a command keeps its answer (``commands.run_command``): ``append(answer=…)`` fills it."""

    answered: JSON | None

    def statement(self, answer: JSON) -> tuple[str, Sequence[Any]]: ...

    def values(self, answer: JSON) -> list[Any]:
        """The record's casino, key, command, fingerprint and answer (canonical JSON)."""
        ...


def append(
    stream: str,
    events: Sequence[Event],
    *,
    expected_version: int,
    metadata: Metadata,
    answer: JSON | None = None,
) -> list[RecordedEvent]:
    """Append ``events`` to ``stream`` if it is still at ``expected_version`` (0: a new stream).

    Must run inside ``transaction.atomic``. Raises ``ConcurrencyError`` (and writes nothing) when
    another writer got there first, ``DuplicateCommand`` when the metadata's idempotency key was
    recorded meanwhile. Applies the live projections before returning.

    ``answer``: a command's last append may give the answer the command will return; inside
    ``run_command`` its idempotency record then travels with the events, not in a statement of
    its own (``run_command`` checks that the command does return it).
    """
    if not events:
        return []
    db = connections[DEFAULT_DB_ALIAS]
    if not db.in_atomic_block:
        raise EventStoreError("append must run inside transaction.atomic()")
    if "/" not in stream:
        raise EventStoreError(f"stream {stream!r} must look like 'type/id'")

    scope: CommandScope | None = getattr(db, "casino_command", None)
    head = _head_for_append(metadata, scope)
    position = head.position
    prev_hash = head.hash
    recorded_at = timezone.now()
    stamp = format_time(recorded_at)
    meta = metadata.as_dict()
    meta_json = canonical_text(meta)
    chain_hash = ChainHasher(stream=stream, recorded_at=stamp, metadata_json=meta_json)
    recorded: list[RecordedEvent] = []
    params: list[Any] = [position + 1, stream, expected_version, meta_json, metadata.casino,
                         recorded_at, prev_hash]
    for offset, event in enumerate(events, start=1):
        position += 1
        version = expected_version + offset
        data = event.to_data()
        data_json = canonical_text(data)
        digest = chain_hash(position=position, version=version, event_type=event.event_type,
                            schema_version=event.schema_version, data_json=data_json,
                            prev_hash=prev_hash)
        params += (event.event_type, event.schema_version, data_json, digest)
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
    # Server-side binding (casino.prepared rather than Django's client-side cursor): the values
    # travel as parameters and the statement, one per batch size, is prepared once.
    from .projections import apply_live  # late import: projections import this module

    slot = scope.answer if scope is not None else None
    inserted_rows = len(events)
    if answer is not None and slot is not None:
        if slot.answered is not None:
            raise EventStoreError("a command gives its answer to one append only")
        # The command's record goes in the INSERT itself (only if the events do): the
        # statement then inserts one row, the record, or none.
        params += slot.values(answer)
        slot.answered = answer
        insert = _insert_sql(len(events), with_record=True)
        inserted_rows = 1
    else:
        insert = _insert_sql(len(events))
    if scope is None or not scope.insert_may_wait:
        # The INSERT first: a stale version is refused before any projection runs.
        (rowcount,) = prepared.send([(insert, params)])
        if rowcount != inserted_rows:
            raise ConcurrencyError(stream, expected_version, stream_version(stream))
        apply_live(recorded)
        return recorded

    # A command that took the append lock before it read anything (``run_command`` with an
    # idempotency key and ``reads_under_lock``) read the stream's current version: its INSERT can
    # wait for the end of the live projections and go in one pipeline with the writes they held
    # back. Should the version still be wrong (a caller's mistake), nothing is inserted and the
    # projections' writes are rolled back with the transaction, or the savepoint around the
    # append.
    inserted = apply_live(recorded, first=(insert, params))
    if inserted != inserted_rows:
        actual = stream_version(stream)
        transaction.set_rollback(True)
        raise ConcurrencyError(stream, expected_version, actual)
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
