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
aborts the append. ``replay.rebuild`` empties a projection's tables (of every casino, or of one)
and replays the events through the same handlers and the same writer, in large batches;
``compare.check`` rebuilds beside the live tables, in a transaction that it rolls
back, and reports what differs between the live tables and the rebuilt ones.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar, TypeVar

from django.db import models
from django.db.models import Model, QuerySet

from . import wire
from .changes import Change
from .dispatch import event_classes
from .events import Event
from .records import RecordedEvent
from .writer import Reader, Writer, guard, send_statements

Handler = Callable[..., Iterable[Change] | None]
H = TypeVar("H", bound=Handler)

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
                for event_class in _MARKED.get(value, ()) if callable(value) else ():
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


# the handlers marked so far, and the event classes each handles (read by
# ``Projection.__init_subclass__`` when the class that defines them is created)
_MARKED: dict[Callable[..., Any], tuple[type[Event], ...]] = {}


def handles(fn: H) -> H:
    """Mark a projection's method as the handler of the event class (or union of classes) its
    ``event`` parameter is annotated with. ``@handles("Name")`` is refused (TypeError)."""
    _MARKED[fn] = event_classes(fn)
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
        _MARKED[fn] = given
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
