"""Projections: read models built only from events.

Each projection names the tables it owns and registers one handler per event type it reads.
Live projections run inside the appending transaction (``apply_live``, called by
``store.append``), so a screen never shows a state the events do not hold, and a failing
handler aborts the append. ``rebuild`` empties a projection's tables and replays every event;
``check`` does the same inside a transaction that it rolls back, and reports what differs
between the live tables and the rebuilt ones.
"""

from __future__ import annotations

import contextlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar

from django.db import connection, models, transaction

from casino import prepared

from . import unit
from .store import RecordedEvent, lock_appends, read_all

Handler = Callable[[RecordedEvent], None]


class Projection:
    """Base class. Subclasses set ``name`` and ``models`` and decorate handlers with ``@handles``."""

    name: ClassVar[str]
    models: ClassVar[Sequence[type[models.Model]]] = ()
    handlers: ClassVar[dict[str, str]]
    # An append-only projection (the ledger's journal) refuses TRUNCATE like the events do: it is
    # never rebuilt in place; ``check`` compares its tables with ``replay_snapshot``, the state
    # a replay of the events would produce, computed without writing.
    append_only: ClassVar[bool] = False
    # Event types whose handlers read no table of another projection: before them, ``apply_live``
    # need not write out what other projections queued (``flush``).
    self_contained: ClassVar[frozenset[str]] = frozenset()
    # Event types whose handlers read no table at all and only queue writes (``queue``, or
    # state of their own that ``flush`` writes): before them, nothing need be written out. Before
    # any other handler of the projection, ``apply`` writes out what it queued.
    deferred: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers = {}
        for base in reversed(cls.__mro__):
            for attr, value in vars(base).items():
                for event_type in getattr(value, "_handles", ()):
                    cls.handlers[event_type] = attr

    def apply(self, recorded: RecordedEvent) -> None:
        method = self.handlers.get(recorded.event_type)
        if method is not None:
            if recorded.event_type not in self.deferred:
                self.flush()
            getattr(self, method)(recorded)

    def queue(self, query: str, params: Sequence[Any]) -> None:
        """Queue a write whose result nobody reads (``%s`` placeholders): ``flush`` sends it.

        At the end of an append, ``apply_live`` sends every queued write, with the event INSERT
        when it can wait, in one pipeline: one round trip for all of them. The queue belongs to
        the append's unit of work (``unit.Writes``).
        """
        _writes().queued.setdefault(self.name, []).append((query, params))

    def queued(self) -> list[prepared.Statement]:
        """What is queued now, without taking it."""
        return _writes().queued.get(self.name, [])

    def state(self) -> dict[str, Any]:
        """This projection's own state for the append being applied (empty at its start)."""
        found: dict[str, Any] = _writes().state.setdefault(self.name, {})
        return found

    def take_queued(self) -> list[prepared.Statement]:
        """Take what the handlers queued, in order, to be sent now. Subclasses keeping state of
        their own (``state``) add its statements."""
        return _writes().queued.pop(self.name, [])

    def reads_ahead(self, about: Mapping[str, Any]) -> list[prepared.Statement]:
        """What this projection's handlers will read for a command ``about`` something (its
        ``casino``, ``session_id``, and the time ``at`` it runs): a command may send these
        reads with the append lock. None by default."""
        return []

    def flush(self) -> None:
        """Send what is queued now: ``apply_live`` calls it before a handler that may read this
        projection's tables; a replay calls it after every event."""
        statements = self.take_queued()
        if statements:
            prepared.send(statements)

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """The projection's state, comparable across a rebuild (surrogate ids left out)."""
        state: dict[str, list[tuple[Any, ...]]] = {}
        for model in self.models:
            names = [
                f.attname
                for f in model._meta.concrete_fields
                if not (f.primary_key and isinstance(f, models.AutoField | models.BigAutoField))
            ]
            rows = model._default_manager.values_list(*names)
            state[model._meta.db_table] = sorted(
                (tuple(_comparable(v) for v in row) for row in rows), key=repr
            )
        return state


    def replay_snapshot(self, events: Iterable[RecordedEvent]) -> dict[str, list[tuple[Any, ...]]]:
        """For append-only projections: ``snapshot()`` as a replay of ``events`` would leave it."""
        raise NotImplementedError(f"{self.name} must compute its replayed state to be checked")


def _writes() -> unit.Writes:
    work = unit.current()
    if work is None:
        raise RuntimeError("projections run inside a unit of work (store.append, rebuild)")
    return work.writes


