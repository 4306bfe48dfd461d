"""The files of the ledger's reports made of sections (the close report, the gaming-tax
return): one CSV with the sections one after the other, and a PDF with one grid per section.

A section is ``(name, title, header, rows)``, every cell already a string. In the CSV a blank
line parts two sections, a section's first row is its header, and every row repeats the
section's name in its first cell (a reader keeps one section's rows by it). In the PDF each
section is a heading and a grid whose header row is bold and wraps; a cell longer than
``wrap_over`` characters wraps inside a column ``wide`` wide; a section without rows says so.
The documents are built invariant (no creation time, no random id): the same report, the same
bytes.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, StyleSheet1, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

Row = list[str]
Section = tuple[str, str, list[str], list[Row]]

PAGE = landscape(A4)

# --- CSV ----------------------------------------------------------------------------------------


def csv_line(row: Sequence[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(row)
    return buffer.getvalue()


def sections_csv(sections: Iterable[Section]) -> Iterator[str]:
    """The CSV, line by line (for a streamed download)."""
    for number, (name, _title, header, rows) in enumerate(sections):
        if number:
            yield "\n"
        yield csv_line([name, *header])
        for row in rows:
            yield csv_line([name, *row])


# --- PDF ----------------------------------------------------------------------------------------

GRID = TableStyle([
    ("FONT", (0, 0), (-1, -1), "Helvetica", 7),
    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 7),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
])


@dataclass(frozen=True)
class Styles:
    sheet: StyleSheet1
    cell: ParagraphStyle  # a grid's cell that wraps
    header: ParagraphStyle  # a grid's header


def styles() -> Styles:
    sheet = getSampleStyleSheet()
    cell = ParagraphStyle("cell", parent=sheet["Normal"], fontSize=7, leading=8)
    return Styles(sheet, cell, ParagraphStyle("header", parent=cell, fontName="Helvetica-Bold"))


def document(buffer: io.BytesIO, *, title: str, author: str,
             bottom_margin: float) -> SimpleDocTemplate:
    """An A4 landscape document, invariant (no creation time or random id)."""
    return SimpleDocTemplate(buffer, pagesize=PAGE, leftMargin=10 * mm, rightMargin=10 * mm,
                             topMargin=10 * mm, bottomMargin=bottom_margin, title=title,
                             author=author, invariant=True)


def section_grids(sections: Iterable[Section], style: Styles, *, skip: str, wrap_over: int,
                  wide: float, leave_out: Mapping[str, Collection[str]] | None = None
                  ) -> list[Flowable]:
    """Each section but ``skip`` (the one the title says) as a heading and a grid; the columns
    ``leave_out`` names (too wide for a page) are left to the CSV."""
    story: list[Flowable] = []
    for name, title, header, rows in sections:
        if name == skip:
            continue
        omitted = (leave_out or {}).get(name, ())
        keep = [i for i, column in enumerate(header) if column not in omitted]
        story += [Spacer(1, 4 * mm), Paragraph(title, style.sheet["Heading3"])]
        if not rows:
            story.append(Paragraph("None.", style.sheet["Normal"]))
            continue
        # headers wrap (as paragraphs), so the widest grid still fits the page's width
        data: list[list[str | Paragraph]] = [[Paragraph(header[i].replace("_", " "),
                                                        style.header) for i in keep]]
        data += [[Paragraph(escape(row[i]), style.cell) if len(row[i]) > wrap_over else row[i]
                  for i in keep] for row in rows]
        widths = [wide if any(len(row[i]) > wrap_over for row in rows) else None for i in keep]
        table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
        table.setStyle(GRID)
        story.append(table)
    return story
