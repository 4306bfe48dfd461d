"""Event classes: explicit frozen dataclasses with a stable name and a schema version.

An event class declares ``event_type`` (the stored name, never a Python path) and
``schema_version``. When a shape changes, bump ``schema_version`` and register one upcaster from
the previous version; stored events are never rewritten, they are upcast when read.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import types
import typing
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from typing import Any, ClassVar, Self

JSON = dict[str, Any]
Upcaster = Callable[[JSON], JSON]

_EVENT_CLASSES: dict[str, type[Event]] = {}
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


class UnknownEventType(LookupError):
    pass


@dataclasses.dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every domain event. Subclasses are frozen keyword-only dataclasses."""

    event_type: ClassVar[str]
    schema_version: ClassVar[int] = 1

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("event_type")
        if name:
            existing = _EVENT_CLASSES.get(name)
            if existing is not None and existing.__qualname__ != cls.__qualname__:
                raise TypeError(f"event type {name!r} is already taken by {existing.__qualname__}")
            _EVENT_CLASSES[name] = cls

    def to_data(self) -> JSON:
        names = _field_names(type(self))  # type: ignore[arg-type]  # classes are hashable
        values = self.__dict__  # a frozen dataclass keeps its fields there (no __slots__)
        return {name: value if type(value := values[name]) in _PLAIN else _encode(value)
                for name in names}

    @classmethod
    def from_data(cls, data: JSON) -> Self:
        made: Self = _builder(cls)(data)  # type: ignore[arg-type]  # classes are hashable
        return made


def upcaster(event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register ``fn(data) -> data`` that turns version ``from_version`` into the next one."""

    def register(fn: Upcaster) -> Upcaster:
        key = (event_type, from_version)
        if key in _UPCASTERS:
            raise TypeError(f"an upcaster for {event_type} v{from_version} exists already")
        _UPCASTERS[key] = fn
        return fn

    return register


def event_class(event_type: str) -> type[Event]:
    try:
        return _EVENT_CLASSES[event_type]
    except KeyError:
        raise UnknownEventType(f"no event class is registered for {event_type!r}") from None


def registered_event_types() -> dict[str, type[Event]]:
    return dict(_EVENT_CLASSES)


def upcast(event_type: str, schema_version: int, data: JSON) -> JSON:
    """Bring stored data up to the class's current schema version through the upcaster chain."""
    target = event_class(event_type).schema_version
    version = schema_version
    while version < target:
        try:
            step = _UPCASTERS[(event_type, version)]
        except KeyError:
            raise UnknownEventType(
                f"{event_type} v{version} cannot be read: no upcaster to v{version + 1}"
            ) from None
        data = step(data)
        version += 1
    return data


def decode(event_type: str, schema_version: int, data: JSON) -> Event:
    return event_class(event_type).from_data(upcast(event_type, schema_version, data))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


_PLAIN = frozenset({str, int, bool, type(None)})


def _encode(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    # The usual containers and Decimal by exact type first (no isinstance chain per value).
    if kind is Decimal:
        return str(value)
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else _encode(v) for v in value]
    if kind is dict:
        return {str(k): v if type(v) in _PLAIN else _encode(v) for k, v in value.items()}
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, float):
        raise TypeError("events never hold floats: use Decimal for money")
    return value


@cache
def _builder(cls: type) -> Callable[[JSON], Any]:
    """A function that builds a ``cls`` from its stored data, written once per class: each field
    read, decoded when its type asks (``_decoders``). Generated, not looped, because a rebuild
    decodes every event of the store.

    The instance is made as the dataclass's own ``__init__`` would make it, without calling it
    (a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, the most
    of a decoding's time): each field put in the instance's ``__dict__`` in field order, a field
    left out takes its default (or its factory's), a required one left out is refused with
    ``__init__``'s own ``TypeError``. A class whose ``__init__`` does more (a ``__post_init__``,
    a field outside ``__init__``) is built by calling it."""
    fields = dataclasses.fields(cls)
    direct = not hasattr(cls, "__post_init__") and all(f.init for f in fields)
    lines = ["def build(data):"]
    lines += ["    made = new(cls)", "    slots = made.__dict__"] if direct else ["    kwargs = {}"]
    target = "slots" if direct else "kwargs"
    scope: dict[str, Any] = {"cls": cls, "new": object.__new__}
    for index, ((name, decode), field) in enumerate(zip(_decoders(cls), fields, strict=True)):
        lines.append(f"    if {name!r} in data:")
        if decode is None:
            lines.append(f"        {target}[{name!r}] = data[{name!r}]")
        else:
            scope[f"decode_{index}"] = decode
            lines.append(f"        value = data[{name!r}]")
            lines.append(f"        {target}[{name!r}] = None if value is None else "
                         f"decode_{index}(value)")
        if not direct:
            continue
        lines.append("    else:")
        if field.default is not dataclasses.MISSING:
            scope[f"default_{index}"] = field.default
            lines.append(f"        slots[{name!r}] = default_{index}")
        elif field.default_factory is not dataclasses.MISSING:
            scope[f"factory_{index}"] = field.default_factory
            lines.append(f"        slots[{name!r}] = factory_{index}()")
        else:
            scope[f"missing_{index}"] = (f"{cls.__qualname__}.__init__() missing 1 required "
                                         f"keyword-only argument: {name!r}")
            lines.append(f"        raise TypeError(missing_{index})")
    lines.append("    return made" if direct else "    return cls(**kwargs)")
    exec("\n".join(lines), scope)  # the text is made here from field names
    build: Callable[[JSON], Any] = scope["build"]
    return build


@cache
def _decoders(cls: type) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """Per field of ``cls``: its name and the function that decodes its stored value (None when
    the stored value is the value), worked out once from the type hints (``_decode``)."""
    hints = _hints(cls)
    return tuple((f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls))


def _decoder(hint: Any) -> Callable[[Any], Any] | None:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decoder(options[0]) if len(options) == 1 else None
    if hint is Decimal:
        return Decimal
    if hint is dt.datetime:
        return dt.datetime.fromisoformat
    if hint is dt.date:
        return dt.date.fromisoformat
    if hint in (str, int, bool, Any) or (origin is None and not isinstance(hint, type)):
        return None
    if origin in (tuple, list, dict):
        return functools.partial(_decode, hint) if _changes_shape(hint) else None
    return None


def _changes_shape(hint: Any) -> bool:
    """Whether a stored value of type ``hint`` differs from the value (a Decimal, a date or a
    tuple somewhere inside); a list or dict of plain values is stored as it is."""
    origin = typing.get_origin(hint)
    if origin is tuple:
        return True
    if origin in (list, dict) or origin in (typing.Union, types.UnionType):
        return any(_changes_shape(a) for a in typing.get_args(hint) if a is not type(None))
    if hint is Any:  # a class since Python 3.11, and stored as it is
        return False
    return hint in (Decimal, dt.datetime, dt.date) or (
        isinstance(hint, type) and hint not in (str, int, bool, type(None)))


def _decode(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decode(options[0], value) if len(options) == 1 else value
    if hint is Decimal:
        return Decimal(value)
    if hint is dt.datetime:
        return dt.datetime.fromisoformat(value)
    if hint is dt.date:
        return dt.date.fromisoformat(value)
    args: tuple[Any, ...] = typing.get_args(hint)
    if origin is tuple:
        return tuple(_decode(args[0] if args else Any, v) for v in value)
    if origin is list:
        return [_decode(args[0] if args else Any, v) for v in value]
    if origin is dict:
        inner = args[1] if len(args) == 2 else Any
        return {k: _decode(inner, v) for k, v in value.items()}
    return value
