"""Dispatch by the event's class: one shape for every fold over the events.

A projection's handler, a ledger posting and a step of the chips-in-circulation fold are each a
function of the typed event (read through the upcasters) first, then of what it folds into (the
recorded envelope, the ledger's context, the circulation's state). Each is registered where it
is defined, for the event class its ``event`` parameter is annotated with (a union for a
function of several)::

    @posts
    def chips_sold(event: ChipsSold, ctx: Context) -> Posting: ...

so that an editor's "find usages" of ``ChipsSold`` reaches every function that follows it. A
name (``@posts("ChipsSold")``) is refused: the stored name is the class's business
(``Event.event_type``), not the handler's.

The annotation is read once, when the function is registered (``typing.get_type_hints``); a
lookup is a dict's, by class or by the stored name (``Dispatch.by_name``, for a reader that has
not decoded the event yet). Pure: no Django (``ledger.postings`` and ``cage.circulation`` use it).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .events import Event

F = TypeVar("F", bound=Callable[..., Any])


def event_classes(fn: Callable[..., Any], parameter: str = "event") -> tuple[type[Event], ...]:
    """The event classes ``fn`` is for: the annotation of its parameter ``parameter``, one event
    class or a union of them. Raises TypeError for anything else (a name, no annotation)."""
    if isinstance(fn, str) or not callable(fn):
        raise TypeError(f"a function is registered by the class of its {parameter!r} parameter's "
                        f"annotation, not by {fn!r}")
    try:
        hint = typing.get_type_hints(fn)[parameter]
    except KeyError:
        raise TypeError(f"{fn.__qualname__}: annotate its {parameter!r} parameter with the "
                        "event class it is for") from None
    options = (typing.get_args(hint)
               if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,))
    for option in options:
        if not (isinstance(option, type) and issubclass(option, Event)
                and "event_type" in vars(option)):
            raise TypeError(f"{fn.__qualname__}: its {parameter!r} parameter is annotated with "
                            f"{option!r}, not an event class")
    return tuple(options)


class Dispatch(Generic[F]):
    """Functions by event class, one per class, each registered by decorating it with the
    table (``@posts``)."""

    def __init__(self, what: str, parameter: str = "event") -> None:
        self.what = what  # "posting", "circulation step": said in errors
        self.parameter = parameter
        self.by_class: dict[type[Event], F] = {}
        self.by_name: dict[str, F] = {}

    def __call__(self, fn: F) -> F:
        for cls in event_classes(fn, self.parameter):
            found = self.by_class.get(cls)
            if found is not None:
                raise TypeError(f"{cls.__name__} has a {self.what} already: {found.__qualname__}")
            self.by_class[cls] = fn
            self.by_name[cls.event_type] = fn
        return fn

    def names(self) -> frozenset[str]:
        """The stored names of the classes registered (what a reader of the store asks for)."""
        return frozenset(self.by_name)
