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
import operator
from collections.abc import Collection, Iterable, Iterator, Sequence
from datetime import datetime
from functools import cached_property
from typing import Any

import orjson
import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone
from psycopg.types.json import set_json_loads

from casino.errors import Conflict

from . import unit, wire
from .events import JSON, Event, decode
from .hashing import GENESIS_HASH, ChainHasher, canonical_text, format_time
from .unit import Head

# pg_advisory_xact_lock key for "appending to the event store" (ASCII "casino").
APPEND_LOCK_KEY = 0x636173696E6F


class EventStoreError(Exception):
    """Base of the store's errors."""


class ConcurrencyError(EventStoreError, Conflict):
    """Someone else wrote to the stream since the caller read it. Nothing was written."""

    code = "concurrent_change"

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        self.stream = stream
        self.expected = expected
        self.actual = actual
        Conflict.__init__(
            self,
            f"someone else recorded on this {stream.partition('/')[0].replace('_', ' ')} at the "
            f"same time (expected version {expected}, found {actual}); nothing of yours was "
            "recorded: reload and try again",
            stream=stream, expected_version=expected, actual_version=actual, retryable=True,
        )


class DuplicateCommand(EventStoreError, Conflict):
    """The idempotency key was recorded by a concurrent command that committed first."""

    code = "duplicate_command"

    def __init__(self, casino: str, key: str) -> None:
        self.casino = casino
        self.key = key
        Conflict.__init__(self, f"idempotency key {key!r} was already used in casino {casino!r}",
                          key=key)


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


def _take_append_lock(casino: str, key: str, ahead: Sequence[wire.Statement] = ()
                      ) -> tuple[Head, tuple[Any, ...] | None]:
    """Take the append lock; return the head of the store and the key's record, if any.

    One statement (the ``event_append_lock`` function, sql/0002_append_lock.sql) whose query
    starts after the lock is granted, so what it reads is current for as long as the lock is
    held. When the transaction has not started yet, its BEGIN goes in the same round trip, and
    so do the reads ``ahead``, whose rows the current unit of work keeps for the command.
    """
    raw = wire.raw_connection()
    cursors: list[psycopg.RawCursor[Any]] = []
    try:
        with connections[DEFAULT_DB_ALIAS].wrap_database_errors, psycopg.Cursor(raw) as cursor:
            if ahead or raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
                with raw.pipeline():
                    cursor.execute(_APPEND_LOCK_SQL, [APPEND_LOCK_KEY, casino, key],
                                   prepare=True)
                    wire.run_on(raw, ahead, cursors)
            else:
                cursor.execute(_APPEND_LOCK_SQL, [APPEND_LOCK_KEY, casino, key], prepare=True)
            row = cursor.fetchone()
            running = unit.current()
            for read, statement in zip(cursors, ahead, strict=True):
                if running is not None:
                    running.read_ahead[(statement[0], tuple(statement[1]))] = read.fetchall()
    finally:
        for read in cursors:
            read.close()
    assert row is not None
    head = Head(row[1] or 0, row[2] or GENESIS_HASH)
    return head, (None if row[3] is None else tuple(row[3:]))


def lock_appends() -> None:
    """Hold the append lock for the rest of the transaction (see the module docstring).

    A command holds it from its first round trip (``commands.command``): nothing to do then."""
    running = unit.current()
    if running is not None and running.in_command:
        return
    _take_append_lock("", "")


def begin_command(work: unit.UnitOfWork, casino: str, key: str,
                  ahead: Sequence[wire.Statement] = ()) -> tuple[Any, ...] | None:
    """A command's first round trip: the append lock, the idempotency look-up and the reads
    ``ahead``. Returns the key's record if the key was used before.

    The look-up runs after the lock is granted, so it is the truth until this transaction ends,
    and the head it read saves the command's first append a round trip (``_head_for_append``).
    """
    head, found = _take_append_lock(casino, key, ahead)
    work.head = head
    return found


