"""The one writer under every projection: it merges the changes handlers return and sends them.

``add`` takes a handler's changes (``changes.Insert``, ``Update``, ``Upsert``, ``Sql``) and merges
those of one row: an update of a row inserted earlier in the batch changes the insert; two
updates of one row become one (set, added to, extended). ``flush`` turns what is pending into as
few statements as it can: one multi-row INSERT (or COPY, in a rebuild) per table and set of
columns, one ``UPDATE … FROM (VALUES …)`` per table and shape of update, one
``INSERT … ON CONFLICT`` per table for upserts; a ``Sql`` statement is sent as it is, in its
place.

The order trap. Merged and grouped changes are sent in another order than they were made. That
is safe between changes of different rows (no projection table has a trigger reading another),
and changes of one row are merged into one. What could read or touch rows it does not name by
their key is a barrier: what was pending before it of the models it reaches is sent before it,
what comes after, after. A ``Sql`` statement reaches every model; an update whose key is no
unique key of the table reaches its own model, and the changes of every other model pass it,
grouped with their like. No projection sends a ``Sql`` in a rebuild's bulk (the gaming days
are summed by ``Upsert``: a statement at each session's close cut the day's bets into as many
COPYs as sessions, ADR 0014, superseded).

Reads. The writer is flushed before any query a handler makes through the ORM (``guard``), and
``Reader`` serves a row still pending as an insert from memory, so a handler always reads the
tables as if every event before it had been written at once, without declaring what it reads.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from decimal import Decimal
from typing import Any

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from psycopg.types.json import Jsonb

from . import wire
from .changes import Change, Column, Insert, Sql, Update, Upsert

Statement = tuple[str, Sequence[Any]]
# A projection's JSON value as the text of a ``jsonb`` parameter. PostgreSQL keeps the value,
# not the text (its own key order, no spaces), so any correct encoding writes the same row:
# orjson's, several times quicker than the canonical encoder (a rebuild writes tens of
# thousands). Like it, it refuses a Decimal: money goes into JSON as text.
_JSON_TEXT = functools.partial(orjson.dumps, option=orjson.OPT_NON_STR_KEYS)
# Safely under PostgreSQL's 65,535 parameters per statement.
MAX_PARAMETERS = 30_000
# Rows a writer keeps in memory for handlers that read them (a rebuild's); past this, forgotten.
MAX_KNOWN = 200_000


class ProjectionError(Exception):
    """A projection broke the writer's rules (a handler writing through the ORM, say)."""


# --- what the writer knows of a model ------------------------------------------------------------


class _Column:
    __slots__ = ("attname", "aware", "cast", "column", "field", "kind", "name", "text")

    def __init__(self, field: models.Field[Any, Any]) -> None:
        self.field = field
        self.attname = field.attname
        self.column = connection.ops.quote_name(field.column)
        self.name = field.column
        self.cast = field.db_type(connection) or "text"
        internal = field.get_internal_type()
        if internal == "JSONField" and field.encoder is None:  # type: ignore[attr-defined]
            self.kind = "json"
        elif internal == "UUIDField":
            self.kind = "uuid"
        elif internal in ("JSONField", "DurationField", "BinaryField"):
            self.kind = "other"
        else:
            self.kind = "plain"
        # A text column's choice (a ``TextChoices`` member, a str) and a time column's aware
        # datetime go to the driver as they are, as ``get_db_prep_save`` gives them back.
        self.text = internal in ("CharField", "TextField")
        self.aware = internal == "DateTimeField"

    def adapt(self, value: Any) -> Any:
        """The value as the ORM would send it (``get_db_prep_save``), by the short paths of
        ``casino.wire.insert``."""
        if value is None:
            return None
        kind = self.kind
        if kind == "plain":
            if type(value) in _AS_IS or (self.text and isinstance(value, str)):
                return value
            if self.aware and type(value) is datetime and value.tzinfo is not None:
                return value
        if kind == "uuid" and type(value) in (uuid.UUID, str):
            return value
        if kind == "json":
            return Jsonb(value, dumps=_JSON_TEXT)
        return self.field.get_db_prep_save(value, connection)


