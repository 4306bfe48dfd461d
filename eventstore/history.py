"""Reading the events back: a stream, a page by position, a casino's chain, its export.

The replay's read (pages of many thousands, read ahead on a second connection) is ``replay``'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterator
from datetime import datetime
from functools import cached_property
from typing import Any

import orjson
import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from psycopg.types.json import set_json_loads

from . import wire
from .events import JSON
from .records import RecordedEvent

# The metadata as its text, parsed when first read (``ReadEvent``).
_SELECT = """
SELECT position, stream, version, event_type, schema_version, data, metadata::text, recorded_at,
       prev_hash, hash, sequence, recorded_position
FROM event
"""


_FIELDS = tuple(f.name for f in dataclasses.fields(RecordedEvent))
# The driver's own C loader for timestamptz (the session's time zone is UTC, as Django sets it).
TIMESTAMPTZ_LOADER = psycopg.adapters.get_loader(
    psycopg.adapters.types["timestamptz"].oid, psycopg.pq.Format.TEXT)
assert TIMESTAMPTZ_LOADER is not None


def reader_cursor(raw: psycopg.Connection[Any]) -> psycopg.Cursor[Any]:
    """A cursor of the driver's own, with its own loaders rather than those Django sets on its
    connection (which hand jsonb back as text, to be parsed by ``json.loads``, and read every
    timestamp through a Python loader): jsonb parsed by orjson, timestamptz by the C loader.
    The store's reads go through it (the follower's catch-up read most of all:
    ``bench/bench_eventstore.py``'s ``follow``, docs/benchmarks.md)."""
    cursor = psycopg.Cursor(raw)
    set_json_loads(orjson.loads, cursor)
    cursor.adapters.register_loader("timestamptz", TIMESTAMPTZ_LOADER)  # type: ignore[arg-type]
    return cursor


def _stream(sql: str, params: list[Any]) -> Iterator[RecordedEvent]:
    """The events a query of ``_SELECT`` finds, on ``reader_cursor``, prepared (server-side
    binding: the same plan each page), its rows in binary: the server sends the numbers and
    the times as they are stored, not written out as text for the client to parse back (a
    timestamp's text was the dearest column to read after the JSON).

    Each event is made from its row as it is read, and the read keeps none: the page stays in
    the driver's result, not as Python objects. A reader that keeps nothing either (a chain's
    verification, a circulation's sum) leaves the garbage collector nothing to promote; a page
    made at once set off a full collection every 28,000 events or so, a fifth of the read's
    time (docs/benchmarks.md, issue 40)."""
    raw = wire.raw_connection()
    with connections[DEFAULT_DB_ALIAS].wrap_database_errors, reader_cursor(raw) as cursor:
        cursor.execute(sql, params, prepare=True, binary=True)
        for row in cursor:
            yield _row(row)


def _rows(sql: str, params: list[Any]) -> list[RecordedEvent]:
    return list(_stream(sql, params))


class ReadEvent(RecordedEvent):
    """A ``RecordedEvent`` as read from the store, whose metadata is parsed when first read:
    most readers never read it (a bet's handlers, a page of a feed that is filtered by type),
    and parsing every event's cost a sixth of a replay's read (docs/benchmarks.md, 2026-12-04).
    Equal to the ``RecordedEvent`` of the same event made any other way, field by field."""

    @cached_property
    def metadata(self) -> JSON:
        parsed: JSON = orjson.loads(self.__dict__.pop("_metadata_text"))
        return parsed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RecordedEvent):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)



_READ_FIELDS = tuple("_metadata_text" if name == "metadata" else name for name in _FIELDS)


def _row(row: tuple[Any, ...]) -> RecordedEvent:
    """A ``ReadEvent`` from a row of ``_SELECT``, field by field, without the frozen
    dataclass's ``__init__`` (which sets each field through ``object.__setattr__``)."""
    made: RecordedEvent = object.__new__(ReadEvent)
    made.__dict__.update(zip(_READ_FIELDS, row, strict=True))
    return made


def read_stream(stream: str) -> list[RecordedEvent]:
    return _rows(_SELECT + " WHERE stream = %s ORDER BY version", [stream])


def read_page(after: int = 0, limit: int = 1000, *, casino: str | None = None) -> list[RecordedEvent]:
    """Events with ``position > after``, in order: a keyset page for followers."""
    if casino is None:
        return _rows(_SELECT + " WHERE position > %s ORDER BY position LIMIT %s", [after, limit])
    return _rows(_SELECT + " WHERE casino_id = %s AND position > %s ORDER BY position LIMIT %s",
                 [casino, after, limit])