def handles(*event_types: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def mark(fn: Callable[..., None]) -> Callable[..., None]:
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


def reads_ahead(about: Mapping[str, Any]) -> list[prepared.Statement]:
    """Every live projection's ``reads_ahead`` for a command ``about`` something."""
    statements: list[prepared.Statement] = []
    for projection in registry.projections.values():
        statements += projection.reads_ahead(about)
    return statements


def apply_live(events: Iterable[RecordedEvent], *, first: prepared.Statement | None = None
               ) -> int | None:
    """Apply one append's events to the live projections, in order, in the caller's transaction.

    A projection may queue writes (``queue``, ``take_queued``): at the end, ``first`` (the event
    store's INSERT, when it can wait, with the command's idempotency record) and every queued
    write go to the server in one pipeline, one round trip for them all; ``first``'s row count
    is returned. Before a handler that may read
    other projections' tables, they write what they queued, so every handler sees the tables as
    if each event had been written at once. (Handlers themselves run outside the pipeline: the
    ORM's ``save()`` reads a row count that a pipeline only gives at its end.)
    """
    queuing: list[Projection] = []
    events = list(events)
    if first is not None and not any(registry.by_event_type.get(e.event_type) for e in events):
        return prepared.send([first])[0]  # no projection: nothing to overlap
    # ``first`` goes to the server now: it runs the INSERT while the handlers below run here.
    early = prepared.EarlyPipeline(first) if first is not None else None
    try:
        with (connection.execute_wrapper(early.before_orm) if early is not None
              else contextlib.nullcontext()):
            for recorded in events:
                for projection in registry.by_event_type.get(recorded.event_type, ()):
                    event_type = recorded.event_type
                    if event_type not in projection.self_contained | projection.deferred:
                        for other in queuing:
                            if other is not projection:
                                other.flush()
                        queuing = [projection] if projection in queuing else []
                    projection.apply(recorded)
                    if projection not in queuing:
                        queuing.append(projection)
            statements: list[prepared.Statement] = []
            for projection in queuing:
                statements += projection.take_queued()
            _writes().clear()  # a projection's state lasts one append
        if early is not None:
            return early.finish(statements)[0]
        if statements:
            prepared.send(statements)
    except BaseException as error:
        if early is not None:
            early.abort(error)
        _writes().clear()
        raise
    return None


def _truncate(projections: Iterable[Projection]) -> None:
    tables = [m._meta.db_table for p in projections for m in p.models]
    if tables:
        quoted = ", ".join(connection.ops.quote_name(t) for t in tables)
        with connection.cursor() as cursor:
            # TRUNCATE refuses a table with pending deferred checks (Django's foreign keys are
            # DEFERRABLE INITIALLY DEFERRED): fire them now, as the commit would.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def _replay(projections: Sequence[Projection]) -> int:
    wanted: dict[str, list[Projection]] = defaultdict(list)
    for p in projections:
        for event_type in p.handlers:
            wanted[event_type].append(p)
    count = 0
    with unit.implicit():
        for recorded in read_all():
            for p in wanted.get(recorded.event_type, ()):
                p.apply(recorded)
                p.flush()
            count += 1
    return count


def selected(names: Sequence[str] | None = None) -> list[Projection]:
    if not names:
        return list(registry.projections.values())
    unknown = [n for n in names if n not in registry.projections]
    if unknown:
        raise KeyError(f"unknown projection(s): {', '.join(unknown)}")
    return [registry.projections[n] for n in names]


@transaction.atomic
def rebuild(names: Sequence[str] | None = None) -> int:
    """Empty the projections' tables and replay every event. Returns the events replayed."""
    projections = [p for p in selected(names) if not p.append_only]
    lock_appends()
    _truncate(projections)
    return _replay(projections)


@dataclass
class Difference:
    projection: str
    table: str
    only_live: list[tuple[Any, ...]]
    only_rebuilt: list[tuple[Any, ...]]


class _RollBack(Exception):
    pass


def check(names: Sequence[str] | None = None) -> list[Difference]:
    """Rebuild inside a transaction that is rolled back; return what differs from live."""
    projections = selected(names)
    differences: list[Difference] = []
    try:
        with transaction.atomic():
            lock_appends()
            before = {p.name: p.snapshot() for p in projections}
            replayable = [p for p in projections if not p.append_only]
            _truncate(replayable)
            _replay(replayable)
            for p in projections:
                after = p.replay_snapshot(read_all()) if p.append_only else p.snapshot()
                for table, live_rows in before[p.name].items():
                    rebuilt_rows = after.get(table, [])
                    if live_rows != rebuilt_rows:
                        live_set, rebuilt_set = set(live_rows), set(rebuilt_rows)
                        differences.append(
                            Difference(
                                p.name,
                                table,
                                sorted(live_set - rebuilt_set, key=repr),
                                sorted(rebuilt_set - live_set, key=repr),
                            )
                        )
            raise _RollBack
    except _RollBack:
        pass
    return differences
