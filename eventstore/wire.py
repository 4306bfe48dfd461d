"""The event store's wire: hot-path SQL as prepared statements with server-side binding, and
the pipelines that send several at once. Private to ``eventstore`` (an import-linter
contract): services and projections read through ``reads`` and write by returning changes.

Django's cursor binds on the client: psycopg renders every parameter into the query text, and
re-parses queries with over 50 parameters on every call; PostgreSQL then parses and plans the
text each time. The pit's and the ledger's per-round statements go through ``execute`` instead:
the query is turned into ``$1, $2 …`` once, psycopg prepares it on the server after a few runs
(one plan per statement shape), and database errors come out as Django's, as from its cursor.
"""

from __future__ import annotations

import contextlib
import functools
import re
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from psycopg.types.json import Jsonb

from . import unit
from .hashing import canonical_text

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
    db = connections[DEFAULT_DB_ALIAS]  # one look-up (each ``connection.x`` makes its own)
    if db.connection is None:
        db.ensure_connection()
    raw: psycopg.Connection[Any] = db.connection
    return raw


@contextmanager
def execute(query: str, params: Sequence[Any]) -> Iterator[psycopg.RawCursor[Any]]:
    """Run ``query`` (``%s`` placeholders) as a prepared statement; yield its cursor."""
    raw = raw_connection()
    with connections[DEFAULT_DB_ALIAS].wrap_database_errors, psycopg.RawCursor(raw) as cursor:
        cursor.execute(numbered(query), params, prepare=True)
        yield cursor


Statement = tuple[str, Sequence[Any]]


def send(statements: Sequence[Statement]) -> list[int]:
    """Run statements whose rows nobody reads (``%s`` placeholders); return their row counts.

    Several go in one pipeline: the client waits once for them all (measured here: a statement
    sent alone costs about 140 µs of waiting, one more in a pipeline about 20 µs, the pipeline
    itself about 60 µs, so a single statement is sent plainly).
    """
    db = connections[DEFAULT_DB_ALIAS]
    work = unit.current()
    if work is not None:
        work.forget_reads()  # rows read ahead are the truth until the command writes
    raw = raw_connection()
    cursors: list[psycopg.RawCursor[Any]] = []
    try:
        with db.wrap_database_errors:
            if len(statements) > 1:
                with raw.pipeline():
                    run_on(raw, statements, cursors)
            else:
                run_on(raw, statements, cursors)
        return [cursor.rowcount for cursor in cursors]
    finally:
        for cursor in cursors:
            cursor.close()


def run_on(raw: psycopg.Connection[Any], statements: Sequence[Statement],
           cursors: list[psycopg.RawCursor[Any]]) -> None:
    """Execute each statement, prepared, on a cursor of its own appended to ``cursors`` (which
    the caller closes)."""
    for query, params in statements:
        cursor = psycopg.RawCursor(raw)
        cursors.append(cursor)
        cursor.execute(numbered(query), params, prepare=True)


class EarlyPipeline:
    """A pipeline whose first statements are sent at once, so the server runs them while Python
    prepares the next ones; ``finish`` sends those and waits once for all.

    Django's own queries must not run inside a pipeline (the ORM reads a row count right after
    its statement, which a pipeline only gives at its end): ``before_orm``, installed with
    ``connection.execute_wrapper``, ends the pipeline (waiting for what was sent) before any of
    them, and what is added afterwards goes through ``send``. This module's reads and ``send``
    work inside it (they fetch what they need, or end a nested pipeline).
    """

    def __init__(self, first: Sequence[Statement]) -> None:
        self._raw = raw_connection()
        self._cursors: list[psycopg.RawCursor[Any]] = []
        self._pipeline: Any = None
        self._counts: list[int] | None = None
        with connections[DEFAULT_DB_ALIAS].wrap_database_errors:
            self._pipeline = self._raw.pipeline()
            self._pipeline.__enter__()
            run_on(self._raw, first, self._cursors)

    def end(self) -> None:
        """Leave the pipeline now, waiting for what was sent (before a query that needs its
        answer at once: an ORM query)."""
        self._end()

    def enqueue(self, statements: Sequence[Statement]) -> None:
        """Send ``statements`` now, in the pipeline if it is still open (no wait), else as
        ``send`` would."""
        if not statements:
            return
        if self._pipeline is not None:
            with connections[DEFAULT_DB_ALIAS].wrap_database_errors:
                run_on(self._raw, statements, self._cursors)
        else:
            send(statements)

    def _end(self, error: BaseException | None = None) -> None:
        """Leave the pipeline, waiting for what was sent (raising its first error, unless
        ``error`` is already on its way out)."""
        if self._pipeline is None:
            return
        pipeline, self._pipeline = self._pipeline, None
        try:
            if error is None:
                with connections[DEFAULT_DB_ALIAS].wrap_database_errors:
                    pipeline.__exit__(None, None, None)
            else:
                # Left as if nothing had happened, its own failure dropped: the driver, told of
                # ``error``, would log "error ignored terminating … pipeline aborted", a warning
                # at every append that goes again after another casino's (a planned path).
                with contextlib.suppress(psycopg.Error):
                    pipeline.__exit__(None, None, None)
        finally:
            self._counts = [cursor.rowcount for cursor in self._cursors]
            for cursor in self._cursors:
                cursor.close()

    def finish(self, statements: Sequence[Statement]) -> list[int]:
        """Send ``statements`` too and wait for everything: the row counts, the first statements'
        first."""
        if self._pipeline is not None:
            with connections[DEFAULT_DB_ALIAS].wrap_database_errors:
                run_on(self._raw, statements, self._cursors)
            self._end()
            assert self._counts is not None
            return self._counts
        counts = list(self._counts or [])
        return counts + (send(statements) if statements else [])

    def abort(self, error: BaseException) -> None:
        """Leave the pipeline after ``error``, which is the one the caller sees."""
        self._end(error)


