"""The replay and the rebuild: every event read in pages, in order, through the projections' handlers.

``replay_pages`` reads the events a page (a range of positions) at a time on the driver's own
cursor, a second connection reading the next page while the handlers run on this one (ADR 0012);
``replay`` gives each page to the handlers and one writer, in batches, COPY for large inserts
(ADR 0009). ``rebuild`` empties the projections' tables (or one casino's rows) under the
position lock and replays the events into them; ``compare.check`` replays beside the live
tables instead, changing nothing.
"""

from __future__ import annotations

import contextlib
import gc
import operator
import queue
import re
import threading
from collections import defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, models, transaction

from . import wire
from .changes import Change
from .events import decode
from .history import _SELECT, _row, head_position, reader_cursor
from .projections import Projection, registry
from .records import RecordedEvent
from .store import lock_appends
from .writer import Reader, Writer, guard

# A rebuild sends what is pending every so many changes (and before a read that needs it).
REPLAY_BATCH = 20_000
# A replay collects the garbage collector's young generations every so many pages (``replay``).
COLLECT_PAGES = 50
# A table of at most this many rows is emptied by DELETE rather than TRUNCATE (``_empty``).
SMALL_TABLE = 2_000


def replay_pages(*, casino: str | None = None, event_types: Iterable[str] | None = None,
                 page_size: int = 10_000, snapshot_id: str | None = None
                 ) -> Generator[list[RecordedEvent], None, None]:
    """Every event (or one casino's; or only those of ``event_types``), by position, a page at a
    time: the replay's read, on the driver's own cursor (jsonb parsed by the C decoder, no
    per-row ORM work).

    A page is a range of positions, read without ORDER BY and put in order here: the server
    then needs no sort, whatever its statistics of the table say (a LIMIT page of a table never
    analysed was read by a sort spilled to disk: about half a rebuild's time).

    A replay of more than one page reads ahead, on a second connection, while the caller works
    on the page before, when that connection sees every event this transaction sees (the same
    last position: events are never changed, and positions have no gaps): the server finds the
    next page while the handlers run. Otherwise (this transaction's own events not yet
    committed, as in a test) the pages are read here, one after the other. With
    ``snapshot_id`` (this transaction's, ``pg_export_snapshot()``), the second connection takes
    this transaction's snapshot: it sees the same events even where no lock keeps others from
    committing meanwhile (``compare.check``)."""
    head = head_position()
    where, first = ["position > %s AND position <= %s"], list[Any]()
    if casino is not None:
        where.insert(0, "casino_id = %s")
        first.append(casino)
    if event_types is not None:
        where.insert(0, "event_type = ANY(%s)")
        first.insert(0, sorted(event_types))
    query = _REPLAY_SELECT + f" WHERE {' AND '.join(where)}"
    pages = [[*first, after, after + page_size] for after in range(0, head, page_size)]
    ahead = _second_reader(head, snapshot_id) if len(pages) > 1 else None
    if ahead is None:
        raw = wire.raw_connection()
        for params in pages:
            with connections[DEFAULT_DB_ALIAS].wrap_database_errors:
                page = _page(raw, query, params)
            if page:
                yield page
        return
    yield from _read_ahead(ahead, query, pages)


def _page(raw: psycopg.Connection[Any], query: str, params: list[Any]) -> list[RecordedEvent]:
    with reader_cursor(raw) as cursor:  # the driver's own loaders, not Django's
        cursor.execute(query, params, prepare=True)
        rows = cursor.fetchall()
    rows.sort(key=_POSITION)
    return [_replayed(row) for row in rows]


def _second_reader(head: int, snapshot_id: str | None = None
                   ) -> psycopg.Connection[Any] | None:
    """A second connection to the store that sees the same events as this transaction (its
    snapshot holds ``head``; ``snapshot_id``'s, if given), or None."""
    db = connections[DEFAULT_DB_ALIAS]
    try:
        raw: psycopg.Connection[Any] = db.get_new_connection(db.get_connection_params())
    except (DatabaseError, psycopg.Error):
        return None
    try:
        raw.autocommit = True
        zone = wire.raw_connection().info.parameter_status("TimeZone") or "UTC"
        raw.execute("SELECT set_config('TimeZone', %s, false)", [zone])
        raw.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        if snapshot_id is not None:
            raw.execute(take_snapshot(snapshot_id))
        seen = raw.execute("SELECT coalesce(max(position), 0) FROM event").fetchone()
        if seen is not None and int(seen[0]) == head:
            return raw
    except psycopg.Error:
        pass
    raw.close()
    return None


