"""The check: every projection rebuilt beside the live tables, on a snapshot, and compared.

``rebuild_projections --check`` (and the ``casino.projections_check`` task). Nothing live is
emptied, written or locked (ADR 0016); the append-only ledger is replayed in memory, in this
process, from the same read of the events, and compared with its live rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.models import Model

from . import wire
from .projections import Projection, _comparable
from .records import RecordedEvent
from .replay import replay, replay_pages, selected
from .store import lock_appends


@dataclass
class Difference:
    projection: str
    table: str
    only_live: list[tuple[Any, ...]]
    only_rebuilt: list[tuple[Any, ...]]


class _RollBack(Exception):
    pass


def check(names: Sequence[str] | None = None, *, casino: str | None = None
          ) -> list[Difference]:
    """Rebuild beside the live tables, in a transaction that is rolled back; return what differs
    from live. Nothing live is emptied, written or locked: the casino goes on (ADR 0016).

    In a transaction of its own the check reads one snapshot (REPEATABLE READ): the events and
    the live tables as the same commit left them, whatever commits meanwhile. Inside a caller's
    transaction it holds the position lock instead, as a rebuild does, so that no event is
    committed while it reads. The live rows of every rebuilt table (or of one casino) are
    copied into a temporary table first; then each rebuilt table gets an empty temporary table
    of its own name, which the search path finds before the live one, and the events are
    replayed into those. The server compares each with the copy of its live rows (each row
    counted once a side and grouped, the rows as multisets, surrogate ids left out) in one
    statement, answered while an append-only projection (the ledger) is compared here with its
    ``replay_snapshot``, fed by the same read of the events on the same snapshot; only a table
    found to differ is read here, to say how.
    """
    projections = selected(names)
    differences: list[Difference] = []
    connection.ensure_connection()
    own = not connection.in_atomic_block
    try:
        with transaction.atomic():
            if own:
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            else:
                lock_appends()
            snapshot_id = None
            if own:
                # The snapshot, named for the connection that reads the events ahead.
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_export_snapshot()")
                    (snapshot_id,) = cursor.fetchone()
            replayable = [p for p in projections if not p.append_only]
            in_memory = [p for p in projections if p.append_only]
            # The append-only ones follow the replay's own read of the events (each event
            # decoded once for all), unless that reads one casino's only.
            here = in_memory if casino is None else []
            before = {p.name: p.snapshot() for p in here}
            kept = _keep_live(replayable, casino)
            _shadow(replayable)
            followers = [p.replayer() for p in here]
            followed = _followed(here)

            def follow(page: list[RecordedEvent]) -> None:
                for recorded in page:
                    if followed is None or recorded.event_type in followed:
                        for feed, _ in followers:
                            feed(recorded)

            replay(replayable, casino=casino, also=follow if followers else None,
                   snapshot_id=snapshot_id)
            if casino is not None:
                differences += _in_memory_differences(in_memory, snapshot_id)
            with _comparison(kept) as differing:
                # The server compares while the append-only ones are compared here.
                for p, (_, finish) in zip(here, followers, strict=True):
                    _compare_snapshots(differences, p.name, before[p.name], finish())
                differ = differing()
            found: list[Difference] = []
            for p in replayable:
                for model in p.models:
                    if model in differ:
                        live, rebuilt = _rows(model, kept[model]), _rows(model, None)
                        _compare(found, p.name, model._meta.db_table, live, rebuilt)
            differences[:0] = found
            raise _RollBack
    except _RollBack:
        pass
    return differences


def _in_memory_differences(in_memory: Sequence[Projection], snapshot_id: str | None = None
                           ) -> list[Difference]:
    """The append-only projections' live tables compared with a replay of every event they
    follow, read for them alone (``snapshot_id``: the check's snapshot, for the read ahead)."""
    differences: list[Difference] = []
    if not in_memory:
        return differences
    before = {p.name: p.snapshot() for p in in_memory}
    followers = [p.replayer() for p in in_memory]
    with closing(replay_pages(event_types=_followed(in_memory),
                              snapshot_id=snapshot_id)) as pages:
        for page in pages:
            for recorded in page:
                for feed, _ in followers:
                    feed(recorded)
    for p, (_, finish) in zip(in_memory, followers, strict=True):
        _compare_snapshots(differences, p.name, before[p.name], finish())
    return differences


def _followed(in_memory: Sequence[Projection]) -> frozenset[str] | None:
    """The event types these append-only projections' replayers need (None: every event)."""
    types: set[str] = set()
    for p in in_memory:
        if p.follows is None:
            return None
        types |= p.follows
    return frozenset(types)


def _compare_snapshots(differences: list[Difference], projection: str,
                       live: Mapping[str, list[tuple[Any, ...]]],
                       replayed: Mapping[str, list[tuple[Any, ...]]]) -> None:
    for table, live_rows in live.items():
        _compare(differences, projection, table, live_rows, replayed.get(table, []))


def _compare(differences: list[Difference], projection: str, table: str,
             live_rows: Iterable[tuple[Any, ...]], rebuilt_rows: Iterable[tuple[Any, ...]]
             ) -> None:
    live, rebuilt = Counter(live_rows), Counter(rebuilt_rows)
    if live != rebuilt:
        differences.append(Difference(projection, table,
                                      sorted((live - rebuilt).elements(), key=repr),
                                      sorted((rebuilt - live).elements(), key=repr)))


def _compared_columns(model: type[Model]) -> list[models.Field[Any, Any]]:
    """The columns ``snapshot`` compares: all but a surrogate id."""
    return [f for f in model._meta.concrete_fields
            if not (f.primary_key and isinstance(f, models.AutoField | models.BigAutoField))]


def _column_list(model: type[Model]) -> str:
    quote = connection.ops.quote_name
    # ``json`` has no equality operator: compared as text (a ``jsonb`` column as itself).
    return ", ".join(quote(f.column) + ("::text" if f.db_type(connection) == "json" else "")
                     for f in _compared_columns(model))


def _keep_live(projections: Iterable[Projection], casino: str | None = None
               ) -> dict[type[Model], str]:
    """Copy each projection table's live rows (or ``casino``'s) into a temporary table (dropped
    with the transaction's roll-back); return their names."""
    kept: dict[type[Model], str] = {}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for p in projections:
            for model in p.models:
                name = f"live_{len(kept)}"
                select = f"SELECT {_column_list(model)} FROM {quote(model._meta.db_table)}"
                if casino is None:
                    cursor.execute(f"CREATE TEMPORARY TABLE {name} AS {select}")
                else:
                    # A statement with parameters cannot make a table: made empty, then filled.
                    keys, params = (p.casino_rows(model, casino).order_by().values("pk")
                                    .query.sql_with_params())
                    cursor.execute(f"CREATE TEMPORARY TABLE {name} AS {select} WITH NO DATA")
                    cursor.execute(f"INSERT INTO {name} {select} "
                                   f"WHERE {quote(model._meta.pk.column)} IN ({keys})", params)
                kept[model] = name
    return kept


def _shadow(projections: Iterable[Projection]) -> None:
    """Give each projection table an empty temporary table of the same name (its columns,
    defaults, identity, checks and indexes; dropped with the transaction's roll-back), which
    the search path finds first: the replay writes, and its handlers read, these.

    A statement the server planned before still names the live table; ``DISCARD PLANS`` has
    every one looked up again at its next run (and the temporary tables' drop at the roll-back
    has those that named them looked up again too)."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for p in projections:
            for model in p.models:
                table = quote(model._meta.db_table)
                cursor.execute(f"CREATE TEMPORARY TABLE {table} (LIKE {table} INCLUDING ALL)")
        cursor.execute("DISCARD PLANS")


@contextmanager
def _comparison(kept: Mapping[type[Model], str]) -> Iterator[Callable[[], set[type[Model]]]]:
    """Send the server every rebuilt table's comparison with the copy of its live rows, in one
    statement, and go on; the function yielded waits for the answer and gives the tables that
    differ."""
    compared = list(kept)
    if not compared:
        yield set
        return

    def differs(model: type[Model]) -> str:
        # One pass over both sides: every row counted +1 live and -1 rebuilt, grouped; a group
        # whose count is not 0 differs (the rows as multisets, a NULL equal to a NULL, as
        # EXCEPT ALL has them). Two EXCEPT ALLs, one each way, hashed both tables twice.
        columns = _column_list(model)
        names = ", ".join(f"c{i}" for i in range(len(_compared_columns(model))))
        rebuilt = connection.ops.quote_name(model._meta.db_table)
        return (f"EXISTS (SELECT FROM (SELECT {columns}, 1 FROM {kept[model]} UNION ALL "
                f"SELECT {columns}, -1 FROM {rebuilt}) AS rows_({names}, side) "
                f"GROUP BY {names} HAVING sum(side) <> 0)")

    query = "SELECT " + ", ".join(differs(m) for m in compared)
    raw = wire.raw_connection()
    with connections[DEFAULT_DB_ALIAS].wrap_database_errors, raw.pipeline(), \
            psycopg.Cursor(raw) as cursor:
        # The copies of the live rows are temporary tables, never analysed: the planner takes
        # them for small ones and sorts both sides to group them (an incremental sort over the
        # rebuilt table's key), about half again as slow as hashing them on the demo day. The
        # check's transaction is always rolled back, and this setting with it.
        with psycopg.RawCursor(raw) as setting:
            setting.execute("SET LOCAL enable_sort = off")
        cursor.execute(query)

        def differing() -> set[type[Model]]:
            row = cursor.fetchone()
            assert row is not None
            return {m for m, differs in zip(compared, row, strict=True) if differs}

        yield differing


def _rows(model: type[Model], kept: str | None) -> list[tuple[Any, ...]]:
    """``snapshot``'s rows of ``model``'s table, or of the copy of its live rows."""
    if kept is None:
        names = [f.attname for f in _compared_columns(model)]
        rows = model._default_manager.order_by().values_list(*names)
        return [tuple(_comparable(v) for v in row) for row in rows]
    fields = _compared_columns(model)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(connection.ops.quote_name(f.column) for f in fields)}"
                       f" FROM {kept}")
        found = cursor.fetchall()
    converted = []
    for row in found:
        values = []
        for f, value in zip(fields, row, strict=True):
            convert = getattr(f, "from_db_value", None)  # a JSONField's text to values
            if convert is not None:
                value = convert(value, None, connection)
            values.append(_comparable(value))
        converted.append(tuple(values))
    return converted
