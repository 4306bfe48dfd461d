"""A fill or credit slip as a printable PDF (reportlab): what the cage issued or received.

The slip travels with the chips between the cage and the table: its number, the table, the
chips by denomination, the total, who acted, and the lines the cashier, the runner, the dealer
and the pit boss sign on. Its figures are the event's, as the shift's movement recorded them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A5
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from edge.web.money import money_text


@dataclass(frozen=True)
class SlipPrint:
    casino: str
    currency: str
    kind: str  # fill / credit
    number: str
    table: str
    window: str
    gaming_day: str
    when: str
    chips: dict[str, int]  # denomination -> pieces
    amount: Decimal
    cashier: str
    requested_by: str


def slip_pdf(slip: SlipPrint) -> bytes:
    styles = getSampleStyleSheet()
    title = _("Fill slip") if slip.kind == "fill" else _("Credit slip")
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A5, leftMargin=12 * mm, rightMargin=12 * mm,
                            topMargin=12 * mm, bottomMargin=12 * mm,
                            title=f"{title} {slip.number}")
    head = [
        [_("Slip number"), slip.number], [_("Table"), slip.table],
        [_("Cage window"), slip.window], [_("Gaming day"), slip.gaming_day],
        [_("Recorded at"), slip.when], [_("Asked for by"), slip.requested_by],
        [_("Cashier"), slip.cashier],
    ]
    lines = [[_("Denomination"), _("Pieces"), _("Value")]]
    for denomination, pieces in sorted(slip.chips.items(), key=lambda i: -Decimal(i[0])):
        lines.append([money_text(Decimal(denomination)), str(pieces),
                      money_text(Decimal(denomination) * pieces)])
    lines.append([_("Total"), "", money_text(slip.amount, slip.currency)])
    grid = TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                       ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
                       ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                       ("FONTNAME", (0, -1), (-1, -1), "Helvetica-Bold")])
    signatures = [[_("Cashier"), _("Runner")], ["", ""], [_("Dealer"), _("Pit boss")], ["", ""]]
    sign = TableStyle([("LINEBELOW", (0, 1), (-1, 1), 0.5, colors.black),
                       ("LINEBELOW", (0, 3), (-1, 3), 0.5, colors.black),
                       ("TOPPADDING", (0, 1), (-1, 1), 12 * mm),
                       ("TOPPADDING", (0, 3), (-1, 3), 12 * mm)])
    doc.build([
        Paragraph(escape(f"{slip.casino} · {title} {slip.number}"), styles["Title"]),
        Table(head, colWidths=[40 * mm, 80 * mm]), Spacer(1, 5 * mm),
        Table(lines, colWidths=[40 * mm, 30 * mm, 50 * mm], style=grid), Spacer(1, 6 * mm),
        Paragraph(escape(_("Signatures")), styles["Heading3"]),
        Table(signatures, colWidths=[60 * mm, 60 * mm], style=sign),
    ])
    return out.getvalue()
