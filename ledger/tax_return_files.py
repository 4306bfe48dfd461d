"""A month's gaming-tax return as sections of rows (the page, the CSV, the PDF and
``manage.py gaming_tax`` print the same ones), and its CSV and PDF.

Sections: ``return`` (the casino, the month, the days closed and still open), ``register`` (the
daily register of each table: opening bankroll, capital em giro inicial and where it came from, drop, result, simples/dupla, VIP, zone),
``revenue`` (the gross revenue and its parts, the negative base on its own line), ``tax`` (each
tax of the month, the year's annual figures' accruals), ``parameter`` (every parameter in force
at the month's end, with its source). Every row repeats its section's name in the CSV.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from decimal import Decimal
from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph

from . import report_files as files
from .report_files import Section
from .taxes import MonthlyReturn


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
        "day", "table", "game", "bank", "vip", "zone", "opening", "capital", "capital_source",
        "drop", "win", "commission"],
        [[line.day.isoformat(), line.table, line.game, line.bank, _cell(line.vip), zone,
          _cell(line.opening), _cell(line.base), line.capital_source, _cell(line.drop),
          _cell(line.win), _cell(line.commission)]
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


def return_csv(r: MonthlyReturn) -> Iterator[str]:
    return files.sections_csv(sections(r))


def return_pdf(r: MonthlyReturn) -> bytes:
    style = files.styles()
    buffer = io.BytesIO()
    month = r.month.strftime("%Y-%m")
    doc = files.document(buffer, title=f"Gaming-tax return {r.casino} {month}",
                         author=r.casino_name, bottom_margin=12 * mm)
    story: list[Flowable] = [Paragraph(
        f"Gaming-tax return · {escape(r.casino_name)} ({r.casino}) · {month} · {r.currency}",
        style.sheet["Title"])]
    if not r.complete:
        story.append(Paragraph("Partial: days with activity not closed: "
                               + ", ".join(d.isoformat() for d in r.days_open),
                               style.sheet["Normal"]))
    story += files.section_grids(sections(r), style, skip="return", wrap_over=30, wide=55 * mm)
    doc.build(story)
    return buffer.getvalue()