_DONE = object()


def _read_ahead(raw: psycopg.Connection[Any], query: str, pages: list[list[Any]]
                ) -> Generator[list[RecordedEvent], None, None]:
    """``pages`` read on ``raw`` by a thread of its own, at most two pages ahead of the
    caller."""
    found: queue.Queue[Any] = queue.Queue(maxsize=2)
    stop = threading.Event()

    def read() -> None:
        try:
            for params in pages:
                if stop.is_set():
                    return
                found.put(_page(raw, query, params))
        except BaseException as error:  # given to the caller, raised there
            found.put(error)
            return
        found.put(_DONE)

    reader = threading.Thread(target=read, name="replay-read-ahead", daemon=True)
    reader.start()
    try:
        while (page := found.get()) is not _DONE:
            if isinstance(page, BaseException):
                with connections[DEFAULT_DB_ALIAS].wrap_database_errors:
                    raise page
            if page:
                yield page
    finally:
        stop.set()
        while reader.is_alive():  # a page it waits to hand over
            with contextlib.suppress(queue.Empty):
                found.get(timeout=0.05)
        reader.join()
        raw.close()


_POSITION = operator.itemgetter(0)
# The replay's read: ``_SELECT``, whose metadata is parsed when first read (``ReadEvent``).
_REPLAY_SELECT = _SELECT
_replayed = _row


def take_snapshot(snapshot_id: str) -> str:
    """The statement that makes a transaction, as its first, see what the transaction that
    exported ``snapshot_id`` (``pg_export_snapshot()``) sees. A snapshot's name is hexadecimal
    digits and dashes; the statement takes no parameter, so it is checked and written in."""
    if not _SNAPSHOT_ID.fullmatch(snapshot_id):
        raise ValueError(f"not a snapshot's name: {snapshot_id!r}")
    return f"SET TRANSACTION SNAPSHOT '{snapshot_id}'"


_SNAPSHOT_ID = re.compile(r"[0-9A-Fa-f]+(-[0-9A-Fa-f]+)+")


def replay(projections: Sequence[Projection], *, casino: str | None = None,
           also: Callable[[list[RecordedEvent]], object] | None = None,
           only_handled: bool = False, snapshot_id: str | None = None) -> int:
    """Replay the events (of every casino, or of one) through ``projections``' handlers and one
    writer, in batches (COPY for large inserts). Returns the events read. ``also`` is given
    each page of events as it is read (``check``'s in-memory replay of the ledger). With
    ``only_handled``, only the events of the types the projections handle are read (a rebuild
    of some projections). ``snapshot_id``: this transaction's exported snapshot, for the
    connection that reads ahead (``replay_pages``)."""
    writer = Writer(copy=True)
    reader = Reader(writer)
    wanted: dict[str, list[Callable[[Any, RecordedEvent], Iterable[Change] | None]]] = (
        defaultdict(list))
    for p in projections:
        for event_type, handler in p.bound(reader).items():
            wanted[event_type].append(handler)
    with guard(writer), _young_collections_only():
        pages = (replay_pages(casino=casino, event_types=wanted.keys(),
                              snapshot_id=snapshot_id) if only_handled
                 else replay_pages(casino=casino, snapshot_id=snapshot_id))
        with closing(pages):  # a page read ahead, and its connection, let go on a failure
            count = _project(pages, wanted, writer, also)
        writer.flush()
    return count


def _project(pages: Iterator[list[RecordedEvent]],
             wanted: Mapping[str, list[Callable[[Any, RecordedEvent], Iterable[Change] | None]]],
             writer: Writer, also: Callable[[list[RecordedEvent]], object] | None) -> int:
    count = 0
    add = writer.add
    for number, page in enumerate(pages, start=1):
        for recorded in page:
            handlers = wanted.get(recorded.event_type)
            if handlers:
                # ``recorded.event``, decoded once here for every handler (and for whoever
                # reads it after): the cached property's own look-up costs a rebuild more.
                event = recorded.__dict__["event"] = decode(
                    recorded.event_type, recorded.schema_version, recorded.data)
                for handler in handlers:
                    add(handler(event, recorded))
        count += len(page)
        if also is not None:
            also(page)
        if number % COLLECT_PAGES == 0:
            gc.collect(1)
        if writer.pending >= REPLAY_BATCH:
            writer.flush()
    return count


