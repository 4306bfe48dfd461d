"""The regulator's store fed by PostgreSQL's own logical replication (docs/cells.md).

In a cell: one publication per jurisdiction, ``regulator_<pt|mo>``, of the event table only,
insert-only (``publish = 'insert'``: an event is never updated or deleted, and an edit made in a
cell by someone who disabled its triggers never reaches the store, whose copy stays the record)
and row-filtered (PostgreSQL 15+, ``WHERE`` on the publication) to the cell's casinos of that
jurisdiction. The filter's column, ``casino_id``, is in the event row; a row filter of a
publication that publishes only inserts may use any column (the replica identity rule is for
updates and deletes). A row filter may call no user-defined function, so the jurisdiction is
written as the list of the cell's casinos of it, set again when a casino joins or leaves.

In the store: the platform's schema, whose event table is keyed by (casino, sequence) instead of
the cell's global position (two cells both have a position 1), with ``received_at`` filled by the
store when the row arrives (the replication's lag); one subscription per cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from django.db import connection
from psycopg import sql

from casino.jurisdictions import jurisdiction_of
from casino.models import Casino


def publication_name(jurisdiction: str) -> str:
    return f"regulator_{jurisdiction.lower()}"


def subscription_name(cell: str, store: str) -> str:
    """The subscription of the store (its database's name) to ``cell``: also the name of its
    replication slot in the cell, which serves several stores (one slot each)."""
    return f"{store}_from_{cell}".replace("-", "_").lower()


def cell_casinos(jurisdiction: str) -> list[str]:
    """This cell's casinos of ``jurisdiction``."""
    return [c.code for c in Casino.objects.order_by("code")
            if jurisdiction_of(c.code, c.currency) == jurisdiction]


def publish(jurisdiction: str, casinos: Sequence[str] | None = None) -> tuple[str, list[str]]:
    """Create (or set again) this cell's publication for ``jurisdiction``: the event table,
    inserts only, the rows of the cell's casinos of that jurisdiction. Returns its name and
    casinos. With no casino yet it filters on none (``casino_id IN ('')``: nothing)."""
    codes = list(casinos if casinos is not None else cell_casinos(jurisdiction))
    name = publication_name(jurisdiction)
    # an event carried here from another cell with its casino (recorded_position set) reached
    # the stores from that cell already: only the events appended here are published
    where = sql.SQL("casino_id IN ({}) AND recorded_position IS NULL").format(
        sql.SQL(", ").join(sql.Literal(c) for c in (codes or [""])))
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_publication WHERE pubname = %s", [name])
        exists = cursor.fetchone() is not None
        text = (sql.SQL("ALTER PUBLICATION {} SET TABLE event WHERE ({})") if exists else
                sql.SQL("CREATE PUBLICATION {} FOR TABLE event WHERE ({}) "
                        "WITH (publish = 'insert')")).format(sql.Identifier(name), where)
        cursor.execute(text.as_string(cursor.connection))
    return name, codes


# The store's event table: keyed by the casino's chain (the unique (casino_id, sequence) the
# cells have too), not by a cell's position (its primary key dropped); the append
# triggers stay (the apply worker does not fire them: it runs as a replica), and received_at is
# the store's own clock when the row arrived.
STORE_SCHEMA = [
    "ALTER TABLE event DROP CONSTRAINT IF EXISTS event_pkey",
    "ALTER TABLE event DROP CONSTRAINT IF EXISTS event_stream_version_unique",
    "CREATE INDEX IF NOT EXISTS event_store_stream ON event (stream, version)",
    "ALTER TABLE event ADD COLUMN IF NOT EXISTS received_at timestamptz "
    "DEFAULT clock_timestamp()",
]


def store_prepare() -> None:
    """Key the store's event table by (casino, sequence) alone, its unique constraint
    ``event_casino_sequence_unique`` (idempotent)."""
    with connection.cursor() as cursor:
        for statement in STORE_SCHEMA:
            cursor.execute(statement)


def _autocommit() -> psycopg.Connection[Any]:
    """A connection of its own in autocommit: CREATE SUBSCRIPTION with a slot refuses to run in
    a transaction."""
    params = connection.get_connection_params()
    raw: psycopg.Connection[Any] = connection.get_new_connection(params)
    raw.autocommit = True
    return raw


def subscribe(cell: str, conninfo: str, jurisdiction: str) -> str:
    """In the store: subscribe to ``cell``'s publication of ``jurisdiction`` (copying what the
    cell holds already, then following). Idempotent: an existing subscription is enabled."""
    store_prepare()
    with _autocommit() as raw:
        name = subscription_name(cell, raw.info.dbname)
        found = raw.execute("SELECT 1 FROM pg_subscription WHERE subname = %s AND subdbid = "
                            "(SELECT oid FROM pg_database WHERE datname = current_database())",
                            [name]).fetchone()
        if found is None:
            raw.execute(sql.SQL("CREATE SUBSCRIPTION {} CONNECTION {} PUBLICATION {} "
                                "WITH (copy_data = true)").format(
                sql.Identifier(name), sql.Literal(conninfo),
                sql.Identifier(publication_name(jurisdiction))))
        else:
            raw.execute(sql.SQL("ALTER SUBSCRIPTION {} ENABLE").format(sql.Identifier(name)))
    return name


def unsubscribe(cell: str) -> None:
    """Drop the store's subscription to ``cell`` (and its slot in the cell, if reachable)."""
    with _autocommit() as raw:
        raw.execute(sql.SQL("DROP SUBSCRIPTION IF EXISTS {}").format(
            sql.Identifier(subscription_name(cell, raw.info.dbname))))


def subscriptions() -> Iterable[tuple[str, bool, Any, Any]]:
    """Each subscription: its name, whether enabled, the last message received from its cell
    and the last position (LSN) it confirmed."""
    with connection.cursor() as cursor:
        cursor.execute("""
            SELECT s.subname, s.subenabled, max(st.last_msg_receipt_time), max(st.latest_end_lsn)
            FROM pg_subscription AS s LEFT JOIN pg_stat_subscription AS st ON st.subid = s.oid
            WHERE s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())
            GROUP BY s.subname, s.subenabled ORDER BY s.subname""")
        return list(cursor.fetchall())
