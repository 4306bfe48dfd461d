"""Projections: read models built only from events.

Each projection names the tables it owns and marks one handler per event class it reads
(``@handles``): the class is the annotation of the handler's ``event`` parameter (a union for a
handler of several), read once when the class is made (``dispatch.event_classes``), so that
"find usages" of an event class reaches its handlers. A handler is a function of the typed event
(read through the upcasters: every handler sees the current version of its event) and of the
recorded envelope (stream, version, position, time, metadata), that returns changes to rows
(``changes.Insert``, ``Update``, ``Upsert``, ``Sql``).
A handler that reads rows takes a ``reader`` as well (``writer.Reader``): what it reads is what
every event before it left, whether it was written yet or is still pending. A handler declares
nothing about what it reads, and the order in which a service appends its events matters to no
projection: the writer merges the changes of one row (``writer.Writer``).

Live projections run inside the appending transaction (``apply_live``, called by
``store.append``), so a screen never shows a state the events do not hold, and a failing handler
aborts the append. ``rebuild`` empties a projection's tables (of every casino, or of one) and
replays the events through the same handlers and the same writer, in large batches; ``check``
does the same inside a transaction that it rolls back, and reports what differs between the live
tables and the rebuilt ones.
"""

from __future__ import annotations

import functools
import gc
import inspect
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.models import Model, QuerySet

from . import aside, wire
from .changes import Change
from .dispatch import event_classes
from .events import Event, decode
from .store import RecordedEvent, lock_appends, replay_pages, take_snapshot
from .writer import Reader, Writer, guard, send_statements

Handler = Callable[..., Iterable[Change] | None]
H = TypeVar("H", bound=Handler)

# A rebuild sends what is pending every so many changes (and before a read that needs it).
REPLAY_BATCH = 20_000
# A table of at most this many rows is emptied by DELETE rather than TRUNCATE (``_empty``).
SMALL_TABLE = 2_000
# A replay collects the garbage collector's young generations every so many pages (``replay``).
COLLECT_PAGES = 50


class Projection:
    """Base class. Subclasses set ``name`` and ``models`` and decorate handlers with ``@handles``."""

    name: ClassVar[str]
    models: ClassVar[Sequence[type[models.Model]]] = ()
    # By event class: the handler's name and whether it reads (takes a ``reader``).
    handlers: ClassVar[dict[type[Event], tuple[str, bool]]]
    # An append-only projection (the ledger's journal) refuses TRUNCATE like the events do: it is
    # never rebuilt in place; ``check`` compares its tables with ``replay_snapshot``, the state
    # a replay of the events would produce, computed without writing.
    append_only: ClassVar[bool] = False
    # For an append-only projection: the event types its ``replayer`` needs to be fed, or None
    # for every event. ``check`` reads only these for it (a tenth of the demo day's, for the
    # ledger).
    follows: ClassVar[frozenset[str] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers = {}
        for base in reversed(cls.__mro__):
            for attr, value in vars(base).items():
                for event_class in getattr(value, "_handles", ()):
                    reads = "reader" in inspect.signature(value).parameters
                    cls.handlers[event_class] = (attr, reads)

    def changes(self, recorded: RecordedEvent, reader: Reader) -> Iterable[Change]:
        """What ``recorded`` changes in this projection's tables."""
        found = self.handlers.get(type(recorded.event))
        if found is None:
            return ()
        method, reads = found
        handler = getattr(self, method)
        made = (handler(recorded.event, recorded, reader=reader) if reads
                else handler(recorded.event, recorded))
        return () if made is None else made

    def bound(self, reader: Reader) -> dict[str, Callable[[Any, RecordedEvent],
                                                          Iterable[Change] | None]]:
        """By the stored name of its event class, the handler as a function of the event and its
        envelope, ``reader`` given to those that read: what ``changes`` calls, looked up once (a
        replay's, which picks the events to decode by their stored name)."""
        found: dict[str, Callable[[Any, RecordedEvent], Iterable[Change] | None]] = {}
        for event_class, (method, reads) in self.handlers.items():
            handler = getattr(self, method)
            found[event_class.event_type] = (functools.partial(handler, reader=reader) if reads
                                              else handler)
        return found

    def reads_ahead(self, about: Mapping[str, Any]) -> list[wire.Statement]:
        """What this projection's handlers will read for a command ``about`` something (its
        ``casino``, ``session_id``, and the time ``at`` it runs): a command may send these
        reads with the append lock. None by default."""
        return []

    def casino_rows(self, model: type[Model], casino: str) -> QuerySet[Any]:
        """The rows of ``model`` that belong to ``casino`` (a rebuild of one casino)."""
        manager = model._default_manager
        names = {f.attname for f in model._meta.concrete_fields}
        if "casino_id" in names:
            return manager.filter(casino_id=casino)
        for f in model._meta.concrete_fields:
            related = f.related_model
            if f.is_relation and isinstance(related, type) and issubclass(related, Model) and any(
                    g.attname == "casino_id" for g in related._meta.concrete_fields):
                return manager.filter(**{f"{f.name}__casino_id": casino})
        raise NotImplementedError(f"{self.name}: say which rows of {model.__name__} belong to "
                                  "a casino (casino_rows)")

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """The projection's state, comparable across a rebuild (surrogate ids left out): its
        rows, in no particular order (``check`` compares them as multisets)."""
        state: dict[str, list[tuple[Any, ...]]] = {}
        for model in self.models:
            names = [
                f.attname
                for f in model._meta.concrete_fields
                if not (f.primary_key and isinstance(f, models.AutoField | models.BigAutoField))
            ]
            rows = model._default_manager.order_by().values_list(*names)
            state[model._meta.db_table] = [tuple(_comparable(v) for v in row) for row in rows]
        return state


    def replay_snapshot(self, events: Iterable[RecordedEvent]) -> dict[str, list[tuple[Any, ...]]]:
        """For append-only projections: ``snapshot()`` as a replay of ``events`` would leave it."""
        raise NotImplementedError(f"{self.name} must compute its replayed state to be checked")

    def replayer(self) -> tuple[Callable[[RecordedEvent], None],
                                Callable[[], dict[str, list[tuple[Any, ...]]]]]:
        """For append-only projections: ``replay_snapshot`` fed one event at a time (``feed``,
        then ``finish`` for the state). By default the events are kept and given to
        ``replay_snapshot`` at the end; a projection that can follow them as they come says so."""
        kept: list[RecordedEvent] = []
        return kept.append, lambda: self.replay_snapshot(kept)


def handles(fn: H) -> H:
    """Mark a projection's method as the handler of the event class (or union of classes) its
    ``event`` parameter is annotated with. ``@handles("Name")`` is refused (TypeError)."""
    fn._handles = event_classes(fn)  # type: ignore[attr-defined]  # read by Projection.__init_subclass__
    return fn


def handles_each(classes: Iterable[type[Event]]) -> Callable[[H], H]:
    """Mark a handler of every class in ``classes``, for the one handler whose classes are
    another table's (the ledger's, of every class ``ledger.postings`` posts from) rather than
    its annotation's. Classes only: a name is refused (TypeError)."""
    given = tuple(classes)
    for cls in given:
        if not (isinstance(cls, type) and issubclass(cls, Event) and "event_type" in vars(cls)):
            raise TypeError(f"a handler is registered by event classes, not by {cls!r}")

    def mark(fn: H) -> H:
        fn._handles = given  # type: ignore[attr-defined]  # read by Projection.__init_subclass__
        return fn

    return mark


def _comparable(value: Any) -> Any:
    if isinstance(value, Decimal):
        return value.normalize()
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, default=str)
    return value


