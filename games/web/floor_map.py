"""The floor map: every table of the casino as a tile, the pits side by side (one pit per game,
the tables in the order of their codes, as a floor is usually numbered), each with its game,
whether a session is open, and its running result against the hold check's band: a line from
the band's low to its high end, the result marked on it, red when it falls outside.

Drawn on the server as SVG (``pit/_floor_map.html``): no script, and an image a PDF or a
printed page keeps. A table's place on the real floor is not configured yet: the pits' order is
the games' and the tables' their codes' (``docs/floor.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from itertools import groupby

from games import selectors
from games.models import Table

from . import labels

TILE_W, TILE_H, GAP, HEAD = 170, 92, 12, 26
BAR_X, BAR_W = 12, 146  # the band's line inside a tile


@dataclass(frozen=True)
class Tile:
    table: str
    game: str
    x: int
    y: int
    open: bool
    result: Decimal | None
    low: Decimal | None
    high: Decimal | None
    marker: Decimal | None  # where the result sits on the band's line, on the map (px)
    flag: bool

    @property
    def bar_from(self) -> int:
        return self.x + BAR_X

    @property
    def bar_to(self) -> int:
        return self.x + BAR_X + BAR_W


@dataclass(frozen=True)
class Pit:
    game: str
    x: int


@dataclass(frozen=True)
class FloorMap:
    tiles: list[Tile]
    pits: list[Pit]
    width: int
    height: int


def floor_map(casino: str) -> FloorMap:
    rows = {r.session.table: r for r in selectors.floor(casino=casino)}
    tables = list(Table.objects.filter(casino_id=casino).order_by("game", "code"))
    tiles: list[Tile] = []
    pits: list[Pit] = []
    rows_most = 1
    for column, (game, in_pit) in enumerate(groupby(tables, key=lambda t: t.game)):
        x = GAP + column * (TILE_W + GAP)
        pits.append(Pit(str(labels.game_label(game)), x))
        for line, table in enumerate(in_pit):
            rows_most = max(rows_most, line + 1)
            tiles.append(_tile(table, x, HEAD + GAP + line * (TILE_H + GAP),
                               rows.get(table.code)))
    width = GAP + max(1, len(pits)) * (TILE_W + GAP)
    return FloorMap(tiles, pits, width, HEAD + GAP + rows_most * (TILE_H + GAP))


def _tile(table: Table, x: int, y: int, row: selectors.FloorRow | None) -> Tile:
    if row is None:
        return Tile(table.code, str(labels.game_label(table.game)), x, y, False, None, None, None,
                    None, False)
    check = row.check
    low, high = check.get("low"), check.get("high")
    marker = None
    if check.get("handle") and low is not None and high is not None and high > low:
        # the result's place on the band's line, held at its ends when it falls outside
        where = (row.result - low) / (high - low)
        marker = (x + BAR_X + min(max(where, Decimal(0)), Decimal(1)) * BAR_W
                  ).quantize(Decimal("0.1"))
    return Tile(table.code, str(labels.game_label(table.game)), x, y, True, row.result, low, high,
                marker, bool(check.get("flag")))