def read_casino(casino: str, types: Collection[str], *, before: datetime | None = None,
                after: int = 0, page_size: int = 5000) -> Iterator[RecordedEvent]:
    """A casino's events of ``types``, by position, recorded before ``before`` if given (one
    page in memory at a time)."""
    sql = _SELECT + " WHERE casino_id = %s AND event_type = ANY(%s) AND position > %s"
    if before is not None:
        sql += " AND recorded_at < %s"
    sql += " ORDER BY position LIMIT %s"
    wanted = sorted(types)
    extra = [] if before is None else [before]
    yield from _keyset(sql, lambda after: [casino, wanted, after, *extra, page_size], after,
                       _after_position, page_size)


def read_chain(casino: str, first: int = 1, last: int | None = None, *,
               page_size: int = 5000) -> Iterator[RecordedEvent]:
    """``casino``'s chain from its event ``first`` to ``last`` (sequence numbers, both included;
    to its end without ``last``), in order, one page in memory at a time."""
    sql = _SELECT + " WHERE casino_id = %s AND sequence >= %s AND sequence <= %s " \
        "ORDER BY sequence LIMIT %s"
    upper = last if last is not None else 2**62
    yield from _keyset(sql, lambda first: [casino, first, upper, page_size], first,
                       lambda e: e.sequence + 1, page_size)


# The exported event (``RecordedEvent.as_export``) as PostgreSQL writes it: JSON text ready to
# write, with ``recorded_at`` as ``hashing.format_time`` writes it. Key order and spacing differ
# from ``json.dumps``; the values are the same (jsonb's own text for data and metadata), and the
# hash is computed over their canonical JSON, never over this text. The position is the one the
# hash covers: where the event was appended, which an event carried here from another cell with
# its casino (``cells_move``) keeps as ``recorded_position`` (docs/event-hash.md, § Cells), so a
# day recorded before a move exports from the casino's new cell as from its first.
_EXPORT_LINE = """
SELECT event_type, json_build_object(
    'position', coalesce(recorded_position, position), 'sequence', sequence, 'stream', stream, 'version', version,
    'type', event_type, 'schema_version', schema_version, 'data', data, 'metadata', metadata,
    'recorded_at', to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'prev_hash', prev_hash, 'hash', hash)::text
FROM event WHERE casino_id = %s AND sequence >= %s AND sequence <= %s ORDER BY sequence LIMIT %s
"""


def export_chain(casino: str, first: int, last: int, *, page_size: int = 10_000
                 ) -> Iterator[list[tuple[str, str]]]:
    """``casino``'s events ``first`` to ``last`` (sequence numbers) as exported, a page at a
    time: (event type, the event's JSON text) each, built by the server (a day's archive writes
    tens of thousands of them: no decoding and encoding again here)."""
    raw = wire.raw_connection()
    while first <= last:
        with connections[DEFAULT_DB_ALIAS].wrap_database_errors, psycopg.Cursor(raw) as cursor:
            cursor.execute(_EXPORT_LINE, [casino, first, last, page_size], prepare=True)
            rows: list[tuple[str, str]] = cursor.fetchall()
        if not rows:
            return
        yield rows
        first += len(rows)


def read_all(after: int = 0, page_size: int = 5000) -> Iterator[RecordedEvent]:
    """Every event after ``after``, by position, page by page (constant memory)."""
    sql = _SELECT + " WHERE position > %s ORDER BY position LIMIT %s"
    yield from _keyset(sql, lambda after: [after, page_size], after, _after_position, page_size)


def _after_position(e: RecordedEvent) -> int:
    return e.position


def _keyset(sql: str, params: Callable[[int], list[Any]], start: int,
            next_key: Callable[[RecordedEvent], int], page_size: int) -> Iterator[RecordedEvent]:
    """The events of a keyset query of ``_SELECT``, a page at a time: ``params(key)`` asks for
    the page from ``key`` on, ``next_key`` of a page's last event is the next page's key, and a
    page shorter than ``page_size`` is the last."""
    key = start
    while True:
        read = 0
        for e in _stream(sql, params(key)):
            read += 1
            yield e
        if read < page_size:
            return
        key = next_key(e)



def head_position() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(position), 0) FROM event")
        return int(cursor.fetchone()[0])
