"""What a cage holds, as plain values: cash by denomination, chips by chip set and denomination.

The functional core of the cage (no Django, no clock, no database): the services gather the
figures, ask these functions what follows, and append the events.

An inventory is a mapping ``Line -> pieces`` where a ``Line`` is ``(kind, chip_set,
denomination)``: ``("cash", "", Decimal("20.00"))`` or ``("chips", "main", Decimal("5.00"))``.
Pieces, not value: a cage is counted note by note and chip by chip, and two 50s are not a 100.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import NamedTuple

CASH = "cash"
CHIPS = "chips"
ZERO = Decimal("0.00")


class Line(NamedTuple):
    kind: str  # CASH or CHIPS
    chip_set: str  # "" for cash
    denomination: Decimal


Inventory = dict[Line, int]


def of(
    cash: Mapping[Decimal, int] | None = None,
    chips: Mapping[str, Mapping[Decimal, int]] | None = None,
) -> Inventory:
    """An inventory from cash ``{denomination: pieces}`` and chips ``{set: {denomination: pieces}}``."""
    inventory: Inventory = {}
    for denomination, pieces in (cash or {}).items():
        if pieces:
            inventory[Line(CASH, "", denomination)] = pieces
    for chip_set, counts in (chips or {}).items():
        for denomination, pieces in counts.items():
            if pieces:
                inventory[Line(CHIPS, chip_set, denomination)] = pieces
    return inventory


def add(a: Inventory, b: Inventory) -> Inventory:
    total = dict(a)
    for line, pieces in b.items():
        total[line] = total.get(line, 0) + pieces
    return {line: n for line, n in total.items() if n}


def subtract(a: Inventory, b: Inventory) -> Inventory:
    return add(a, {line: -n for line, n in b.items()})


def shortfalls(held: Inventory, wanted: Inventory) -> list[tuple[Line, int, int]]:
    """Lines where ``wanted`` asks for more pieces than ``held`` has: ``(line, held, wanted)``."""
    return [
        (line, held.get(line, 0), pieces)
        for line, pieces in sorted(wanted.items(), key=_order)
        if pieces > held.get(line, 0)
    ]


def value(inventory: Inventory, kind: str | None = None) -> Decimal:
    return sum(
        (line.denomination * n for line, n in inventory.items() if kind in (None, line.kind)),
        ZERO,
    )


def variance(expected: Inventory, counted: Inventory) -> Inventory:
    """Counted minus expected, line by line (only the lines that differ)."""
    return subtract(counted, expected)


def cash_part(inventory: Inventory) -> dict[Decimal, int]:
    return {line.denomination: n for line, n in inventory.items() if line.kind == CASH and n}


def chips_part(inventory: Inventory) -> dict[str, dict[Decimal, int]]:
    chips: dict[str, dict[Decimal, int]] = {}
    for line, n in inventory.items():
        if line.kind == CHIPS and n:
            chips.setdefault(line.chip_set, {})[line.denomination] = n
    return chips


def chips_by_denomination(inventories: Iterable[Inventory]) -> dict[Decimal, int]:
    """Chips of every set added up by denomination (the chips-in-circulation view)."""
    total: dict[Decimal, int] = {}
    for inventory in inventories:
        for line, n in inventory.items():
            if line.kind == CHIPS:
                total[line.denomination] = total.get(line.denomination, 0) + n
    return total


def below_minimum(cash_value: Decimal, minimum: Decimal) -> bool:
    return minimum > ZERO and cash_value < minimum


def minimum_crossing(before: Decimal | None, after: Decimal, minimum: Decimal) -> str | None:
    """``"fell"`` when cash goes below the minimum, ``"restored"`` when it comes back, else None.

    ``before`` is None when the cage is just opening (it can open below the minimum).
    """
    was_below = before is not None and below_minimum(before, minimum)
    is_below = below_minimum(after, minimum)
    if is_below and not was_below:
        return "fell"
    if was_below and not is_below:
        return "restored"
    return None


def _order(item: tuple[Line, int]) -> tuple[str, str, Decimal]:
    line = item[0]
    return (line.kind, line.chip_set, -line.denomination)


def sorted_lines(lines: Iterable[Line]) -> list[Line]:
    """Cash first, then chips by set; largest denomination first."""
    return sorted(lines, key=lambda line: (line.kind, line.chip_set, -line.denomination))
