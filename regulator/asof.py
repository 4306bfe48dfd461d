"""The state of a cage's or a table's chips at any instant, rebuilt from the casino's events
recorded before it, through the chips-in-circulation fold's own handlers
(``cage.circulation``: one implementation), with the positions of the events that moved
each figure."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

import eventstore
from cage import circulation

Figures = dict[str, str]


@dataclass
class AsOf:
    figures: Figures
    behind: dict[str, list[int]] = field(default_factory=dict)
    position: int = 0  # the last event folded
    events: int = 0


def _fold(casino: str, at: dt.datetime, pick: Callable[[circulation.State], Figures]) -> AsOf:
    state = circulation.State()
    before = pick(state)
    answer = AsOf(before)
    for e in eventstore.read_casino(casino, circulation.EVENT_TYPES, before=at):
        state.apply(e.event, e.position)
        answer.events += 1
        now = pick(state)
        if now != before:
            for name in now.keys() | before.keys():
                if now.get(name) != before.get(name):
                    answer.behind.setdefault(name, []).append(e.position)
            before = now
    answer.figures = before
    answer.position = state.position
    return answer


def _pieces(counter: dict[circulation.Key, int]) -> Figures:
    return {f"{chip_set} {denomination}": str(n)
            for (chip_set, denomination), n in sorted(counter.items()) if n}


def cage_as_of(*, casino: str, cage: str, at: dt.datetime) -> AsOf:
    """The chips in the cage (window) ``cage``, pieces by chip set and denomination."""
    return _fold(casino, at, lambda s: _pieces(s.cages.get(cage, {})))


def table_as_of(*, casino: str, table: str, at: dt.datetime) -> AsOf:
    """The table's tray by chip set and denomination (as last counted, with fills and
    credits), and its change in value since the count (chips sold, round results)."""
    def pick(s: circulation.State) -> Figures:
        figures = _pieces(s.trays.get(table, {}))
        change = s.tray_change.get(table)
        if change:
            figures["change since count"] = str(Decimal(change).quantize(Decimal("0.01")))
        return figures
    return _fold(casino, at, pick)
