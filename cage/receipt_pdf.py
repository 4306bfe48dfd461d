"""A receipt for any movement of a shift, as a PDF for an 80 mm receipt printer (reportlab, as
the fill and credit slips and the close report are printed).

The roll is 80 mm wide with 72 mm printable; the page is as long as its lines, so a thermal
printer cuts it where the receipt ends. Its figures are the movement's, as the shift's entry
recorded them (the event's data): what went in and out, by denomination, and the totals; the
patron by their reference only (no name: the patron's data stays in ``compliance``).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from edge.web.money import money_text

WIDTH = 80 * mm
MARGIN = 4 * mm  # 72 mm printed: the usual printable width of an 80 mm roll
LINE = 3.9 * mm


@dataclass(frozen=True)
class PieceLine:
    """One denomination of a group: pieces and their value."""

    denomination: Decimal
    pieces: int


@dataclass(frozen=True)
class PieceGroup:
    """What moved of one kind (chips given, cash received, change given, ...)."""

    title: str
    lines: list[PieceLine]


@dataclass(frozen=True)
class ReceiptPrint:
    casino: str
    currency: str
    title: str  # the movement, in words ("Chips sold")
    number: str  # the receipt's number: window, gaming day and the movement's place
    window: str
    gaming_day: str
    when: str
    cashier: str
    reference: str
    amount_in: Decimal
    amount_out: Decimal
    groups: list[PieceGroup] = field(default_factory=list)
    facts: list[tuple[str, str]] = field(default_factory=list)  # patron, payment, cheque ...


def receipt_pdf(receipt: ReceiptPrint) -> bytes:
    rows = _rows(receipt)
    height = 2 * MARGIN + LINE * (len(rows) + 1)
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(WIDTH, height), pageCompression=1)
    canvas.setTitle(f"{receipt.title} {receipt.number}")
    y = height - MARGIN - LINE
    for left, right, bold in rows:
        canvas.setFont("Helvetica-Bold" if bold else "Helvetica", 8.5 if bold else 8)
        canvas.drawString(MARGIN, y, left[:48])
        if right:
            canvas.drawRightString(WIDTH - MARGIN, y, right)
        y -= LINE
    canvas.showPage()
    canvas.save()
    return out.getvalue()


Row = tuple[str, str, bool]


def _rows(r: ReceiptPrint) -> list[Row]:
    rows: list[Row] = [(r.casino, "", True), (r.title, r.number, True), ("", "", False),
                       (_("Cage window"), r.window, False),
                       (_("Gaming day"), r.gaming_day, False),
                       (_("Recorded at"), r.when, False), (_("Cashier"), r.cashier, False)]
    if r.reference:
        rows.append((_("Reference"), r.reference, False))
    rows += [(label, value, False) for label, value in r.facts]
    for group in r.groups:
        rows.append(("", "", False))
        rows.append((group.title, "", True))
        for line in group.lines:
            rows.append((f"{line.pieces} × {money_text(line.denomination)}",
                         money_text(line.denomination * line.pieces), False))
    rows.append(("", "", False))
    if r.amount_in:
        rows.append((_("In"), money_text(r.amount_in, r.currency), True))
    if r.amount_out:
        rows.append((_("Out"), money_text(r.amount_out, r.currency), True))
    rows += [("", "", False), (_("Signature"), "", False), ("_" * 40, "", False)]
    return rows


def piece_groups(details: Mapping[str, object], titles: Mapping[str, str]) -> list[PieceGroup]:
    """The movement's pieces by kind, from its event data: ``{"cash": {"20.00": 2}}`` or chips by
    set ``{"chips": {"main": {"5.00": 4}}}``; ``titles`` names each kind for this movement."""
    groups = []
    for key, title in titles.items():
        raw = details.get(key)
        if not isinstance(raw, Mapping) or not raw:
            continue
        nested = all(isinstance(v, Mapping) for v in raw.values())
        parts = raw.items() if nested else [("", raw)]
        for chip_set, counts in parts:
            assert isinstance(counts, Mapping)
            lines = [PieceLine(Decimal(str(d)), int(n)) for d, n in counts.items() if int(n)]
            if lines:
                lines.sort(key=lambda line: -line.denomination)
                groups.append(PieceGroup(f"{title} ({chip_set})" if chip_set else title, lines))
    return groups
