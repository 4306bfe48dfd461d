"""Moving a casino from one cell to another, its chain whole (docs/cells.md, § Moving a casino).

Run in the target cell, given the source cell's database. In the source, the casino is closed
first (``cells_moved_out``: its append lock taken, so no append is in flight; a trigger refuses
any later event of it). Its chain is read and verified there, then appended here in one
transaction: each event at this database's next position (its gapless key), keeping its
``(casino, sequence)``, ``prev_hash`` and ``hash``, with the position it was appended at as
``recorded_position`` (the hash covers that one: docs/event-hash.md, § Cells). The platform's
projections are run on the carried events; its idempotency records (``command_record``) and the
files its closes kept (``reporting_sealed_file``) are carried with them; the chain is verified
here, and this cell's publications set again: the stores, which received the carried events
from the source, follow the casino here from its next event (the carried ones are not
published again).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import psycopg
from django.db import connection, transaction

from casino.jurisdictions import Jurisdiction
from eventstore.hashing import GENESIS_HASH
from eventstore.records import RecordedEvent
from eventstore.store import POSITION_LOCK_KEY, append_lock_key
from eventstore.verify import recomputed_hash, verify_casino_chain

from .follower import apply
from .replication import publication_name, publish

PAGE = 5000
_COLUMNS = ("position, stream, version, event_type, schema_version, data::text, metadata::text, "
            "recorded_at, prev_hash, hash, sequence, coalesce(recorded_position, position)")


class MoveRefused(Exception):
    """The casino cannot be moved as asked; nothing was carried."""


@dataclasses.dataclass(frozen=True)
class Moved:
    casino: str
    events: int
    last_sequence: int
    last_hash: str
    command_records: int = 0
    sealed_files: int = 0


def _close_in_source(source: psycopg.Connection[Any], casino: str, to_cell: str) -> None:
    """The casino's last event in the source, under its append lock, recorded as moved out."""
    with source.transaction():
        source.execute("SELECT pg_advisory_xact_lock(%s)", [append_lock_key(casino)])
        last = source.execute("SELECT sequence, hash FROM event WHERE casino_id = %s "
                              "ORDER BY sequence DESC LIMIT 1", [casino]).fetchone()
        if last is None:
            raise MoveRefused(f"the source cell holds no event of casino {casino!r}")
        source.execute("INSERT INTO cells_moved_out (casino_id, to_cell, last_sequence, "
                       "last_hash, moved_at) VALUES (%s, %s, %s, %s, now()) "
                       "ON CONFLICT (casino_id) DO NOTHING", [casino, to_cell, *last])
        moved = source.execute("SELECT to_cell, last_sequence FROM cells_moved_out "
                               "WHERE casino_id = %s", [casino]).fetchone()
        if moved is None or moved[0] != to_cell or moved[1] != last[0]:
            raise MoveRefused(f"casino {casino!r} moved from the source to {moved} already")


def _carry_command_records(source: psycopg.Connection[Any], casino: str) -> int:
    """The casino's idempotency records (``command_record``), as the source keeps them: a
    command retried here with a key it was answered with there gets that first answer."""
    carried, after = 0, ""
    while True:
        rows = source.execute("SELECT idempotency_key, command, fingerprint, result::text, "
                              "recorded_at FROM command_record WHERE casino_id = %s AND "
                              "idempotency_key > %s ORDER BY idempotency_key LIMIT %s",
                              [casino, after, PAGE]).fetchall()
        if not rows:
            return carried
        with connection.cursor() as cursor:
            cursor.executemany("INSERT INTO command_record (casino_id, idempotency_key, command, "
                               "fingerprint, result, recorded_at) VALUES (%s, %s, %s, %s, "
                               "%s::jsonb, %s)", [(casino, *row) for row in rows])
        carried, after = carried + len(rows), rows[-1][0]


def _carry_sealed_files(source: psycopg.Connection[Any], casino: str) -> int:
    """The files the casino's closes made and kept after each seal (``reporting_sealed_file``:
    the regulator file of a sealed day, served as stored ever after): not a projection, so the
    projections run here would not make them again, and a day's archive made here holds them
    byte for byte as the source made them."""
    rows = source.execute("SELECT gaming_day, name, content, sha256, made_at FROM "
                          "reporting_sealed_file WHERE casino_id = %s ORDER BY gaming_day, name",
                          [casino]).fetchall()
    with connection.cursor() as cursor:
        cursor.executemany("INSERT INTO reporting_sealed_file (casino_id, gaming_day, name, "
                           "content, sha256, made_at) VALUES (%s, %s, %s, %s, %s, %s)",
                           [(casino, *row) for row in rows])
    return len(rows)