_AS_IS = frozenset({str, int, bool, Decimal})
# By a column's kind, the types of the values ``_Column.adapt`` gives back as they are.
_AS_IS_INTO: dict[str, frozenset[type]] = {"plain": _AS_IS, "uuid": frozenset({uuid.UUID, str}),
                                           "json": frozenset(), "other": frozenset()}


class _Table:
    """A model's table, columns and unique keys, worked out once."""

    def __init__(self, model: type[models.Model]) -> None:
        meta = model._meta
        self.model = model
        self.name = connection.ops.quote_name(meta.db_table)
        self.columns = {f.attname: _Column(f) for f in meta.concrete_fields}
        auto = meta.pk is not None and isinstance(meta.pk, models.AutoField | models.BigAutoField)
        self.insertable = tuple(a for a, c in self.columns.items()
                                if not (c.field.primary_key and auto))
        keys: list[frozenset[str]] = []
        for f in meta.concrete_fields:
            if f.unique and not (f.primary_key and auto):
                keys.append(frozenset({f.attname}))
        for together in meta.unique_together:
            keys.append(frozenset(_attname(model, n) for n in together))
        for constraint in meta.constraints:
            if (isinstance(constraint, models.UniqueConstraint) and constraint.condition is None
                    and constraint.fields and not constraint.expressions):
                keys.append(frozenset(_attname(model, n) for n in constraint.fields))
        self.keys = tuple(keys)
        # Each unique key with its names in order, as ``_signature`` orders them.
        self.named_keys = tuple((key, tuple(sorted(key))) for key in self.keys)
        # Defaults that are plain values are worked out once; callable ones (a new dict, a new
        # list) are called for each row that leaves their field out.
        self._fixed: dict[str, Any] = {}
        self._called: list[tuple[str, Any]] = []
        for attname in self.insertable:
            field = self.columns[attname].field
            if field.has_default() and callable(field.default):
                self._called.append((attname, field.get_default))
            else:
                self._fixed[attname] = field.get_default()

    def defaults(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``values`` with every insertable field, the model's defaults for those left out."""
        row = dict(self._fixed)
        for attname, make in self._called:
            if attname not in values:
                row[attname] = make()
        row.update(values)
        return row

    def is_key(self, names: Iterable[str]) -> bool:
        return frozenset(names) in self.keys


def _attname(model: type[models.Model], name: str) -> str:
    attname: str = getattr(model._meta.get_field(name), "attname")  # noqa: B009
    return attname


@functools.cache
def table(model: type[models.Model]) -> _Table:
    return _Table(model)


def _signature(key: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """A row's key as a hashable value, every value as text (a UUID and its text are one row).
    A rebuild makes one or two per change: text values are taken as they are."""
    if len(key) == 1:
        ((name, value),) = key.items()
        return ((name, value if type(value) is str else str(value)),)
    items = [(k, v if type(v) is str else str(v)) for k, v in key.items()]
    items.sort()
    return tuple(items)


# --- pending changes ---------------------------------------------------------------------------


class _Row:
    """One row's pending change: an insert, an update or an upsert, merged."""

    __slots__ = ("add", "extend", "key", "kind", "model", "set", "values")

    def __init__(self, kind: str, model: type[models.Model], key: Mapping[str, Any],
                 values: dict[str, Any], set_: dict[str, Any], add: dict[str, Any],
                 extend: dict[str, list[Any]]) -> None:
        self.kind, self.model, self.key = kind, model, key
        self.values, self.set, self.add, self.extend = values, set_, add, extend

    def merge(self, change: Update | Upsert) -> bool:
        """Fold a later change of this row in; False when it cannot be folded."""
        extend = getattr(change, "extend", {})
        if self.kind == "insert":
            values = self.values
            for c, v in change.set.items():
                values[c] = (table(self.model).defaults(values)[v.name] if type(v) is Column
                             else v)
            for c, v in change.add.items():
                values[c] = _plus(values.get(c), v, self.model, c)
            for c, v in extend.items():
                values[c] = [*_listed(values.get(c), self.model, c), *v]
            return True
        if self.kind == "upsert":
            if extend or any(type(v) is Column for v in change.set.values()):
                return False
            for c, v in change.set.items():
                self.values[c] = v
                self.set[c] = v
                self.add.pop(c, None)
            for c, v in change.add.items():
                self.values[c] = _plus(self.values.get(c), v, self.model, c)
                if c in self.set:
                    self.set[c] = _plus(self.set[c], v, self.model, c)
                else:
                    self.add[c] = _plus(self.add.get(c), v, self.model, c)
            return True
        for c, v in change.set.items():  # an update
            if type(v) is Column and v.name in self.set:
                v = self.set[v.name]
            elif type(v) is Column and (v.name in self.add or v.name in self.extend):
                return False
            self.set[c] = v
            self.add.pop(c, None)
            self.extend.pop(c, None)
        for c, v in change.add.items():
            if c in self.set:
                self.set[c] = _plus(self.set[c], v, self.model, c)
            else:
                self.add[c] = _plus(self.add.get(c), v, self.model, c)
        for c, v in extend.items():
            if c in self.set:
                self.set[c] = [*(self.set[c] or []), *v]
            else:
                self.extend[c] = [*self.extend.get(c, []), *v]
        return True


def _plus(value: Any, more: Any, model: type[models.Model], column: str) -> Any:
    if value is None:
        value = table(model).columns[column].field.get_default() or 0
    return value + more


def _listed(value: Any, model: type[models.Model], column: str) -> list[Any]:
    if value is None:
        value = table(model).columns[column].field.get_default()
    return list(value or [])


class Writer:
    """Pending changes of one append (live) or of a batch of events (a rebuild)."""

    def __init__(self, *, copy: bool = False,
                 send: Callable[[Sequence[Statement]], object] | None = None) -> None:
        self._segments: list[list[_Row | Sql]] = [[]]
        # Pending rows by model, then by their key's signature (``_signature``): for merging.
        self._index: dict[type[models.Model], dict[Any, _Row]] = {}
        # The segment a new change of a model joins: the one after the last barrier that reaches
        # the model (``_floor``), or that reaches every model (``_wide``).
        self._floor: dict[type[models.Model], int] = {}
        self._wide = 0
        self._copy = copy
        self._send = send
        self.pending = 0
        # Rows read from the database since the last barrier, kept current with every change
        # made to them since: a second read of the same row needs no round trip.
        self._known: dict[tuple[type[models.Model], Any], dict[str, Any]] = {}
        self._read_models: set[type[models.Model]] = set()
        # Whether a read made earlier in the append still stands (``changed_since``): the
        # changes taken so far, numbered, and the last that reached each model, or any table.
        self._changes = 0
        self._last_change: dict[type[models.Model], int] = {}
        self._last_wide = -1

    # -- taking changes --

    def add(self, changes: Iterable[Change] | None) -> None:
        if changes is None:
            return
        for change in changes:
            self._add(change)

    def _add(self, change: Change) -> None:
        if isinstance(change, Sql):
            self._reach(change.tables)
            self._barrier(change)
            return
        model = change.model
        self._reach((model,))
        if isinstance(change, Insert):
            values = change.values
            entry = _Row("insert", model, {}, dict(values), {}, {}, {})
            self._place(model, entry)
            self.pending += 1
            rows = self._index.get(model)
            if rows is None:
                rows = self._index[model] = {}
            for key, names in table(model).named_keys:
                if key <= values.keys():  # the row's signature under that key (``_signature``)
                    rows[tuple([(n, v if type(v := values[n]) is str else str(v))
                                for n in names])] = entry
            return
        sig = _signature(change.key)  # one signature for the look-ups below
        if self._known:
            known = self._known.get((model, sig))
            if known is not None:
                _apply(known, change)
        rows = self._index.get(model)
        found = None if rows is None else rows.get(sig)
        if found is not None and found.merge(change):
            return
        if isinstance(change, Update):
            if not table(model).is_key(change.key):
                # Several rows, perhaps some still pending: send those first.
                self._barrier(change)
                return
            entry = _Row("update", model, change.key, {}, dict(change.set), dict(change.add),
                         {c: list(v) for c, v in change.extend.items()})
        else:
            entry = _Row("upsert", model, change.key, {**change.key, **change.values,
                                                       **change.set},
                         dict(change.set), dict(change.add), {})
            for c, v in change.add.items():
                entry.values[c] = _plus(entry.values.get(c), v, model, c)
        self._place(model, entry)
        self.pending += 1
        if rows is None:
            rows = self._index[model] = {}
        rows[sig] = entry

    def _place(self, model: type[models.Model], entry: _Row) -> None:
        floor = self._floor.get(model, 0)
        self._segments[floor if floor > self._wide else self._wide].append(entry)

    def _barrier(self, change: Sql | Update) -> None:
        self._segments.append([change if isinstance(change, Sql) else _Row(
            "update", change.model, change.key, {}, dict(change.set), dict(change.add),
            {c: list(v) for c, v in change.extend.items()})])
        self._segments.append([])
        after = len(self._segments) - 1
        if isinstance(change, Sql) and not change.tables:  # it may read or write any table
            # What a handler may read of the rows no longer merged into stays readable.
            self._keep_inserted()
            self._index.clear()
            self._wide = after
            self._known.clear()  # it may change any row
        else:  # it reaches its own model (or the models it names) only
            reach = frozenset(change.tables if isinstance(change, Sql) else (change.model,))
            self._keep_inserted(reach)
            for model in reach:
                self._index.pop(model, None)
                self._floor[model] = after
            for known in [k for k in self._known if k[0] in reach]:
                del self._known[known]
        self.pending += 1

    def _reach(self, tables: Iterable[type[models.Model]]) -> None:
        """A change that reaches ``tables`` (none named: any table)."""
        number, named = self._changes, False
        for model in tables:
            self._last_change[model], named = number, True
        if not named:
            self._last_wide = number
        self._changes = number + 1

    def mark(self) -> int:
        """Where the changes stand now: ``changed_since`` tells what was changed after."""
        return self._changes

    def changed_since(self, mark: int, models: Iterable[type[models.Model]]) -> bool:
        """Whether a change since ``mark`` reached any of ``models`` (or any table). Kept by
        model, not as a list of the changes since to look through: a follower's page asked it
        once a posting and looked through every change of the page each time (about a seventh
        of its pass, docs/benchmarks.md, issue 40)."""
        if self._last_wide >= mark:
            return True
        last = self._last_change
        return any(last.get(model, -1) >= mark for model in models)

    # -- reading what is pending --

    def pending_row(self, model: type[models.Model], key: Mapping[str, Any]
                    ) -> dict[str, Any] | None:
        """The row with ``key`` if it is pending as an insert (its values, defaults filled), or
        was read since the last barrier (as read, with the changes made to it since)."""
        sig = _signature(key)
        rows = self._index.get(model)
        found = None if rows is None else rows.get(sig)
        if found is not None and found.kind == "insert":
            return table(model).defaults(found.values)
        known = self._known.get((model, sig))
        return None if known is None else dict(known)

    def remember(self, model: type[models.Model], key: Mapping[str, Any],
                 row: dict[str, Any]) -> None:
        """A row just read from the database (nothing pending): kept for the next read, and the
        rows of its model inserted from now on too (a handler reads this model)."""
        self._read_models.add(model)
        if len(self._known) >= MAX_KNOWN:
            self._known.clear()
        self._known[(model, _signature(key))] = dict(row)

    def reads(self, model: type[models.Model]) -> None:
        """A handler reads ``model``: rows of it inserted from now on stay readable from memory."""
        self._read_models.add(model)

    # -- sending --

    def statements(self) -> list[Statement]:
        """Take what is pending as statements, in an order that gives the same tables."""
        out: list[Statement] = []
        self._keep_inserted()
        for segment in self._segments:
            groups: dict[Any, list[_Row]] = {}
            for entry in segment:
                if isinstance(entry, Sql):
                    out.append((entry.query, entry.params))
                    continue
                groups.setdefault(_shape(entry), []).append(entry)
            for shape, rows in groups.items():
                out += _compile(shape, rows, copy=self._copy)
        self._reset()
        return out

    def _reset(self) -> None:
        self._segments = [[]]
        self._index.clear()
        self._floor.clear()
        self._wide = 0
        self.pending = 0

    def _keep_inserted(self, reach: frozenset[type[models.Model]] | None = None) -> None:
        """Rows about to be inserted, of a model some handler reads (of those ``reach``es, if
        given), stay readable from memory once written (``pending_row``), as a row read from
        the database would."""
        if not self._read_models:
            return
        if len(self._known) >= MAX_KNOWN:
            self._known.clear()
        for model, rows in self._index.items():
            if model in self._read_models and (reach is None or model in reach):
                defaults = table(model).defaults
                for sig, entry in rows.items():
                    if entry.kind == "insert":
                        self._known[(model, sig)] = defaults(entry.values)

    def flush(self) -> None:
        if not self.pending:
            return
        statements = self.statements()
        if self._send is not None:
            self._send(statements)
        else:
            send_statements(statements)

    def clear(self) -> None:
        self._reset()
        self._known.clear()
        self._reach(())  # what was read before stands no more


def _apply(row: dict[str, Any], change: Update | Upsert) -> None:
    """Bring a row read earlier up to date with a change of it."""
    resolved = {c: (row[v.name] if type(v) is Column else v) for c, v in change.set.items()}
    row.update(resolved)
    for c, v in change.add.items():
        row[c] = (row.get(c) or 0) + v
    for c, v in getattr(change, "extend", {}).items():
        row[c] = [*(row.get(c) or []), *v]


def _shape(entry: _Row) -> Any:
    if entry.kind == "insert":
        return ("insert", entry.model, tuple(sorted(entry.values)))
    if entry.kind == "upsert":
        return ("upsert", entry.model, tuple(sorted(entry.key)), tuple(sorted(entry.values)),
                tuple(sorted(entry.set)), tuple(sorted(entry.add)))
    copies = tuple(sorted((c, v.name) for c, v in entry.set.items() if type(v) is Column))
    values = tuple(sorted(c for c, v in entry.set.items() if type(v) is not Column))
    return ("update", entry.model, tuple(sorted(entry.key)), values,
            tuple(sorted(entry.add)), tuple(sorted(entry.extend)), copies)


# --- statements -----------------------------------------------------------------------------------


class Copy(list[tuple[Any, ...]]):
    """The rows of a ``COPY table (columns) FROM STDIN`` (a rebuild's large inserts), standing in
    its statement for the parameters: ``send_statements`` streams them."""


def _chunks(rows: list[_Row], per_row: int) -> Iterator[list[_Row]]:
    size = max(1, MAX_PARAMETERS // max(per_row, 1))
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def _copy_json(value: Any) -> str:
    """A JSON value as a COPY's text: the server parses it into the column as it would the text
    a ``Jsonb`` parameter sends, without a wrapper and a dumper in Python for each value."""
    return _JSON_TEXT(value).decode()


def _compile(shape: Any, rows: list[_Row], *, copy: bool) -> list[Statement]:
    kind, model = shape[0], shape[1]
    t = table(model)
    out: list[Statement] = []
    if kind == "insert":
        names = [a for a in t.insertable]
        columns = [t.columns[a] for a in names]
        column_list = ", ".join(c.column for c in columns)
        if copy and len(rows) > 50:
            # A rebuild's rows: each value as ``adapt`` gives it, the common cases inline.
            plan = [(c.attname, _AS_IS_INTO[c.kind], _copy_json if c.kind == "json" else c.adapt)
                    for c in columns]
            defaults = t.defaults
            data = [tuple([value if value is None or type(value) in as_is else adapt(value)
                           for attname, as_is, adapt in plan
                           for value in (full[attname],)])
                    for full in (defaults(row.values) for row in rows)]
            out.append((f"COPY {t.name} ({column_list}) FROM STDIN", Copy(data)))
            return out
        row_sql = "(" + ", ".join(["%s"] * len(columns)) + ")"
        for chunk in _chunks(rows, len(columns)):
            params: list[Any] = []
            for row in chunk:
                full = t.defaults(row.values)
                params += [c.adapt(full[c.attname]) for c in columns]
            out.append((f"INSERT INTO {t.name} ({column_list}) VALUES "
                        + ", ".join([row_sql] * len(chunk)), params))
        return out
    if kind == "upsert":
        # INSERT … ON CONFLICT checks the row it proposes against the table's CHECKs before it
        # finds the conflict: a row that exists is not proposed with its additions (a payment
        # from a cage line would read as a negative holding). So: the row as it would be without
        # the additions, inserted if missing, then the additions (and sets) by key.
        key_names = shape[2]
        names = [a for a in t.insertable]
        columns = [t.columns[a] for a in names]
        column_list = ", ".join(c.column for c in columns)
        conflict = ", ".join(t.columns[k].column for k in key_names)
        set_names, add_names = shape[4], shape[5]
        row_sql = "(" + ", ".join(["%s"] * len(columns)) + ")"
        for chunk in _chunks(rows, len(columns)):
            params = []
            for row in chunk:
                proposed = dict(row.values)
                for c in add_names:
                    proposed[c] = proposed[c] - row.add[c]
                full = t.defaults(proposed)
                params += [c.adapt(full[c.attname]) for c in columns]
            out.append((f"INSERT INTO {t.name} ({column_list}) VALUES "
                        + ", ".join([row_sql] * len(chunk))
                        + f" ON CONFLICT ({conflict}) DO NOTHING", params))
        if set_names or add_names:
            updates = [_Row("update", model, row.key, {}, {c: row.set[c] for c in set_names},
                            {c: row.add[c] for c in add_names}, {}) for row in rows]
            out += _compile(_shape(updates[0]), updates, copy=copy)
        return out
    key_names, set_names, add_names, extend_names = shape[2], shape[3], shape[4], shape[5]
    copies = [f"{t.columns[c].column} = {t.name}.{t.columns[source].column}"
              for c, source in shape[6]]
    if len(rows) == 1:
        row = rows[0]
        parts = [f"{t.columns[c].column} = %s" for c in set_names] + copies
        parts += [f"{t.columns[c].column} = {t.columns[c].column} + %s" for c in add_names]
        parts += [f"{t.columns[c].column} = {t.columns[c].column} || %s::jsonb"
                  for c in extend_names]
        params = [t.columns[c].adapt(row.set[c]) for c in set_names]
        params += [t.columns[c].adapt(row.add[c]) for c in add_names]
        params += [Jsonb(row.extend[c], dumps=_JSON_TEXT) for c in extend_names]
        where = " AND ".join(f"{t.columns[k].column} = %s" for k in key_names)
        params += [t.columns[k].adapt(row.key[k]) for k in key_names]
        out.append((f"UPDATE {t.name} SET {', '.join(parts)} WHERE {where}", params))
        return out
    names = [*key_names, *set_names, *add_names, *extend_names]
    alias = [f"k{i}" for i in range(len(key_names))] + [f"s{i}" for i in range(len(set_names))]
    alias += [f"a{i}" for i in range(len(add_names))] + [f"e{i}" for i in range(len(extend_names))]
    casts = [t.columns[n].cast for n in names[:len(names) - len(extend_names)]]
    casts += ["jsonb"] * len(extend_names)
    row_sql = "(" + ", ".join(f"%s::{c}" for c in casts) + ")"
    parts = [f"{t.columns[c].column} = v.s{i}" for i, c in enumerate(set_names)] + copies
    parts += [f"{t.columns[c].column} = {t.name}.{t.columns[c].column} + v.a{i}"
              for i, c in enumerate(add_names)]
    parts += [f"{t.columns[c].column} = {t.name}.{t.columns[c].column} || v.e{i}"
              for i, c in enumerate(extend_names)]
    where = " AND ".join(f"{t.name}.{t.columns[k].column} = v.k{i}"
                         for i, k in enumerate(key_names))
    for chunk in _chunks(rows, len(names)):
        params = []
        for row in chunk:
            params += [t.columns[k].adapt(row.key[k]) for k in key_names]
            params += [t.columns[c].adapt(row.set[c]) for c in set_names]
            params += [t.columns[c].adapt(row.add[c]) for c in add_names]
            params += [Jsonb(row.extend[c], dumps=_JSON_TEXT) for c in extend_names]
        out.append((f"UPDATE {t.name} SET {', '.join(parts)} FROM (VALUES "
                    + ", ".join([row_sql] * len(chunk))
                    + f") AS v({', '.join(alias)}) WHERE {where}", params))
    return out


def send_statements(statements: Sequence[Statement]) -> None:
    """Send statements, COPYs included (a COPY ends any pipeline: it is its own exchange)."""
    batch: list[Statement] = []
    for statement in statements:
        if isinstance(statement[1], Copy):
            if batch:
                wire.send(batch)
                batch = []
            _copy(statement[0], statement[1])
        else:
            batch.append(statement)
    if batch:
        wire.send(batch)


def _copy(query: str, rows: list[tuple[Any, ...]]) -> None:
    raw = wire.raw_connection()
    with connections[DEFAULT_DB_ALIAS].wrap_database_errors, raw.cursor() as cursor, \
            cursor.copy(query) as copy:
        for row in rows:
            copy.write_row(row)


# --- reading under the writer ------------------------------------------------------------------


class Reader:
    """What a handler that reads is given: rows as they stand after every earlier event."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer
        # reads that named their tables: (query, params) -> (the writer's mark, the row)
        self._fetched: dict[tuple[str, tuple[Any, ...]], tuple[int, tuple[Any, ...] | None]] = {}

    def row(self, model: type[models.Model], **key: Any) -> dict[str, Any] | None:
        """The row with ``key`` (attribute names to values), or None: from memory when it is
        still pending as an insert, else from the database (what is pending written first)."""
        pending = self._writer.pending_row(model, key)
        if pending is not None:
            return pending
        self._writer.reads(model)
        self._writer.flush()
        found: dict[str, Any] | None = (model._default_manager.filter(**key).order_by()
                                        .values().first())
        if found is not None and table(model).is_key(key):
            self._writer.remember(model, key, found)
        return found

    def in_memory(self, model: type[models.Model], **key: Any) -> dict[str, Any] | None:
        """The row with ``key`` if the writer has it in memory (pending as an insert, or read or
        written before in this append or rebuild), else None, without asking the database."""
        self._writer.reads(model)
        return self._writer.pending_row(model, key)

    def objects(self, model: type[models.Model]) -> models.Manager[Any]:
        """The model's manager, for any other read (what is pending written first)."""
        self._writer.flush()
        manager: models.Manager[Any] = model._default_manager
        return manager

    def fetch_one(self, query: str, params: Sequence[Any], *,
                  tables: Sequence[type[models.Model]] = ()) -> tuple[Any, ...] | None:
        """The first row of ``query`` (``%s`` placeholders): the row read ahead with the
        command's lock if there is one, else from the database (what is pending written first).

        ``tables``: the models whose tables the query reads. Named, the same query with the same
        parameters asked again in this append (or rebuild batch) is answered from the first
        answer while no change since has reached those tables (``Writer.changed_since``; an
        ``Sql`` change that does not name its tables reaches them all): no round trip, and
        what is pending stays pending, to be merged and sent with the rest."""
        key = (query, tuple(params))
        if tables:
            seen = self._fetched.get(key)
            if seen is not None and not self._writer.changed_since(seen[0], tables):
                return seen[1]
        taken = wire.take_ahead(query, params)
        if taken is not None:
            row = taken[0] if taken else None
        else:
            self._writer.flush()
            row = wire.fetch_one(query, params)
        if tables:
            self._fetched[key] = (self._writer.mark(), row)
        return row


@contextmanager
def guard(writer: Writer, before: Callable[[], None] | None = None) -> Iterator[None]:
    """While projections run: write what is pending before any ORM query (so it reads the
    tables as if each event had been written at once), and refuse an ORM write (a projection
    returns its changes)."""

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        head = sql.lstrip()[:6].upper()
        if head in ("INSERT", "UPDATE", "DELETE"):
            raise ProjectionError(
                "a projection handler wrote through the ORM; it must return its changes "
                f"(eventstore.changes): {sql[:80]}")
        writer.flush()
        if before is not None:
            before()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield
