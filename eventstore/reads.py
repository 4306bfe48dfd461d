"""What a command reads: the one door of services (and projections) to the event store's reads.

A command declares its first reads (``commands.command(reads=…)``): they travel with the append
lock in the command's first round trip, and the same read made by the service then takes those
rows instead of asking again, once, until the command first writes. The reads here are prepared
statements with server-side binding that build the model instances the ORM would
(``tests/casino/test_prepared.py``); how they travel (pipelines, prepared statements, the rows
read ahead) is the event store's business (``wire``, private to it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from django.db import connection, models, transaction

from . import wire

Read = tuple[str, Sequence[Any]]  # a query with %s placeholders, and its parameters
M = TypeVar("M", bound=models.Model)


def columns(model: type[models.Model], alias: str) -> str:
    """``alias.column, …`` for every concrete field of ``model``, as ``models``/``all`` read them."""
    return wire.columns(model, alias)


def one(query: str, params: Sequence[Any], *kinds: type[models.Model]
        ) -> tuple[models.Model, ...] | None:
    """The first row of ``query`` (``columns`` of each of ``kinds`` in turn) as instances."""
    return wire.fetch_models(query, params, *kinds)


def every(query: str, params: Sequence[Any], kind: type[M]) -> list[M]:
    """The rows of ``query`` (``columns(kind, …)``) as instances."""
    return wire.fetch_all(query, params, kind)


@contextmanager
def one_instant() -> Iterator[None]:
    """The reads inside see one instant (a transaction ``REPEATABLE READ, READ ONLY``): a figure
    of the floor and the ledger's account set against it cannot be read either side of a
    command that moves both (a sale, a cheque). Inside the caller's transaction, the caller's:
    a command that reads under its append lock sees nothing move meanwhile."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