def move_casino(casino: str, source_conninfo: str, to_cell: str) -> Moved:
    """Carry ``casino``'s chain from the source cell into this one (see the module)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM event WHERE casino_id = %s UNION ALL SELECT 1 FROM "
                       "command_record WHERE casino_id = %s UNION ALL SELECT 1 FROM "
                       "reporting_sealed_file WHERE casino_id = %s LIMIT 1", [casino] * 3)
        if cursor.fetchone() is not None:
            raise MoveRefused(f"this cell holds events of casino {casino!r} already")
    with psycopg.connect(source_conninfo, autocommit=True) as source:
        _close_in_source(source, casino, to_cell)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT event_position_lock(%s)", [POSITION_LOCK_KEY])
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [append_lock_key(casino)])
                cursor.execute("SELECT coalesce(max(position), 0) FROM event")
                head = int(cursor.fetchone()[0])
            carried, previous, sequence = 0, GENESIS_HASH, 0
            while True:
                rows = source.execute(f"SELECT {_COLUMNS} FROM event WHERE casino_id = %s AND "
                                      "sequence > %s ORDER BY sequence LIMIT %s",
                                      [casino, sequence, PAGE]).fetchall()
                if not rows:
                    break
                events = []
                for row in rows:
                    e = RecordedEvent(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]),
                                      json.loads(row[6]), row[7], row[8], row[9], row[10],
                                      recorded_position=row[11])
                    # verified before: each link and hash as the source recorded them
                    if e.sequence != sequence + 1 or e.prev_hash != previous:
                        raise MoveRefused(f"casino {casino!r}: its event {sequence + 1} does not "
                                          "follow its chain in the source")
                    if recomputed_hash(e) != e.hash:
                        raise MoveRefused(f"casino {casino!r}: its event {e.sequence} does not "
                                          "match its hash in the source")
                    events.append((dataclasses.replace(e, position=head + carried + 1), row))
                    previous, sequence, carried = e.hash, e.sequence, carried + 1
                with connection.cursor() as cursor:
                    cursor.execute("SELECT stream FROM event WHERE stream = ANY(%s) LIMIT 1",
                                   [sorted({e.stream for e, _ in events})])
                    taken = cursor.fetchone()
                    if taken is not None:
                        raise MoveRefused(f"stream {taken[0]!r} of casino {casino!r} exists in "
                                          "this cell already (a stream's name is unique in a "
                                          "cell): nothing was carried")
                    cursor.executemany(
                        "INSERT INTO event (position, stream, version, event_type, "
                        "schema_version, data, metadata, casino_id, recorded_at, prev_hash, hash,"
                        " sequence, recorded_position) VALUES (%s, %s, %s, %s, %s, %s::jsonb, "
                        "%s::jsonb, %s, %s, %s, %s, %s, %s)",
                        [(e.position, e.stream, e.version, e.event_type, e.schema_version,
                          row[5], row[6], casino, e.recorded_at, e.prev_hash, e.hash,
                          e.sequence, e.recorded_position) for e, row in events])
                apply([e for e, _ in events])
            commands = _carry_command_records(source, casino)
            files = _carry_sealed_files(source, casino)
            ((last_sequence, last_hash),) = source.execute(
                "SELECT last_sequence, last_hash FROM cells_moved_out WHERE casino_id = %s",
                [casino]).fetchall()
            # verified after, here: the same chain, the same last hash
            report = verify_casino_chain(casino)
            if not report.ok or report.checked != last_sequence or report.last_hash != last_hash:
                raise MoveRefused(f"casino {casino!r} does not verify in this cell after the "
                                  f"copy: {report.reason or report.last_hash}")
            with connection.cursor() as cursor:
                cursor.execute("SELECT pubname FROM pg_publication")
                published = {name for (name,) in cursor.fetchall()}
            for jurisdiction in Jurisdiction.values:
                if publication_name(jurisdiction) in published:
                    publish(jurisdiction)
    return Moved(casino, carried, int(last_sequence), str(last_hash), commands, files)
