"""Append to and read from the event store.

Design overview
---------------
``append`` is the only function that writes events. It runs inside the caller's transaction (the
event store is the unit of work), so the events, the live projections they update and the
command's idempotency record commit or roll back together.

The global-position trap. A reader that follows the store by position (``WHERE position > last
ORDER BY position``) must never skip an event. With a plain sequence, transaction A can take
position 7, transaction B take 8 and commit first; a follower that reads 8 and moves its cursor
past it never sees 7 when A commits a moment later. We avoid the trap by handing positions out
under one transaction-scoped advisory lock (``pg_advisory_xact_lock``), the position lock, held
until the appending transaction commits or rolls back: positions are handed out in commit order,
with no gaps. PostgreSQL makes a commit visible before it releases the transaction's locks, so
the next appender always sees the previous one's rows. This is the same choice as the
eventsourcing library's ``LOCK TABLE ... IN EXCLUSIVE MODE``; see docs/adr/0002-global-position.md
and https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS.

One chain per casino, and the two locks. Each casino's events chain among themselves (``sequence``
and ``prev_hash``: the casino's event before), so a command takes its casino's append lock first
(``append_lock_key``: its reads and checks wait for no other casino), and an append takes the
position lock second, as late as it can: an event's position is hashed and the projections
record it, so it is known before the INSERT, and a gapless position known before commit can only
be handed out by someone who waits for the previous holder's commit or rollback. So casinos wait
for each other from an append to its commit, never while a command reads and checks. One order
everywhere: a casino's lock, then the position lock (a command appends to its own casino's chain
only: ``append`` refuses another, which would take a casino's lock after the position lock).
docs/adr/0007-one-chain-per-casino.md.

No round trip for the head. A command's first round trip reads, with its casino's lock, where
its first append goes: the casino's last sequence and hash (exact under that lock) and the
store's last position (a guess). The append's INSERT takes the position lock and checks the
guess (``event_append_at``); should another casino have appended meanwhile, nothing of the
append is left and the store reads the head under the position lock and appends again, hashed
anew. docs/adr/0010-head-with-the-lock.md.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction

from casino.errors import Conflict, gettext_noop
from eventstore import clock

from . import unit, wire
from .answers import as_data
from .events import Event
from .hashing import GENESIS_HASH, ChainHasher, canonical_text, format_time
from .projections import apply_live, handled
from .records import Metadata, RecordedEvent

# pg_advisory_xact_lock key for "handing out global positions" (ASCII "casino").
POSITION_LOCK_KEY = 0x636173696E6F


@functools.lru_cache(maxsize=256)
def append_lock_key(casino: str) -> int:
    """The pg_advisory_xact_lock key of appending to ``casino``'s chain: the first 8 bytes of
    SHA-256 of ``append:<casino>``, signed. Two casinos that shared a key would only wait for
    each other (the chain trigger checks each casino's chain whatever the lock)."""
    key = int.from_bytes(hashlib.sha256(f"append:{casino}".encode()).digest()[:8], "big",
                         signed=True)
    return key if key != POSITION_LOCK_KEY else key + 1


# Where the next append goes (the store's last position, the casino's last sequence and hash).
Head = unit.Head


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
            gettext_noop("someone else recorded on this {what} at the same time (expected "
                         "version {expected}, found {actual}); nothing of yours was recorded: "
                         "reload and try again"),
            params={"what": stream.partition("/")[0].replace("_", " "), "expected": expected,
                    "actual": actual},
            stream=stream, expected_version=expected, actual_version=actual, retryable=True,
        )


class DuplicateCommand(EventStoreError, Conflict):
    """The idempotency key was recorded by a concurrent command that committed first."""

    code = "duplicate_command"

    def __init__(self, casino: str, key: str) -> None:
        self.casino = casino
        self.key = key
        Conflict.__init__(self, gettext_noop("idempotency key {key!r} was already used in casino "
                                             "{casino!r}"),
                          params={"key": key, "casino": casino}, key=key)


_APPEND_LOCK_SQL = "SELECT * FROM event_append_begin(%s, %s, %s)"
_APPEND_HEAD_SQL = "SELECT * FROM event_append_head(%s, %s, %s)"
_SHARED = 9  # first position, stream, expected version, metadata, casino, time, first prev_hash,
# first sequence, the position lock's key
_PER_EVENT = 4  # event type, schema version, data, hash


