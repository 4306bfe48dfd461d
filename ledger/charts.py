"""Bar charts drawn on the server: the geometry of an SVG the template writes out (no
JavaScript, no library from a CDN). Pure: labels and amounts in, rectangles out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

ROW_HEIGHT = 22
LABEL_WIDTH = 150
BAR_WIDTH = 460
VALUE_WIDTH = 110


@dataclass(frozen=True)
class Bar:
    label: str
    value: Decimal
    x: int
    y: int
    width: int
    negative: bool


@dataclass(frozen=True)
class Chart:
    bars: list[Bar]
    width: int
    height: int
    zero_x: int  # where the axis of zero is drawn
    value_x: int  # where the figures are written


def bar_chart(rows: Sequence[tuple[str, Decimal]]) -> Chart:
    """One horizontal bar per row, scaled to the largest amount; a loss goes left of zero."""
    largest_gain = max((v for _, v in rows if v > 0), default=Decimal(0))
    largest_loss = -min((v for _, v in rows if v < 0), default=Decimal(0))
    span = largest_gain + largest_loss or Decimal(1)
    zero = LABEL_WIDTH + int(BAR_WIDTH * largest_loss / span)
    bars = []
    for index, (label, value) in enumerate(rows):
        length = int(BAR_WIDTH * abs(value) / span)
        bars.append(Bar(label=label, value=value, x=zero - length if value < 0 else zero,
                        y=index * ROW_HEIGHT + 4, width=max(length, 1), negative=value < 0))
    return Chart(bars=bars, width=LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH,
                 height=max(len(rows), 1) * ROW_HEIGHT + 8, zero_x=zero,
                 value_x=LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH - 4)
