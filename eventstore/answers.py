"""A command's answer as JSON and back (the idempotency record keeps it; a retry gets it).

A service answers a frozen dataclass of JSON-native fields (``cage.answers.ShiftOpenAnswer``:
strings, integers, booleans, None, lists, mappings and dataclasses of them). The record keeps
``as_data(answer)`` (its fields, as ``dataclasses.asdict`` gives them, less the optional parts
it does not have: an answer's JSON is what it was before answers were types); a retry with the same key rebuilds the dataclass
from it by the service's return annotation (``rebuild``), so that it answers exactly as the
first time: the same type, equal fields. A service that still answers a mapping gets it back as
stored.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from typing import Any


def as_data(answer: Any) -> Any:
    """The answer as JSON-native data: a dataclass as a mapping of its fields (nested ones too),
    less each optional part it does not have (a field whose default is None, left None)."""
    if dataclasses.is_dataclass(answer) and not isinstance(answer, type):
        return {f.name: as_data(value) for f in dataclasses.fields(answer)
                if (value := getattr(answer, f.name)) is not None or f.default is not None}
    if isinstance(answer, list | tuple):
        return [as_data(item) for item in answer]
    if isinstance(answer, dict):
        return {key: as_data(value) for key, value in answer.items()}
    return answer


@functools.cache
def answer_type(service: Callable[..., Any]) -> type | None:
    """The dataclass a service answers (its return annotation), or None."""
    kind = typing.get_type_hints(service).get("return")
    return kind if isinstance(kind, type) and dataclasses.is_dataclass(kind) else None


def rebuild(kind: Any, data: Any) -> Any:
    """``data`` (what ``as_data`` gave, through JSON) as a value of type ``kind``."""
    if data is None:
        return None
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        kept = [a for a in args if a is not type(None)]
        return rebuild(kept[0], data) if len(kept) == 1 else data
    if origin is list:
        return [rebuild(args[0], item) for item in data]
    if origin is dict:
        return {key: rebuild(args[1], value) for key, value in data.items()}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        return kind(**{f.name: rebuild(hints[f.name], data[f.name])
                       for f in dataclasses.fields(kind) if f.name in data})
    return data