@functools.lru_cache(maxsize=128)
def _insert_sql(rows: int, *, with_record: bool = False, strict: bool = True) -> str:
    """The INSERT of ``rows`` events, with numbered placeholders ($1, $2 ...).

    One statement per append, so the chain trigger runs once per append. The WHERE clause takes
    the position lock and checks that the store's last position is still the one the events
    were hashed after (``event_append_at``, an InitPlan run once, before any row: it fails with
    serialization_failure otherwise, or, not ``strict``, inserts nothing), then the optimistic-concurrency check: the stream must
    still be at the expected version, or nothing is inserted. What the events of an append share is sent once (``_SHARED``: the first
    position, sequence and expected version, from which each row's position, sequence and
    version follow, the stream, metadata, casino, time and the first ``prev_hash``); each row's
    ``prev_hash`` is the hash parameter of the row before it. ``with_record``: the command's idempotency record
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
            f"${n + 3}::jsonb, $4::jsonb, $5, $6::timestamptz, {prev}, ${n + 4}, "
            f"$8::bigint + {row})"
        )
    events = (
        "INSERT INTO event (position, stream, version, event_type, schema_version, data, "
        "metadata, casino_id, recorded_at, prev_hash, hash, sequence) "
        f"SELECT * FROM (VALUES {', '.join(values)}) AS new_event "
        f"WHERE (SELECT event_append_at($9::bigint, $1::bigint - 1, {str(strict).lower()})) "
        "AND (SELECT coalesce(max(version), 0) FROM event WHERE stream = $2) = $3"
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


@dataclasses.dataclass
class Savepoint:
    """A nested command's savepoint, sent first in its first round trip (``begin_command``)."""

    name: str
    sent: bool = False

    def roll_back(self) -> bool:
        """Roll back to it; False where that failed (the caller's transaction must then be
        rolled back whole, as Django's ``atomic`` leaves it)."""
        raw = wire.raw_connection()
        try:
            with psycopg.RawCursor(raw) as cursor:
                cursor.execute(f"ROLLBACK TO SAVEPOINT {self.name}")
        except psycopg.Error:
            return False
        return True


def _take_append_lock(casino: str, key: str, ahead: Sequence[wire.Statement] = (),
                      savepoint: Savepoint | None = None) -> tuple[Any, ...] | None:
    """Take ``casino``'s append lock; return the idempotency key's record, if any.

    One statement (the ``event_append_begin`` function, sql/0005_head_with_the_lock.sql) whose
    query starts after the lock is granted, so what it reads is current for as long as the lock
    is held. The savepoint of a nested command (ADR 0011) and the reads ``ahead`` go in the same
    round trip (a pipeline); the current unit of work keeps their rows for the command. (Where
    the transaction has not begun, psycopg sends its BEGIN first and waits for it: one wait on
    the loopback, far inside the drift; ADR 0011's amendment, superseded.) The same row gives
    the head the command's first append will go after (``UnitOfWork.head``): the casino's last
    sequence and hash, and the store's last position, a guess that the
    append's INSERT checks under the position lock.
    """
    raw = wire.raw_connection()
    cursors: list[psycopg.RawCursor[Any]] = []
    arguments = [append_lock_key(casino), casino, key]
    try:
        with connections[DEFAULT_DB_ALIAS].wrap_database_errors, psycopg.Cursor(raw) as cursor:
            if ahead or savepoint is not None:
                with raw.pipeline():
                    if savepoint is not None:
                        with psycopg.RawCursor(raw) as mark:
                            mark.execute(f"SAVEPOINT {savepoint.name}")
                        savepoint.sent = True
                    cursor.execute(_APPEND_LOCK_SQL, arguments, prepare=True)
                    wire.run_on(raw, ahead, cursors)
            else:
                cursor.execute(_APPEND_LOCK_SQL, arguments, prepare=True)
            row = cursor.fetchone()
            running = unit.current()
            for read, statement in zip(cursors, ahead, strict=True):
                if running is not None:
                    running.read_ahead[(statement[0], tuple(statement[1]))] = read.fetchall()
    finally:
        for read in cursors:
            read.close()
    assert row is not None
    if running is not None and running.in_command and running.casino == casino:
        running.head = Head(row[5] or 0, row[6] or 0, row[7] or GENESIS_HASH, row[8])
        running.head_checked = False
    return None if row[1] is None else tuple(row[1:5])


def _append_head(casino: str) -> Head:
    """Take ``casino``'s lock (re-entrant) and the position lock; where the next append goes."""
    raw = wire.raw_connection()
    with connections[DEFAULT_DB_ALIAS].wrap_database_errors, psycopg.Cursor(raw) as cursor:
        cursor.execute(_APPEND_HEAD_SQL, [append_lock_key(casino), casino, POSITION_LOCK_KEY],
                       prepare=True)
        row = cursor.fetchone()
    assert row is not None
    return Head(row[0] or 0, row[1] or 0, row[2] or GENESIS_HASH, row[3])


