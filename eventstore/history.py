"""Reading the events back: a stream, a page by position, a casino's chain, its export.

The replay's read (pages of many thousands, read ahead on a second connection) is ``replay``'s.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from datetime import datetime
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections

from . import wire
from .records import RecordedEvent

_SELECT = """
SELECT position, stream, version, event_type, schema_version, data, metadata, recorded_at,
       prev_hash, hash, sequence
FROM event
"""


def _row(row: tuple[Any, ...]) -> RecordedEvent:
    # Django's psycopg setup hands jsonb back as text (JSONField parses it): parse it here.
    (position, stream, version, event_type, schema_version, data, meta, at, prev, digest,
     sequence) = row
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
        sequence,
    )


def read_stream(stream: str) -> list[RecordedEvent]:
    with connection.cursor() as cursor:
        cursor.execute(_SELECT + " WHERE stream = %s ORDER BY version", [stream])
        return [_row(r) for r in cursor.fetchall()]


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


def read_chain(casino: str, first: int = 1, last: int | None = None, *,
               page_size: int = 5000) -> Iterator[RecordedEvent]:
    """``casino``'s chain from its event ``first`` to ``last`` (sequence numbers, both included;
    to its end without ``last``), in order, one page in memory at a time."""
    sql = _SELECT + " WHERE casino_id = %s AND sequence >= %s AND sequence <= %s " \
        "ORDER BY sequence LIMIT %s"
    upper = last if last is not None else 2**62
    while first <= upper:
        with connection.cursor() as cursor:
            cursor.execute(sql, [casino, first, upper, page_size])
            page = [_row(r) for r in cursor.fetchall()]
        if not page:
            return
        yield from page
        first = page[-1].sequence + 1


# The exported event (``RecordedEvent.as_export``) as PostgreSQL writes it: JSON text ready to
# write, with ``recorded_at`` as ``hashing.format_time`` writes it. Key order and spacing differ
# from ``json.dumps``; the values are the same (jsonb's own text for data and metadata), and the
# hash is computed over their canonical JSON, never over this text.
_EXPORT_LINE = """
SELECT event_type, json_build_object(
    'position', position, 'sequence', sequence, 'stream', stream, 'version', version,
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
