"""The unit of work: what one command knows while it runs, in one object.

A command (``commands.command``) opens a transaction, takes the append lock first, looks its
idempotency key up and sends the reads it declares, all in one round trip; then its service runs.
Everything the event store and the live projections need to know about that command travels in
one ``UnitOfWork``, found through one ``ContextVar`` (never on the database connection, never in
a thread-local):

* ``casino``: the casino whose append lock the command holds (its events go on that chain);
* ``read_ahead``: the rows of the declared reads, each taken once by the service's own read;
* ``answer``: the command's identity and, once its last append gives it, its answer (the
  idempotency record then travels with the events);
* ``head``: where its next append goes (``Head``), read with the casino's lock by the first
  round trip, then carried on by each append; ``head_checked`` once an append of the command
  has found it right under the position lock (docs/adr/0010-head-with-the-lock.md).

The projections' changes of an append go to a writer of its own (``writer.Writer``), passed to
the handlers that read (``writer.Reader``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

Statement = tuple[str, Sequence[Any]]


@dataclasses.dataclass(frozen=True)
class Head:
    """Where the next append goes: the store's last position, and the casino's last sequence,
    hash and ``recorded_at`` (the append stamps no earlier time: ``store._prepared``)."""

    position: int
    sequence: int
    hash: str
    recorded_at: dt.datetime | None = None


@dataclasses.dataclass
class Answer:
    """The running command's identity, for its idempotency record."""

    casino: str
    key: str
    command: str
    digest: str
    answered: Any = None


class UnitOfWork:
    __slots__ = ("answer", "casino", "command", "head", "head_checked", "in_command",
                 "read_ahead")

    def __init__(self, command: str = "", *, in_command: bool = False,
                 answer: Answer | None = None) -> None:
        self.command = command
        # Every read of a command runs after the append lock: the versions it appends at are
        # current, so its INSERT may wait for the projections and travel with their writes.
        self.in_command = in_command
        self.answer = answer
        self.casino = ""
        self.head: Head | None = None
        self.head_checked = False
        self.read_ahead: dict[tuple[str, tuple[Any, ...]], list[tuple[Any, ...]]] = {}

    def take_read(self, query: str, params: Sequence[Any]) -> list[tuple[Any, ...]] | None:
        """The rows read ahead for ``query``, once; None when it was not read ahead."""
        if not self.read_ahead:
            return None
        return self.read_ahead.pop((query, tuple(params)), None)

    def forget_reads(self) -> None:
        """Rows read ahead are the truth until the command first writes."""
        self.read_ahead.clear()


_current: ContextVar[UnitOfWork | None] = ContextVar("casino_unit_of_work", default=None)


def current() -> UnitOfWork | None:
    """The unit of work of the command running in this context, if any."""
    return _current.get()


@contextmanager
def running(unit: UnitOfWork) -> Iterator[UnitOfWork]:
    """Make ``unit`` the current one for the duration of the block."""
    token = _current.set(unit)
    try:
        yield unit
    finally:
        _current.reset(token)