@dataclass
class Registry:
    projections: dict[str, Projection] = field(default_factory=dict)
    # The projections that handle an event class; and the same by the class's stored name, for
    # a reader that has not decoded the event yet.
    by_class: dict[type[Event], list[Projection]] = field(
        default_factory=lambda: defaultdict(list))
    by_event_type: dict[str, list[Projection]] = field(default_factory=lambda: defaultdict(list))

    def register(self, projection: Projection) -> None:
        if projection.name in self.projections:
            raise ValueError(f"projection {projection.name!r} is registered twice")
        self.projections[projection.name] = projection
        for event_class in projection.handlers:
            self.by_class[event_class].append(projection)
            self.by_event_type[event_class.event_type].append(projection)


registry = Registry()


def register(cls: type[Projection]) -> type[Projection]:
    """Class decorator: register a projection to run live on every append."""
    registry.register(cls())
    return cls


def reads_ahead(about: Mapping[str, Any]) -> list[wire.Statement]:
    """Every live projection's ``reads_ahead`` for a command ``about`` something."""
    statements: list[wire.Statement] = []
    for projection in registry.projections.values():
        statements += projection.reads_ahead(about)
    return statements


def handled(events: Iterable[RecordedEvent]) -> bool:
    """Whether a live projection handles any of ``events``."""
    return any(registry.by_event_type.get(e.event_type) for e in events)


def apply_live(events: Iterable[RecordedEvent], *, first: Sequence[wire.Statement] = (),
               then: Sequence[wire.Statement] = ()) -> int | None:
    """Apply one append's events to the live projections, in order, in the caller's transaction.

    The handlers' changes go to one writer; at the end, ``first`` (the event store's INSERT, when
    it can wait, with the command's idempotency record, after its savepoint if it has one), what
    the writer made of the changes and ``then`` (the savepoint's release) go to the server in one
    pipeline, one round trip for them all; the row count of ``first``'s last statement is
    returned. ``first`` is sent before the handlers run, so the server inserts the events while
    they run here; what a handler's read needs written is sent before the read.
    """
    events = list(events)
    if first and not any(registry.by_event_type.get(e.event_type) for e in events):
        return wire.send([*first, *then])[len(first) - 1]  # no projection: nothing to overlap
    early = wire.EarlyPipeline(first) if first else None
    writer = Writer(send=early.enqueue if early is not None else None)
    reader = Reader(writer)
    try:
        with guard(writer, before=early.end if early is not None else None):
            for recorded in events:
                for projection in registry.by_event_type.get(recorded.event_type, ()):
                    writer.add(projection.changes(recorded, reader))
        statements = writer.statements()
        if early is not None:
            return early.finish([*statements, *then])[len(first) - 1]
        send_statements(statements)
    except BaseException as error:
        if early is not None:
            early.abort(error)
        raise
    return None


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