def lock_appends(casino: str | None = None) -> None:
    """Hold an append lock for the rest of the transaction (see the module docstring):
    ``casino``'s, or, without a casino, the position lock, which every casino's appends wait for
    (a rebuild of the projections; it must not append afterwards).

    A command holds its casino's lock from its first round trip (``commands.command``): nothing
    to do then."""
    running = unit.current()
    if running is not None and running.in_command:
        return
    if casino is None:
        wire.send([("SELECT event_position_lock(%s)", [POSITION_LOCK_KEY])])
        return
    _take_append_lock(casino, "")


def begin_command(work: unit.UnitOfWork, casino: str, key: str,
                  ahead: Sequence[wire.Statement] = (), savepoint: Savepoint | None = None
                  ) -> tuple[Any, ...] | None:
    """A command's first round trip: its casino's append lock, the idempotency look-up and the
    reads ``ahead``. Returns the key's record if the key was used before.

    The look-up runs after the lock is granted, so it is the truth until this transaction ends.
    """
    work.casino = casino
    return _take_append_lock(casino, key, ahead, savepoint)


def _head_for_append(metadata: Metadata, work: unit.UnitOfWork | None) -> Head:
    """Where this append goes. Inside a command, the head its first round trip read with the
    casino's lock (or its previous append left): no round trip. Outside, read holding the
    casino's lock and the position lock (one round trip).

    Should the head ever be stale, the INSERT's position check (``event_append_at``), the
    primary key and the chain trigger refuse the insert: nothing wrong can be recorded.
    """
    in_command = work is not None and work.in_command
    if in_command:
        assert work is not None
        if work.casino != metadata.casino:
            raise EventStoreError(
                f"command {work.command} of casino {work.casino!r} appends to casino "
                f"{metadata.casino!r}: a command records on its own casino's chain only")
        if work.head is not None:
            return work.head
    elif metadata.idempotency_key:
        found = _take_append_lock(metadata.casino, metadata.idempotency_key)
        if found is not None:
            raise DuplicateCommand(metadata.casino, metadata.idempotency_key)
    return _append_head(metadata.casino)


