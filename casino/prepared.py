"""Hot-path SQL as prepared statements with server-side binding.

Django's cursor binds on the client: psycopg renders every parameter into the query text, and
re-parses queries with over 50 parameters on every call; PostgreSQL then parses and plans the
text each time. The pit's and the ledger's per-round statements go through ``execute`` instead:
the query is turned into ``$1, $2 …`` once, psycopg prepares it on the server after a few runs
(one plan per statement shape), and database errors come out as Django's, as from its cursor.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any, TypeVar

import psycopg
from django.db import connection, models

_PLACEHOLDER = re.compile(r"%s|%%")
M = TypeVar("M", bound=models.Model)


@functools.lru_cache(maxsize=1024)
def numbered(query: str) -> str:
    """``query`` with its ``%s`` placeholders numbered as PostgreSQL's ``$1, $2 …``."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() == "%%":
            return "%"
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, query)


def raw_connection() -> psycopg.Connection[Any]:
    """The psycopg connection under Django's."""
    connection.ensure_connection()
    raw: psycopg.Connection[Any] = connection.connection
    return raw


@contextmanager
def execute(query: str, params: Sequence[Any]) -> Iterator[psycopg.RawCursor[Any]]:
    """Run ``query`` (``%s`` placeholders) as a prepared statement; yield its cursor."""
    with connection.wrap_database_errors, psycopg.RawCursor(raw_connection()) as cursor:
        cursor.execute(numbered(query), params, prepare=True)
        yield cursor


Statement = tuple[str, Sequence[Any]]


def send(statements: Sequence[Statement]) -> list[int]:
    """Run statements whose rows nobody reads (``%s`` placeholders); return their row counts.

    Several go in one pipeline: the client waits once for them all (measured here: a statement
    sent alone costs about 140 µs of waiting, one more in a pipeline about 20 µs, the pipeline
    itself about 60 µs, so a single statement is sent plainly).
    """
    raw = raw_connection()
    cursors = [psycopg.RawCursor(raw) for _ in statements]
    try:
        with connection.wrap_database_errors:
            if len(statements) > 1:
                with raw.pipeline():
                    for cursor, (query, params) in zip(cursors, statements, strict=True):
                        cursor.execute(numbered(query), params, prepare=True)
            else:
                for cursor, (query, params) in zip(cursors, statements, strict=True):
                    cursor.execute(numbered(query), params, prepare=True)
        return [cursor.rowcount for cursor in cursors]
    finally:
        for cursor in cursors:
            cursor.close()


def insert(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> tuple[str, list[Any]]:
    """A multi-row INSERT of ``rows`` into ``model``'s table, and its parameters.

    Each row maps field attnames to values; a field it leaves out takes the model's default. The
    values are prepared as the ORM prepares them (``get_db_prep_save``), so the rows are the ones
    ``Model.objects.create`` would write.
    """
    fields = _insert_fields(model)
    quote = connection.ops.quote_name
    row_sql = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (f"INSERT INTO {quote(model._meta.db_table)} "
           f"({', '.join(quote(f.column) for f in fields)}) VALUES "
           + ", ".join([row_sql] * len(rows)))
    params: list[Any] = []
    for row in rows:
        for field in fields:
            value = row[field.attname] if field.attname in row else field.get_default()
            if value is None or (type(value) in _AS_IS and field.get_internal_type() not in
                                 _PREPARED_TYPES):
                params.append(value)  # what get_db_prep_save would return, without its cost
            else:
                params.append(field.get_db_prep_save(value, connection))
    return sql, params


# Plain values that the ORM passes to the driver unchanged, except into these field types.
_AS_IS = frozenset({str, int, bool, Decimal})
_PREPARED_TYPES = frozenset({"JSONField", "UUIDField", "DurationField", "BinaryField", "DateField",
                             "DateTimeField", "TimeField"})


@functools.cache
def _insert_fields(model: type[models.Model]) -> tuple[models.Field[Any, Any], ...]:
    return tuple(
        f for f in model._meta.concrete_fields
        if not (f.primary_key and isinstance(f, models.AutoField | models.BigAutoField))
    )


@functools.cache
def columns(model: type[models.Model], alias: str) -> str:
    """``alias.column, …`` for every concrete field of ``model``: the select list ``load`` reads."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def fetch_models(query: str, params: Sequence[Any], *kinds: type[models.Model]
                 ) -> tuple[models.Model, ...] | None:
    """Run ``query``, whose one row holds ``columns(kind, …)`` of each model in turn, and build
    the instances the ORM would (its converters applied). None when there is no row."""
    with execute(query, params) as cursor:
        row = cursor.fetchone()
    return None if row is None else _instances(row, kinds)


def fetch_all(query: str, params: Sequence[Any], kind: type[M]) -> list[M]:
    """Run ``query``, whose rows hold ``columns(kind, …)``: the instances the ORM would build."""
    with execute(query, params) as cursor:
        rows = cursor.fetchall()
    found = []
    for row in rows:
        instance = _instances(row, (kind,))[0]
        assert isinstance(instance, kind)
        found.append(instance)
    return found


def _instances(row: Sequence[Any], kinds: Sequence[type[models.Model]]
               ) -> tuple[models.Model, ...]:
    instances = []
    start = 0
    for kind in kinds:
        names, converters = _loading(kind)
        values = list(row[start:start + len(names)])
        for index, field, convert in converters:
            values[index] = convert(values[index], field, connection)
        instances.append(kind.from_db(connection.alias, names, values))
        start += len(names)
    return tuple(instances)


@functools.cache
def _loading(kind: type[models.Model]) -> tuple[list[str], list[tuple[int, Any, Any]]]:
    """The attnames of ``kind``'s concrete fields, and the converters the ORM applies to them."""
    fields = kind._meta.concrete_fields
    converters = [(index, field, convert) for index, field in enumerate(fields)
                  for convert in field.get_db_converters(connection)]  # type: ignore[attr-defined]
    return [f.attname for f in fields], converters