def replay(projections: Sequence[Projection], *, casino: str | None = None,
           also: Callable[[list[RecordedEvent]], object] | None = None,
           only_handled: bool = False, snapshot_id: str | None = None) -> int:
    """Replay the events (of every casino, or of one) through ``projections``' handlers and one
    writer, in batches (COPY for large inserts). Returns the events read. ``also`` is given
    each page of events as it is read (``check``'s in-memory replay of the ledger). With
    ``only_handled``, only the events of the types the projections handle are read (a rebuild
    of some projections). ``snapshot_id``: this transaction's exported snapshot, for the
    connection that reads ahead (``store.replay_pages``)."""
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
    if not names:
        return list(registry.projections.values())
    unknown = [n for n in names if n not in registry.projections]
    if unknown:
        raise KeyError(f"unknown projection(s): {', '.join(unknown)}")
    return [registry.projections[n] for n in names]


@transaction.atomic
def rebuild(names: Sequence[str] | None = None, *, casino: str | None = None) -> int:
    """Empty the projections' tables (or one casino's rows) and replay the events (every one,
    or that casino's). Returns the events replayed."""
    projections = [p for p in selected(names) if not p.append_only]
    lock_appends()
    _empty(projections, casino)
    return replay(projections, casino=casino, only_handled=bool(names))


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
    statement, answered while an append-only projection is compared here with its
    ``replay_snapshot`` (fed by the same read of the events); only a table found to differ is
    read here, to say how.
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
            with connection.cursor() as cursor:
                # The snapshot, named for the connections that read beside this one (a
                # subtransaction's cannot be: inside a caller's transaction they find the
                # same last position instead, the lock held).
                cursor.execute("SELECT pg_current_xact_id_if_assigned() IS NULL, "
                               f"{'pg_export_snapshot()' if own else 'NULL'}, "
                               "coalesce(max(position), 0) FROM event")
                clean, snapshot_id, head = cursor.fetchone()
            replayable = [p for p in projections if not p.append_only]
            in_memory = [p for p in projections if p.append_only]
            # The append-only ones are replayed in memory by a process of its own, on the other
            # core, while this one rebuilds (``_aside``); else here, following the replay's own
            # read of the events (each event decoded once for all), unless that reads one
            # casino's only.
            elsewhere = _aside(in_memory, snapshot_id, head) if clean else None
            here = in_memory if elsewhere is None else []
            try:
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

                replay(replayable, casino=casino, also=follow if followers and casino is None
                       else None, snapshot_id=snapshot_id)
                if followers and casino is not None:
                    with closing(replay_pages(event_types=followed,
                                              snapshot_id=snapshot_id)) as pages:
                        for page in pages:
                            follow(page)
                compared_here: list[Difference] = []
                with _comparison(kept) as differing:
                    # The server compares while the append-only ones are compared here (or
                    # their process is waited for).
                    for p, (_, finish) in zip(here, followers, strict=True):
                        _compare_snapshots(compared_here, p.name, before[p.name], finish())
                    in_memory_differences = (compared_here if elsewhere is None
                                             else elsewhere.result())
                    differ = differing()
            finally:
                if elsewhere is not None:
                    elsewhere.abandon()
            if in_memory_differences is None:  # the process aside could not tell
                in_memory_differences = _in_memory_differences(in_memory)
            for p in replayable:
                for model in p.models:
                    if model in differ:
                        live, rebuilt = _rows(model, kept[model]), _rows(model, None)
                        _compare(differences, p.name, model._meta.db_table, live, rebuilt)
            differences += in_memory_differences
            raise _RollBack
    except _RollBack:
        pass
    return differences


def _aside(in_memory: Sequence[Projection], snapshot_id: str | None, head: int
           ) -> aside.Aside[list[Difference] | None] | None:
    """The append-only projections' check, in a process of its own (``aside``), on this
    transaction's snapshot (``snapshot_id``; without one, the position lock held, no event can
    be committed meanwhile): the caller makes sure this transaction has written nothing yet
    (an uncommitted event, as in a test, is seen only here). The child makes sure, from the
    last position."""
    if not in_memory:
        return None

    def work() -> list[Difference] | None:
        with transaction.atomic(), _young_collections_only():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                if snapshot_id is not None:
                    cursor.execute(take_snapshot(snapshot_id))
                cursor.execute("SELECT coalesce(max(position), 0) FROM event")
                if cursor.fetchone()[0] != head:
                    return None
            return _in_memory_differences(in_memory)

    return aside.put_aside(work)


def _in_memory_differences(in_memory: Sequence[Projection]) -> list[Difference]:
    """The append-only projections' live tables compared with a replay of every event."""
    differences: list[Difference] = []
    before = {p.name: p.snapshot() for p in in_memory}
    followers = [p.replayer() for p in in_memory]
    with closing(replay_pages(event_types=_followed(in_memory))) as pages:
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
