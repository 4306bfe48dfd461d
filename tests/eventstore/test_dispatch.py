"""Dispatch by type: a projection's handler, a ledger posting and a step of the chips-in-circulation
fold are registered where they are defined, for the event class their ``event`` parameter is
annotated with, never by a name; every handler written is found by its event's class."""

from __future__ import annotations

import ast
import datetime as dt
import inspect
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cage import circulation
from cage.events import ChipsSold
from eventstore.changes import Change
from eventstore.dispatch import Dispatch
from eventstore.events import Event, event_class, registered_event_types
from eventstore.projections import Projection, handles, handles_each, registry
from eventstore.records import RecordedEvent
from eventstore.writer import Reader, Writer
from ledger import postings

ROOT = Path(__file__).resolve().parents[2]
# The three tables of functions by event class: what each registers, and how it is named.
TABLES: dict[str, Dispatch[Any]] = {"posting": postings.posts, "step": circulation.step}


@dataclass(frozen=True, kw_only=True)
class Counted(Event):
    """A stand-in event of these tests."""

    event_type = "TestDispatchCounted"
    schema_version = 1

    table: str
    amount: Decimal


@dataclass(frozen=True, kw_only=True)
class Recounted(Event):
    event_type = "TestDispatchRecounted"
    schema_version = 1

    table: str


def _project_modules() -> Iterator[Path]:
    """Every module of the project's packages (the import contracts' root packages)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for package in config["tool"]["importlinter"]["root_packages"]:
        yield from sorted((ROOT / package).rglob("*.py"))


def test_no_handler_posting_or_circulation_step_is_registered_by_a_name() -> None:
    """No decorator of the project is given an event type's stored name: a fold over the events
    (projection handlers, postings, circulation steps) finds its function by the event's class.
    Upcasters (registered per stored name and version) are the one exception."""
    names = set(registered_event_types())
    assert {"ChipsSold", "RoundSettled"} <= names
    by_name: list[str] = []
    for path in _project_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for decorator in node.decorator_list:
                if not isinstance(decorator, ast.Call):
                    continue
                called = ast.unparse(decorator.func)
                if called.rpartition(".")[2] == "upcaster":
                    continue
                given = [a.value for a in ast.walk(decorator) if isinstance(a, ast.Constant)
                         and isinstance(a.value, str) and a.value in names]
                if given:
                    by_name.append(f"{path.relative_to(ROOT)}:{node.lineno} @{called}"
                                   f"({', '.join(map(repr, given))}) {node.name}")
    assert by_name == [], "registered by an event type's name, not by its class"


def test_every_registry_is_keyed_by_event_classes() -> None:
    assert registry.projections
    for projection in registry.projections.values():
        for key in projection.handlers:
            assert isinstance(key, type), (projection.name, key)
            assert issubclass(key, Event), (projection.name, key)
    for what, table in TABLES.items():
        assert table.by_class, what
        for key, fn in table.by_class.items():
            assert isinstance(key, type), (what, key)
            assert issubclass(key, Event), (what, key)
            assert table.by_name[key.event_type] is fn
    assert postings.posts.by_class[ChipsSold] is postings.chips_sold


def test_a_name_is_refused_where_a_handler_posting_or_step_is_registered() -> None:
    with pytest.raises(TypeError, match="not by 'ChipsSold'"):
        handles("ChipsSold")  # type: ignore[type-var]  # the mistake this test is about
    with pytest.raises(TypeError, match="not by 'ChipsSold'"):
        handles_each(["ChipsSold"])  # type: ignore[list-item]  # the same mistake
    for table in (postings.posts, circulation.step):
        with pytest.raises(TypeError, match="not by 'ChipsSold'"):
            table("ChipsSold")  # type: ignore[arg-type]  # the mistake this test is about


def test_a_function_is_registered_for_the_class_or_classes_of_its_annotation() -> None:
    table: Dispatch[Any] = Dispatch("test step")

    @table
    def counted(event: Counted | Recounted, state: list[str]) -> None:
        state.append(event.table)

    assert table.by_class == {Counted: counted, Recounted: counted}
    assert table.names() == {"TestDispatchCounted", "TestDispatchRecounted"}

    def again(event: Counted, state: list[str]) -> None: ...

    with pytest.raises(TypeError, match="Counted has a test step already"):
        table(again)

    def untyped(event, state):  # type: ignore[no-untyped-def]  # no annotation: refused
        ...

    with pytest.raises(TypeError, match="annotate its 'event' parameter"):
        table(untyped)

    def not_an_event(event: str, state: list[str]) -> None: ...

    with pytest.raises(TypeError, match="not an event class"):
        table(not_an_event)


def _handlers_written(cls: type[Projection]) -> Iterator[tuple[str, type[Event]]]:
    """The public methods of ``cls`` written as handlers (an ``event`` parameter annotated with
    event classes, and the ``recorded`` envelope), with each class they are written for. (A
    private one, ``_cage``, is a helper that handlers call.)"""
    for name, fn in inspect.getmembers(cls, inspect.isfunction):
        if name.startswith("_"):
            continue
        parameters = inspect.signature(fn).parameters
        if "event" not in parameters or "recorded" not in parameters:
            continue
        hints = inspect.get_annotations(fn, eval_str=True)
        hint = hints.get("event")
        options = getattr(hint, "__args__", (hint,))
        for option in options:
            if isinstance(option, type) and issubclass(option, Event) and (
                    "event_type" in vars(option)):
                yield name, option


def test_every_event_class_with_a_projection_handler_finds_it_by_type() -> None:
    """A handler written for an event class (its annotation) is the one its projection calls for
    that class, found by the class; the live projections are found by the class as by its
    stored name."""
    written = 0
    for projection in registry.projections.values():
        for method, cls in _handlers_written(type(projection)):
            written += 1
            found = projection.handlers.get(cls)
            assert found is not None, f"{projection.name}.{method}: {cls.__name__} not found"
            assert found[0] == method, (projection.name, cls.__name__, found, method)
            assert projection in registry.by_class[cls]
    assert written > 100
    for name, projections in registry.by_event_type.items():
        assert registry.by_class[event_class(name)] == projections


def test_a_projection_finds_its_handler_by_the_events_class() -> None:
    seen: list[str] = []

    class Counter(Projection):
        name = "test_dispatch_counter"

        @handles
        def counted(self, event: Counted | Recounted, recorded: RecordedEvent) -> list[Change]:
            seen.append(event.table)
            return []

    assert set(Counter.handlers) == {Counted, Recounted}

    def recorded(event: Event) -> RecordedEvent:
        return RecordedEvent(position=1, stream="test/1", version=1,
                             event_type=event.event_type, schema_version=1,
                             data=event.to_data(), metadata={},
                             recorded_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
                             prev_hash="", hash="")

    reader = Reader(Writer())
    assert list(Counter().changes(recorded(Counted(table="T1", amount=Decimal("1.00"))),
                                  reader)) == []
    assert list(Counter().changes(recorded(Recounted(table="T2")), reader)) == []
    assert seen == ["T1", "T2"]