def append(
    stream: str,
    events: Sequence[Event],
    *,
    expected_version: int,
    metadata: Metadata,
    answer: object = None,
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
    if work is None or not work.in_command:
        head = _head_for_append(metadata, work)
        alone, params = _prepared(stream, events, expected_version, metadata, head)
        # The INSERT first: a stale version is refused before any projection runs.
        (rowcount,) = wire.send([(_insert_sql(len(events)), params)])
        if rowcount != len(events):
            raise ConcurrencyError(stream, expected_version, stream_version(stream))
        _apply_live(alone)
        return alone

    # A command took its casino's lock before it read anything, so it read the stream's current
    # version and its casino's chain head: its INSERT can wait for the end of the live
    # projections and go in one pipeline with the writes they made. The store's last position
    # it read then is a guess until an append of the command has found it right under the
    # position lock (``event_append_at``, in the INSERT): should another casino have appended
    # meanwhile, the INSERT writes nothing (alone, it inserts no row; followed by the
    # projections' writes, it fails, and the savepoint they all went in is rolled back), and the
    # store reads the head under the position lock and appends again, hashed anew. From then on
    # the command holds the position lock, and each append leaves the head for the next.
    guessed = not work.head_checked
    head = _head_for_append(metadata, work)
    recorded: list[RecordedEvent] | None
    try:
        recorded = _append_in_command(stream, events, expected_version, metadata, answer, work,
                                      head, guessed=guessed)
    except DatabaseError as error:
        if not (guessed and _head_moved(error)):
            raise
        recorded = None
    if recorded is None:  # another casino appended since the head was read: after it, then
        work.head = _append_head(metadata.casino)
        recorded = _append_in_command(stream, events, expected_version, metadata, answer, work,
                                      work.head, guessed=False)
        assert recorded is not None
    last = recorded[-1]
    work.head = Head(last.position, last.sequence, last.hash, last.recorded_at)
    work.head_checked = True
    return recorded


_SAVEPOINT = ("SAVEPOINT event_append", ())
_RELEASE = ("RELEASE SAVEPOINT event_append", ())
_ROLLBACK = ("ROLLBACK TO SAVEPOINT event_append", ())


def _append_in_command(stream: str, events: Sequence[Event], expected_version: int,
                       metadata: Metadata, answer: object, work: unit.UnitOfWork,
                       head: Head, *, guessed: bool) -> list[RecordedEvent] | None:
    """The append of a command at ``head``: its INSERT, the idempotency record if ``answer``
    is the command's, and the projections' writes, in one pipeline. None when ``head`` was
    ``guessed`` and another casino has appended since (nothing of this append is left).

    A guessed head's INSERT alone (no projection handles the events) inserts nothing if the
    head moved; with the projections' writes after it, it fails, and the savepoint around them
    all is rolled back."""

    recorded, params = _prepared(stream, events, expected_version, metadata, head)
    slot = work.answer
    inserted_rows = len(events)
    with_record = answer is not None and slot is not None
    if with_record:
        assert slot is not None
        if slot.answered is not None:
            raise EventStoreError("a command gives its answer to one append only")
        # The command's record goes in the INSERT itself (only if the events do): the
        # statement then inserts one row, the record, or none.
        params += record_values(slot, answer)
        inserted_rows = 1
    if guessed and not handled(recorded):
        insert = _insert_sql(len(events), with_record=with_record, strict=False)
        inserted: int | None = wire.send([(insert, params)])[0]
        if inserted != inserted_rows and _append_head(metadata.casino).position != head.position:
            return None
    elif guessed:
        insert = _insert_sql(len(events), with_record=with_record)
        try:
            inserted = _apply_live(recorded, first=[_SAVEPOINT, (insert, params)],
                                   then=[_RELEASE])
        except BaseException:
            _roll_back_savepoint()
            raise
    else:
        insert = _insert_sql(len(events), with_record=with_record)
        inserted = _apply_live(recorded, first=[(insert, params)])
    if inserted != inserted_rows:
        # A stale version (a caller's mistake): nothing is inserted, and the projections' writes
        # are rolled back with the transaction, or the savepoint around the append.
        actual = stream_version(stream)
        transaction.set_rollback(True)
        raise ConcurrencyError(stream, expected_version, actual)
    if with_record:
        assert slot is not None
        slot.answered = answer
    return recorded


def _roll_back_savepoint() -> None:
    """Undo the append's savepoint after a failure (best effort: the error on its way out is
    the one the caller sees; should the connection be gone, the transaction goes with it)."""
    raw = wire.raw_connection()
    try:
        with psycopg.Cursor(raw) as cursor:
            cursor.execute(_ROLLBACK[0])
            cursor.execute(_RELEASE[0])
    except psycopg.Error:
        pass


def _head_moved(error: BaseException) -> bool:
    """Whether ``error`` is the INSERT's refusal of a stale last position (``event_append_at``)."""
    cause = error.__cause__ if isinstance(error.__cause__, psycopg.Error) else error
    return (isinstance(cause, psycopg.Error) and cause.sqlstate == "40001"
            and cause.diag.message_hint == "event_append_at")


def _prepared(stream: str, events: Sequence[Event], expected_version: int, metadata: Metadata,
              head: Head) -> tuple[list[RecordedEvent], list[Any]]:
    """The recorded events of an append after ``head``, hashed, and the INSERT's parameters."""
    position = head.position
    prev_hash = head.hash
    # A casino's recorded_at never goes back within its chain (issue 34): a clock that stepped
    # back stamps the casino's last moment, so folds by time and by position agree.
    recorded_at = clock.now()
    if head.recorded_at is not None and recorded_at < head.recorded_at:
        recorded_at = head.recorded_at
    stamp = format_time(recorded_at)
    meta = metadata.as_dict()
    meta_json = canonical_text(meta)
    chain_hash = ChainHasher(stream=stream, recorded_at=stamp, metadata_json=meta_json)
    recorded: list[RecordedEvent] = []
    params: list[Any] = [position + 1, stream, expected_version, meta_json, metadata.casino,
                         recorded_at, prev_hash, head.sequence + 1, POSITION_LOCK_KEY]
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
            sequence=head.sequence + offset,
        )
        item.__dict__["event"] = event  # already decoded: spare the upcast on the live path
        recorded.append(item)
        prev_hash = digest
    return recorded, params


def _apply_live(recorded: list[RecordedEvent], *, first: Sequence[wire.Statement] = (),
                then: Sequence[wire.Statement] = ()) -> int | None:
    # Server-side binding (``wire`` rather than Django's client-side cursor): the values
    # travel as parameters and the statement, one per batch size, is prepared once.

    return apply_live(recorded, first=first, then=then)


def record_values(answer_slot: unit.Answer, answer: Any) -> list[Any]:
    """The idempotency record's casino, key, command, fingerprint and answer (canonical JSON)."""
    return [answer_slot.casino, answer_slot.key, answer_slot.command, answer_slot.digest,
            canonical_text(as_data(answer))]


def stream_version(stream: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(version), 0) FROM event WHERE stream = %s", [stream])
        return int(cursor.fetchone()[0])