def insert(model: type[models.Model], rows: Sequence[Mapping[str, Any]]) -> tuple[str, list[Any]]:
    """A multi-row INSERT of ``rows`` into ``model``'s table, and its parameters.

    Each row maps field attnames to values; a field it leaves out takes the model's default. The
    values are prepared as the ORM prepares them (``get_db_prep_save``), so the rows are the ones
    ``Model.objects.create`` would write. The common cases skip the ORM's layers but give what
    they would give: a plain value into a plain column as it is, a ``UUID`` into a UUID column as
    it is (text too: psycopg sends a ``str`` untyped, and PostgreSQL parses it as the column's
    uuid), a dict or list into a JSON column as psycopg's ``Jsonb`` with the field's encoder.
    """
    plan = _insert_plan(model)
    params: list[Any] = []
    add = params.append
    for row in rows:
        for attname, field, kind, adapt in plan:
            value = row[attname] if attname in row else field.get_default()
            if value is None:
                add(None)
            elif kind is _PLAIN_COLUMN and type(value) in _AS_IS:
                add(value)  # what get_db_prep_save would return, without its cost
            elif kind is _UUID_COLUMN and type(value) is uuid.UUID:
                add(value)
            elif kind is _UUID_COLUMN and type(value) is str:
                add(value)  # sent untyped: PostgreSQL reads it as a uuid, and refuses a bad one
            elif kind is _JSON_COLUMN and type(value) in _JSON_CONTAINERS:
                add(adapt(value))
            else:
                add(field.get_db_prep_save(value, connection))
    return _insert_sql(model, len(rows)), params


# Plain values that the ORM passes to the driver unchanged, except into these field types.
_AS_IS = frozenset({str, int, bool, Decimal})
_PREPARED_TYPES = frozenset({"JSONField", "UUIDField", "DurationField", "BinaryField", "DateField",
                             "DateTimeField", "TimeField"})
_JSON_CONTAINERS = frozenset({dict, list})
_UUID_PREP = models.UUIDField.get_db_prep_value
_PLAIN_COLUMN, _UUID_COLUMN, _JSON_COLUMN, _OTHER_COLUMN = "plain", "uuid", "json", "other"


def _jsonb(value: Any) -> Jsonb:
    """What ``adapt_json_value(value, None)`` gives, written by the C encoder built once
    (``canonical_text``; the column is jsonb: PostgreSQL keeps the value, not the text)."""
    return Jsonb(value, dumps=canonical_text)


@functools.cache
def _insert_plan(model: type[models.Model]) -> tuple[tuple[str, Any, str, Any], ...]:
    """Per inserted field: its attname, the field, which shortcut applies, and its JSON adapter."""
    plan = []
    for field in _insert_fields(model):
        internal = field.get_internal_type()
        adapt = None
        if internal == "UUIDField" and type(field).get_db_prep_value is _UUID_PREP:
            kind = _UUID_COLUMN
        elif internal == "JSONField" and type(field).get_prep_value is models.Field.get_prep_value:
            kind = _JSON_COLUMN
            encoder = field.encoder  # type: ignore[attr-defined]
            adapt = (_jsonb if encoder is None else
                     functools.partial(connection.ops.adapt_json_value, encoder=encoder))
        elif internal in _PREPARED_TYPES:
            kind = _OTHER_COLUMN
        else:
            kind = _PLAIN_COLUMN
        plan.append((field.attname, field, kind, adapt))
    return tuple(plan)


@functools.lru_cache(maxsize=256)
def _insert_sql(model: type[models.Model], rows: int) -> str:
    fields = _insert_fields(model)
    quote = connection.ops.quote_name
    row_sql = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return (f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(f.column) for f in fields)}) VALUES "
            + ", ".join([row_sql] * rows))


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


def fetch_one(query: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """Run ``query``; its first row as the database sends it (or the row read ahead)."""
    rows = take_ahead(query, params)
    if rows is not None:
        return rows[0] if rows else None
    with execute(query, params) as cursor:
        row: tuple[Any, ...] | None = cursor.fetchone()
    return row


def fetch_models(query: str, params: Sequence[Any], *kinds: type[models.Model]
                 ) -> tuple[models.Model, ...] | None:
    """Run ``query``, whose one row holds ``columns(kind, …)`` of each model in turn, and build
    the instances the ORM would (its converters applied). None when there is no row. Rows read
    ahead (``remember``) are taken instead of running the query again."""
    rows = take_ahead(query, params)
    if rows is None:
        with execute(query, params) as cursor:
            row = cursor.fetchone()
    else:
        row = rows[0] if rows else None
    return None if row is None else _instances(row, kinds)


def fetch_all(query: str, params: Sequence[Any], kind: type[M]) -> list[M]:
    """Run ``query``, whose rows hold ``columns(kind, …)``: the instances the ORM would build."""
    rows = take_ahead(query, params)
    if rows is None:
        with execute(query, params) as cursor:
            rows = cursor.fetchall()
    found = []
    for row in rows:
        instance = _instances(row, (kind,))[0]
        assert isinstance(instance, kind)
        found.append(instance)
    return found


# --- reads sent ahead ----------------------------------------------------------------------------
# A command declares the first reads its service will make (the session or the round it names):
# they travel in the lock's round trip, after the lock in the same pipeline, so they read what is
# current under it; ``fetch_one``, ``fetch_models`` and ``fetch_all`` then take their rows from the
# unit of work instead of asking again, once, until the command first writes (``send``).


def take_ahead(query: str, params: Sequence[Any]) -> list[tuple[Any, ...]] | None:
    work = unit.current()
    return None if work is None else work.take_read(query, params)


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
