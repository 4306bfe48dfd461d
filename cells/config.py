"""Which cell this deployment is, and which cell each casino lives in (docs/cells.md).

A cell is one deployment on one PostgreSQL: one casino, or a group's casinos. ``CASINO_CELL``
names this deployment's cell; ``CASINO_CELLS`` maps every cell of the group to its casinos,
``cell=casino,casino;cell=casino`` (``lisboa=lisboa,estoril;macau=macau``). Nothing here asks
another cell anything: a cell runs whether or not the others are up. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping

QUEUE_PREFIX = "cell."


def parse_cells(text: str) -> dict[str, tuple[str, ...]]:
    """``cell=casino,casino;cell=casino`` as a mapping; a casino in two cells is refused."""
    cells: dict[str, tuple[str, ...]] = {}
    seen: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, casinos = part.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"CASINO_CELLS: {part!r} is not cell=casino,casino")
        codes = tuple(c.strip() for c in casinos.split(",") if c.strip())
        for code in codes:
            if code in seen:
                raise ValueError(f"CASINO_CELLS: casino {code!r} is in cells {seen[code]!r} "
                                 f"and {name!r}")
            seen[code] = name
        cells[name] = codes
    return cells


def cell_of(casino: str, cells: Mapping[str, tuple[str, ...]], default: str = "") -> str:
    """The cell ``casino`` lives in (``default``, this deployment's cell, when unlisted)."""
    return next((name for name, codes in cells.items() if casino in codes), default)


def queue_of(cell: str) -> str | None:
    """The Celery queue of a cell's closes, seals, rebuilds and exports (None: no cell)."""
    return QUEUE_PREFIX + cell if cell else None
