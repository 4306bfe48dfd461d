"""A month's gaming-tax return as sections of rows (the page, the CSV, the PDF and
``manage.py gaming_tax`` print the same ones), and its CSV and PDF.

Sections: ``return`` (the casino, the month, the days closed and still open), ``register`` (the
daily register of each table: opening bankroll, drop, result, simples/dupla, VIP, zone),
``revenue`` (the gross revenue and its parts, the negative base on its own line), ``tax`` (each
tax of the month, the year's annual figures' accruals), ``parameter`` (every parameter in force
at the month's end, with its source). Every row repeats its section's name in the CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from decimal import Decimal
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from .taxes import MonthlyReturn

Section = tuple[str, str, list[str], list[list[str]]]


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"{value:.2f}" if value == value.quantize(Decimal("0.01")) else str(value)
    return str(value)


def sections(r: MonthlyReturn) -> Iterator[Section]:
    month = r.month.strftime("%Y-%m")
    yield ("return", f"Gaming-tax return {month}", [
        "casino", "name", "currency", "jurisdiction", "month", "days_closed", "days_open",
        "complete", "accrued", "paid"],
        [[r.casino, r.casino_name, r.currency, r.jurisdiction, month,
          str(len(r.days_closed)), " ".join(d.isoformat() for d in r.days_open),
          _cell(r.complete), _cell(r.accrued), _cell(r.paid)]])
    zone = next((p.value for p in r.parameters if p.code == "pt.zone"), "")
    yield ("register", "Daily register of each table", [
        "day", "table", "game", "bank", "vip", "zone", "opening", "drop", "win", "commission"],
        [[line.day.isoformat(), line.table, line.game, line.bank, _cell(line.vip), zone,
          _cell(line.opening), _cell(line.drop), _cell(line.win), _cell(line.commission)]
         for line in r.register])
    f = r.figures
    yield ("revenue", "Gross revenue (the base of the taxes on revenue)", [
        "gross_revenue", "negative_base", "carried_in", "carried_out", "taxable_revenue",
        "jackpot_start_values_funded", "start_values_deducted", "capital_em_giro_inicial",
        "presumed_gross_profit", "commission"],
        [[_cell(v) for v in (f.gross_revenue, f.negative_base, f.carried_in, f.carried_out,
                             f.taxable_revenue, f.jackpot_funding, f.jackpot_funding_deducted,
                             f.capital, f.presumed_profit, f.commission)]])
    yield ("tax", "Taxes of the month, and the year's figures accrued", [
        "code", "name", "base", "rate_percent", "rates_from", "amount", "annual", "year_to_date",
        "legal_source"],
        [[t.code, t.name, _cell(t.base), _cell(t.rate),
          " ".join(f"{d.isoformat()}:{rate}" for d, rate in t.rates), _cell(t.amount),
          _cell(t.annual), _cell(t.to_date), t.legal_source] for t in r.lines]
        + [["total", "Total of the month", "", "", "", _cell(r.total), "", "", ""]])
    yield ("parameter", "Parameters in force at the month's end", [
        "code", "name", "value", "effective_from", "set_by", "demo_value", "legal_source"],
        [[p.code, p.name, p.value, p.effective_from.isoformat(), p.set_by or "legal baseline",
          _cell(p.demo), p.legal_source] for p in r.parameters])


def _line(row: Sequence[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(row)
    return buffer.getvalue()


def return_csv(r: MonthlyReturn) -> Iterator[str]:
    for number, (name, _title, header, rows) in enumerate(sections(r)):
        if number:
            yield "\n"
        yield _line([name, *header])
        for row in rows:
            yield _line([name, *row])


_GRID = TableStyle([
    ("FONT", (0, 0), (-1, -1), "Helvetica", 7),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
])


def return_pdf(r: MonthlyReturn) -> bytes:
    styles = getSampleStyleSheet()
    small = ParagraphStyle("cell", parent=styles["Normal"], fontSize=7, leading=8)
    bold = ParagraphStyle("header", parent=small, fontName="Helvetica-Bold")
    buffer = io.BytesIO()
    month = r.month.strftime("%Y-%m")
    doc = SimpleDocTemplate(buffer, pagesize=landscape(A4), leftMargin=10 * mm,
                            rightMargin=10 * mm, topMargin=10 * mm, bottomMargin=12 * mm,
                            title=f"Gaming-tax return {r.casino} {month}",
                            author=r.casino_name, invariant=True)
    story: list[Flowable] = [Paragraph(
        f"Gaming-tax return · {escape(r.casino_name)} ({r.casino}) · {month} · {r.currency}",
        styles["Title"])]
    if not r.complete:
        story.append(Paragraph("Partial: days with activity not closed: "
                               + ", ".join(d.isoformat() for d in r.days_open),
                               styles["Normal"]))
    for name, title, header, rows in sections(r):
        if name == "return":
            continue
        story += [Spacer(1, 4 * mm), Paragraph(title, styles["Heading3"])]
        if not rows:
            story.append(Paragraph("None.", styles["Normal"]))
            continue
        data: list[list[str | Paragraph]] = [[Paragraph(h.replace("_", " "), bold)
                                              for h in header]]
        data += [[Paragraph(escape(cell), small) if len(cell) > 30 else cell for cell in row]
                 for row in rows]
        widths = [55 * mm if any(len(row[i]) > 30 for row in rows) else None
                  for i in range(len(header))]
        table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
        table.setStyle(_GRID)
        story.append(table)
    doc.build(story)
    return buffer.getvalue()
