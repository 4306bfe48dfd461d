"""Projections: read models built only from events.

Each projection names the tables it owns and registers one handler per event type it reads. A
handler is a function of the typed event (read through the upcasters: every handler sees the
current version of its event) and of the recorded envelope (stream, version, position, time,
metadata), that returns changes to rows (``changes.Insert``, ``Update``, ``Upsert``, ``Sql``).
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

import inspect
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar

from django.db import connection, models, transaction
from django.db.models import Model, QuerySet

from . import wire
from .changes import Change
from .store import RecordedEvent, lock_appends, replay_pages
from .writer import Reader, Writer, guard, send_statements

Handler = Callable[..., Iterable[Change] | None]

# A rebuild sends what is pending every so many changes (and before a read that needs it).
REPLAY_BATCH = 20_000


class Projection:
    """Base class. Subclasses set ``name`` and ``models`` and decorate handlers with ``@handles``."""

    name: ClassVar[str]
    models: ClassVar[Sequence[type[models.Model]]] = ()
    handlers: ClassVar[dict[str, tuple[str, bool]]]
    # An append-only projection (the ledger's journal) refuses TRUNCATE like the events do: it is
    # never rebuilt in place; ``check`` compares its tables with ``replay_snapshot``, the state
    # a replay of the events would produce, computed without writing.
    append_only: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers = {}
        for base in reversed(cls.__mro__):
            for attr, value in vars(base).items():
                for event_type in getattr(value, "_handles", ()):
                    reads = "reader" in inspect.signature(value).parameters
                    cls.handlers[event_type] = (attr, reads)

    def changes(self, recorded: RecordedEvent, reader: Reader) -> Iterable[Change]:
        """What ``recorded`` changes in this projection's tables."""
        found = self.handlers.get(recorded.event_type)
        if found is None:
            return ()
        method, reads = found
        handler = getattr(self, method)
        made = (handler(recorded.event, recorded, reader=reader) if reads
                else handler(recorded.event, recorded))
        return () if made is None else made

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


def handles(*event_types: str) -> Callable[[Handler], Handler]:
    def mark(fn: Handler) -> Handler:
        fn._handles = event_types  # type: ignore[attr-defined]  # read by Projection.__init_subclass__
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
    by_event_type: dict[str, list[Projection]] = field(default_factory=lambda: defaultdict(list))

    def register(self, projection: Projection) -> None:
        if projection.name in self.projections:
            raise ValueError(f"projection {projection.name!r} is registered twice")
        self.projections[projection.name] = projection
        for event_type in projection.handlers:
            self.by_event_type[event_type].append(projection)


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


def apply_live(events: Iterable[RecordedEvent], *, first: wire.Statement | None = None
               ) -> int | None:
    """Apply one append's events to the live projections, in order, in the caller's transaction.

    The handlers' changes go to one writer; at the end, ``first`` (the event store's INSERT, when
    it can wait, with the command's idempotency record) and what the writer made of the changes
    go to the server in one pipeline, one round trip for them all; ``first``'s row count is
    returned. ``first`` is sent before the handlers run, so the server inserts the events while
    they run here; what a handler's read needs written is sent before the read.
    """
    events = list(events)
    if first is not None and not any(registry.by_event_type.get(e.event_type) for e in events):
        return wire.send([first])[0]  # no projection: nothing to overlap
    early = wire.EarlyPipeline(first) if first is not None else None
    writer = Writer(send=early.enqueue if early is not None else None)
    reader = Reader(writer)
    try:
        with guard(writer, before=early.end if early is not None else None):
            for recorded in events:
                for projection in registry.by_event_type.get(recorded.event_type, ()):
                    writer.add(projection.changes(recorded, reader))
        statements = writer.statements()
        if early is not None:
            return early.finish(statements)[0]
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
    tables = [m._meta.db_table for p in projections for m in p.models]
    if tables:
        quoted = ", ".join(connection.ops.quote_name(t) for t in tables)
        with connection.cursor() as cursor:
            # TRUNCATE refuses a table with pending deferred checks (Django's foreign keys are
            # DEFERRABLE INITIALLY DEFERRED): fire them now, as the commit would.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def replay(projections: Sequence[Projection], *, casino: str | None = None) -> int:
    """Replay the events (of every casino, or of one) through ``projections``' handlers and one
    writer, in batches (COPY for large inserts). Returns the events read."""
    wanted: dict[str, list[Projection]] = defaultdict(list)
    for p in projections:
        for event_type in p.handlers:
            wanted[event_type].append(p)
    writer = Writer(copy=True)
    reader = Reader(writer)
    count = 0
    with guard(writer):
        for page in replay_pages(casino=casino):
            for recorded in page:
                for p in wanted.get(recorded.event_type, ()):
                    writer.add(p.changes(recorded, reader))
            count += len(page)
            if writer.pending >= REPLAY_BATCH:
                writer.flush()
        writer.flush()
    return count


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
    return replay(projections, casino=casino)


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
    """Rebuild inside a transaction that is rolled back; return what differs from live."""
    projections = selected(names)
    differences: list[Difference] = []
    try:
        with transaction.atomic():
            lock_appends()
            before = {p.name: p.snapshot() for p in projections}
            replayable = [p for p in projections if not p.append_only]
            _empty(replayable, casino)
            replay(replayable, casino=casino)
            for p in projections:
                after = (p.replay_snapshot(e for page in replay_pages() for e in page)
                         if p.append_only else p.snapshot())
                for table, live_rows in before[p.name].items():
                    live, rebuilt = Counter(live_rows), Counter(after.get(table, []))
                    if live != rebuilt:
                        differences.append(
                            Difference(
                                p.name,
                                table,
                                sorted((live - rebuilt).elements(), key=repr),
                                sorted((rebuilt - live).elements(), key=repr),
                            )
                        )
            raise _RollBack
    except _RollBack:
        pass
    return differences