def _head_for_append(metadata: Metadata, work: unit.UnitOfWork | None) -> Head:
    """Where this append goes, holding the append lock.

    The first append of a command uses the head that ``begin_command`` read under the lock a
    moment ago (no round trip); any other append takes the lock (re-entrant) and reads the head
    itself. Should the head ever be stale, the primary key and the chain trigger refuse the
    insert: nothing wrong can be recorded.
    """
    head = work.take_head() if work is not None else None
    if head is not None:
        return head
    head, found = _take_append_lock(metadata.casino, metadata.idempotency_key)
    # Inside a command the key was looked up under the lock this transaction still holds: a
    # record found now is the command's own (written with an earlier append's answer).
    in_command = work is not None and work.in_command
    if metadata.idempotency_key and found is not None and not in_command:
        raise DuplicateCommand(metadata.casino, metadata.idempotency_key)
    return head


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
    a command (``commands.command``) its idempotency record then travels with the events, not in
    a statement of its own (the command checks that it does return that answer).
    """
    if not events:
        return []
    db = connections[DEFAULT_DB_ALIAS]
    if not db.in_atomic_block:
        raise EventStoreError("append must run inside transaction.atomic()")
    if "/" not in stream:
        raise EventStoreError(f"stream {stream!r} must look like 'type/id'")

    work = unit.current()
    head = _head_for_append(metadata, work)
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
    # Server-side binding (``wire`` rather than Django's client-side cursor): the values
    # travel as parameters and the statement, one per batch size, is prepared once.
    from .projections import apply_live  # late import: projections import this module

    slot = work.answer if work is not None else None
    inserted_rows = len(events)
    if answer is not None and slot is not None:
        if slot.answered is not None:
            raise EventStoreError("a command gives its answer to one append only")
        # The command's record goes in the INSERT itself (only if the events do): the
        # statement then inserts one row, the record, or none.
        params += record_values(slot, answer)
        slot.answered = answer
        insert = _insert_sql(len(events), with_record=True)
        inserted_rows = 1
    else:
        insert = _insert_sql(len(events))
    if work is None or not work.in_command:
        # The INSERT first: a stale version is refused before any projection runs.
        (rowcount,) = wire.send([(insert, params)])
        if rowcount != inserted_rows:
            raise ConcurrencyError(stream, expected_version, stream_version(stream))
        apply_live(recorded)
        return recorded

    # A command took the append lock before it read anything, so it read the stream's current
    # version: its INSERT can wait for the end of the live projections and go in one pipeline
    # with the writes they made. Should the version still be wrong (a caller's mistake), nothing
    # is inserted and the projections' writes are rolled back with the transaction, or the
    # savepoint around the append.
    inserted = apply_live(recorded, first=(insert, params))
    if inserted != inserted_rows:
        actual = stream_version(stream)
        transaction.set_rollback(True)
        raise ConcurrencyError(stream, expected_version, actual)
    return recorded


def record_values(answer_slot: unit.Answer, answer: Any) -> list[Any]:
    """The idempotency record's casino, key, command, fingerprint and answer (canonical JSON)."""
    return [answer_slot.casino, answer_slot.key, answer_slot.command, answer_slot.digest,
            canonical_text(answer)]


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


def read_casino(casino: str, types: Collection[str], *, before: datetime | None = None,
                after: int = 0, page_size: int = 5000) -> Iterator[RecordedEvent]:
    """A casino's events of ``types``, by position, recorded before ``before`` if given (one
    page in memory at a time)."""
    sql = _SELECT + " WHERE casino_id = %s AND event_type = ANY(%s) AND position > %s"
    if before is not None:
        sql += " AND recorded_at < %s"
    sql += " ORDER BY position LIMIT %s"
    wanted = sorted(types)
    while True:
        params: list[Any] = [casino, wanted, after]
        if before is not None:
            params.append(before)
        with connection.cursor() as cursor:
            cursor.execute(sql, [*params, page_size])
            page = [_row(r) for r in cursor.fetchall()]
        if not page:
            return
        yield from page
        after = page[-1].position


def read_all(after: int = 0, page_size: int = 5000) -> Iterator[RecordedEvent]:
    """Every event after ``after``, by position, page by page (constant memory)."""
    while True:
        page = read_page(after, page_size)
        if not page:
            return
        yield from page
        after = page[-1].position


_TIMESTAMPTZ_LOADER = psycopg.adapters.get_loader(
    psycopg.adapters.types["timestamptz"].oid, psycopg.pq.Format.TEXT)
assert _TIMESTAMPTZ_LOADER is not None


def replay_pages(*, casino: str | None = None, event_types: Iterable[str] | None = None,
                 page_size: int = 10_000) -> Iterator[list[RecordedEvent]]:
    """Every event (or one casino's; or only those of ``event_types``), by position, a page at a
    time: the replay's read, on the driver's own cursor (jsonb parsed by the C decoder, no
    per-row ORM work).

    A page is a range of positions, read without ORDER BY and put in order here: the server
    then needs no sort, whatever its statistics of the table say (a LIMIT page of a table never
    analysed was read by a sort spilled to disk: about half a rebuild's time)."""
    raw = wire.raw_connection()
    head = head_position()
    where, first = ["position > %s AND position <= %s"], list[Any]()
    if casino is not None:
        where.insert(0, "casino_id = %s")
        first.append(casino)
    if event_types is not None:
        where.insert(0, "event_type = ANY(%s)")
        first.insert(0, sorted(event_types))
    query = _SELECT + f" WHERE {' AND '.join(where)}"
    after = 0
    while after < head:
        with connections[DEFAULT_DB_ALIAS].wrap_database_errors, psycopg.Cursor(raw) as cursor:
            # The driver's own loaders, not the ones Django sets on its connection: the C
            # timestamptz loader (the session's time zone is UTC, as Django's), orjson for jsonb.
            set_json_loads(orjson.loads, cursor)
            cursor.adapters.register_loader("timestamptz", _TIMESTAMPTZ_LOADER)  # type: ignore[arg-type]
            cursor.execute(query, [*first, after, after + page_size], prepare=True)
            rows = cursor.fetchall()
        after += page_size
        if rows:
            rows.sort(key=_POSITION)
            yield [_recorded(row) for row in rows]


_POSITION = operator.itemgetter(0)
_FIELDS = tuple(f.name for f in dataclasses.fields(RecordedEvent))


def _recorded(row: tuple[Any, ...]) -> RecordedEvent:
    """A ``RecordedEvent`` from a row of ``_SELECT`` without the frozen dataclass's ``__init__``
    (one ``object.__setattr__`` per field): a rebuild makes one per event of the store."""
    made: RecordedEvent = object.__new__(RecordedEvent)
    made.__dict__.update(zip(_FIELDS, row, strict=True))
    return made


def head_position() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(position), 0) FROM event")
        return int(cursor.fetchone()[0])
