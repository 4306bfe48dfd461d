"""What a projection handler returns: changes to rows, as plain values.

A handler is a function of an event (and, when it asks, the rows it reads) that returns changes;
the writer (``writer.Writer``) merges them and sends them. Four kinds:

* ``Insert(Model, values)``: a new row (``values`` by attribute name; fields left out take their
  model default);
* ``Update(Model, key, set=…, add=…, extend=…)``: the rows matching ``key``: columns set to a
  value (or to another column's, ``Column``), numbers added to (``add``), JSON arrays extended
  (``extend``);
* ``Upsert(Model, key, values, add=…, set=…)``: insert the row, or, if one with ``key`` exists
  (a unique constraint), add to and set its columns;
* ``Sql(query, params, tables=…)``: the one escape hatch, a statement sent as it is, in order
  (``%s`` placeholders): everything before it is sent before it and everything after, after
  (of the models in ``tables`` only, when it names the tables it reaches).

Changes to one row merge: an ``Update`` of a row inserted by an earlier change of the same batch
changes that ``Insert``; two updates of one row become one. So the order in which a service
appends its events, or a handler returns its changes, matters to no projection: each change is
applied as if the events before it had been written at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Values = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Column:
    """In an ``Update``'s ``set``: the value of another column of the same row, as it stands
    when the update is applied (``set={"settled_outcome": Column("outcome")}``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Insert:
    model: type
    values: Values


@dataclass(frozen=True, slots=True)
class Update:
    model: type
    key: Values
    set: Values = field(default_factory=dict)
    add: Values = field(default_factory=dict)
    extend: Mapping[str, Sequence[Any]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Upsert:
    model: type
    key: Values
    values: Values = field(default_factory=dict)
    add: Values = field(default_factory=dict)
    set: Values = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Sql:
    """``tables``: the models whose tables the statement reads or writes, when it says so (the
    writer then orders and merges every other model's changes around it, and a read of other
    tables stays valid across it); empty, it may reach any table."""

    query: str
    params: Sequence[Any] = ()
    tables: tuple[type, ...] = ()


Change = Insert | Update | Upsert | Sql