@contextmanager
def _young_collections_only() -> Iterator[None]:
    """While a replay runs, the garbage collector's automatic runs are off and the replay
    collects the young generations every ``COLLECT_PAGES`` pages: a rebuild keeps hundreds of
    thousands of objects alive (pages, pending rows, rows it remembers), which every automatic
    full collection would walk again (about a fifth of a rebuild's time, measured). The
    handlers and the writer make no cyclic garbage (a collection after each page of the demo
    day found nothing to free, and walking the live objects cost a quarter of the client's
    time: ADR 0010), so a collection now and then only bounds what a handler that did make
    some would keep."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def selected(names: Sequence[str] | None = None) -> list[Projection]:
    """The projections named (every one without ``names``) and those they replay with, in the
    order they run live. A projection that adds what another's handlers make of an event (the
    gaming days, of the table sessions') says so in ``replays_with``: replayed alone, against
    the other's live rows as the last event left them, it would add its changes twice."""
    unknown = [n for n in names or () if n not in registry.projections]
    if unknown:
        raise KeyError(f"unknown projection(s): {', '.join(unknown)}")
    wanted = set(names or ())
    for name in names or ():
        wanted.update(getattr(registry.projections[name], "replays_with", ()))
    return [p for p in registry.projections.values() if not names or p.name in wanted]


@transaction.atomic
def rebuild(names: Sequence[str] | None = None, *, casino: str | None = None) -> int:
    """Empty the projections' tables (or one casino's rows) and replay the events (every one,
    or that casino's). Returns the events replayed."""
    projections = [p for p in selected(names) if not p.append_only]
    lock_appends()
    _empty(projections, casino)
    return replay(projections, casino=casino, only_handled=bool(names))


def _empty(projections: Iterable[Projection], casino: str | None) -> None:
    """Empty the projections' tables: all of them, or one casino's rows."""
    if casino is not None:
        # Every model's rows are found before any is deleted: a child row may be found through
        # its parent (a shift's lines through the shift's casino).
        doomed = [(model, list(p.casino_rows(model, casino).values_list("pk", flat=True)))
                  for p in projections for model in p.models]
        with connection.cursor() as cursor:
            for model, keys in doomed:
                if keys:
                    pk = connection.ops.quote_name(model._meta.pk.column)
                    cursor.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}"
                                   f" WHERE {pk} = ANY(%s)", [keys])
        return
    models_ = [m for p in projections for m in p.models]
    if not models_:
        return
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        # TRUNCATE makes new files for a table and each of its indexes (and a roll-back or the
        # commit removes the old ones): a fixed cost of about 20 ms a table on this machine,
        # which would dwarf a small table's rows. So a table of few rows is emptied by DELETE
        # (and its id sequence restarted, as TRUNCATE … RESTART IDENTITY would), a large one
        # by TRUNCATE. Both are transactional; no table outside the projections refers to
        # theirs (CASCADE empties nothing more).
        cursor.execute("SELECT " + ", ".join(
            f"(SELECT count(*) FROM (SELECT FROM {quote(m._meta.db_table)} LIMIT "
            f"{SMALL_TABLE + 1}) AS r)" for m in models_))
        counts = cursor.fetchone()
        large = [m for m, n in zip(models_, counts, strict=True) if n > SMALL_TABLE]
        small = [m for m, n in zip(models_, counts, strict=True) if 0 < n <= SMALL_TABLE]
        # TRUNCATE refuses a table with pending deferred checks (Django's foreign keys are
        # DEFERRABLE INITIALLY DEFERRED): fire them now, as the commit would.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        if large:
            cursor.execute(f"TRUNCATE {', '.join(quote(m._meta.db_table) for m in large)} "
                           "RESTART IDENTITY CASCADE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for model in small:  # the foreign keys checked at the commit, when all are refilled
            cursor.execute(f"DELETE FROM {quote(model._meta.db_table)}")
            key = model._meta.pk
            if isinstance(key, models.AutoField | models.BigAutoField):
                cursor.execute("SELECT pg_get_serial_sequence(%s, %s)",
                               [quote(model._meta.db_table), key.column])
                (sequence,) = cursor.fetchone()
                if sequence is not None:
                    cursor.execute(f"ALTER SEQUENCE {sequence} RESTART")
