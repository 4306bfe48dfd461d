"""The close report as files: one CSV (its sections one after the other) and a PDF (reportlab).

CSV layout: sections one after the other, a blank line between two. The first row of a section
is its header; its first cell names the section (``report``, ``table``, ``session`` (a
report made before the sessions were listed has none), ``game``, ``cage``,
``jackpot``, ``revenue``, ``tax``, ``exception``, ``correction``, ``currency`` (a casino
with tables in more than one currency), ``total``) and every row of the section repeats
that name in its first cell, so a reader keeps the rows of one section by their first cell and
reads them with the section's header. Amounts are decimal strings, an empty cell is no figure.

The PDF prints the casino, the gaming day and the digest on every page, and one table per
section; it is built invariant (no creation time, no random document id), so the same report
gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from xml.sax.saxutils import escape

from django.utils import translation
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate
from reportlab.platypus.flowables import Flowable

from games.web.labels import game_label
from ledger import report_files as files
from ledger.report_files import Row

from .close_report import CloseReport, _plain, report_digest


def _cell(value: object) -> str:
    return "" if value is None else str(value)


def sections(report: CloseReport) -> Iterator[tuple[str, str, Row, list[Row]]]:
    """(name, title, header, rows) of each section, in the order of the files."""
    digest = report_digest(report)
    yield ("report", "Close report", ["casino", "name", "currency", "gaming_day", "starts_at",
                                      "ends_at", "digest"],
           [[report.casino, report.casino_name, report.currency, report.gaming_day.isoformat(),
             _cell(report.as_data()["starts_at"]), _cell(report.as_data()["ends_at"]), digest]])
    yield ("table", "Tables", [
        "table", "game", "sessions", "rounds", "opening", "fills", "credits", "drop", "closing",
        "win", "hold_percent", "handle", "theoretical_win", "theoretical_hold_percent",
        "win_handle_percent", "against_theoretical", "figures", "carried"],
        [[_cell(v) for v in (t.table, t.game, t.sessions, t.rounds, t.opening, t.fills,
                             t.credits, t.drop, t.closing, t.win, t.hold_percent, t.handle,
                             t.theoretical_win, t.theoretical_hold_percent,
                             t.win_handle_percent, t.against_theoretical, t.figures,
                             t.carried)]
         for t in report.tables])
    if report.sessions:  # each session's own trays (a report made before lists none)
        yield ("session", "Table sessions", [
            "table", "session", "opened_at", "closed_at", "opening", "fills", "credits", "drop",
            "closing", "win"],
            [[_cell(v) for v in (s.table, s.number, _plain(s.opened_at), _plain(s.closed_at),
                                 s.opening, s.fills, s.credits, s.drop, s.closing, s.win)]
             for s in report.sessions])
    yield ("game", "Games", [
        "game", "tables", "sessions", "rounds", "opening", "fills", "credits", "drop",
        "closing", "win", "hold_percent", "handle", "theoretical_win",
        "theoretical_hold_percent", "win_handle_percent", "against_theoretical"],
        [[_cell(v) for v in (g.game, g.tables, g.sessions, g.rounds, g.opening, g.fills,
                             g.credits, g.drop, g.closing, g.win, g.hold_percent, g.handle,
                             g.theoretical_win, g.theoretical_hold_percent,
                             g.win_handle_percent, g.against_theoretical)]
         for g in report.games])
    yield ("cage", "Cage reconciliation", [
        "cage", "scope", "shift", "status", "opening", "receipts", "payments", "expected",
        "counted", "variance", "movements"],
        [[_cell(v) for v in (c.cage, c.scope, c.shift, c.status, c.opening, c.receipts,
                             c.payments, c.expected, c.counted, c.variance)]
         + ["; ".join(f"{m.kind} +{m.received} -{m.paid}" for m in c.movements)]
         for c in report.cage])
    yield ("jackpot", "Jackpots", ["pool", "name", "meter", "reserve", "hits", "hits_amount",
                                   "paid", "owed"],
           [[_cell(v) for v in (j.pool, j.name, j.meter, j.reserve, j.hits, j.hits_amount,
                                j.paid, j.owed)] for j in report.jackpots])
    yield ("machine", "Machines (win by meters)", [
        "machine", "bank", "game", "coin_in", "coin_out", "jackpots", "games_played", "win",
        "certified_return", "actual_return", "flagged"],
        [[_cell(v) for v in (x.machine, x.bank, x.game, x.coin_in, x.coin_out, x.jackpots,
                             x.games_played, x.win, x.certified_return, x.actual_return,
                             "yes" if x.flagged else "")] for x in report.machines])
    r = report.revenue
    yield ("revenue", "Gross gaming revenue (the gaming-tax base)", [
        "table_revenue", "table_variance", "jackpot_retained", "jackpot_funding",
        "gross_gaming_revenue"],
        [[_cell(v) for v in (r.table_revenue, r.table_variance, r.jackpot_retained,
                             r.jackpot_funding, r.gross_gaming_revenue)]])
    yield ("tax", f"Taxes of the day ({report.jurisdiction or 'no jurisdiction'})", [
        "code", "name", "rate_percent", "base", "amount", "legal_source"],
        [[_cell(t.code), _cell(t.name), _cell(t.rate) if t.rate is not None else "",
          _cell(t.base), _cell(t.amount), _cell(t.legal_source)]
         for t in report.taxes])
    yield ("exception", "Exceptions approved", [
        "approval", "kind", "subject", "reason", "amount", "summary", "requested_by",
        "approved_by", "approved_at"],
        [[_cell(v) for v in (e.approval, e.kind, e.subject, e.reason, e.amount, e.summary,
                             e.requested_by, e.approved_by, e.approved_at)]
         for e in report.exceptions])
    yield ("correction", "Late corrections of sealed days, booked in this day", [
        "table", "corrects_day", "session", "kind", "slip", "win_change", "approval"],
        [[_cell(v) for v in (c.table, c.corrects_day.isoformat(), c.session, c.kind, c.slip,
                             c.win_change, c.approval)] for c in report.corrections])
    if report.non_banked:  # the poker room, on a day that has one (docs/poker-room.md)
        yield ("non_banked", "The poker room (non-banked games)", [
            "subject", "game", "rake", "fees", "commission", "overlay", "revenue"],
            [[_cell(v) for v in (n.subject, n.game, n.rake, n.fees, n.commission, n.overlay,
                                 n.revenue)] for n in report.non_banked])
    if report.currencies:  # a casino with tables in more than one currency
        yield ("currency", "Currencies", [
            "currency", "rate", "tables_win", "tables_win_book", "cage_holdings",
            "cage_holdings_book", "chips_in_hands", "chips_in_hands_book"],
            [[_cell(v) for v in (c.currency, c.rate, c.tables_win, c.tables_win_book,
                                 c.cage_holdings, c.cage_holdings_book, c.chips_in_hands,
                                 c.chips_in_hands_book)] for c in report.currencies])
    t = report.totals
    floor = ["machine_win"] if t.machine_win is not None else []  # a day with a slot floor
    yield ("total", "The day's totals", ["drop", "win", "gaming_tax_base", "taxes",
                                         "chips_in_circulation", "jackpot_liability", *floor],
           [[_cell(v) for v in (t.drop, t.win, t.gaming_tax_base, t.taxes,
                                t.chips_in_circulation, t.jackpot_liability,
                                *([t.machine_win] if floor else []))]])


# --- CSV ----------------------------------------------------------------------------------------


def close_report_csv(report: CloseReport) -> Iterator[str]:
    """The CSV, line by line (for a streamed download)."""
    return files.sections_csv(sections(report))


# --- PDF ----------------------------------------------------------------------------------------

# Columns too wide for a page: the PDF leaves them to the CSV and the API.
_PDF_LEAVES_OUT = {"report": {"starts_at", "ends_at"}, "cage": {"movements"},
                   "tax": {"legal_source"}, "exception": {"approval"},
                   "correction": {"session", "approval"}}


# A report listing its sessions shows the trays (opening, closing) per session only: a table's
# or a game's trays added over sessions are no tray anyone counted (issue 36). The CSV keeps them.
TRAYS_BY_SESSION = {"table": {"opening", "closing"}, "game": {"opening", "closing"}}


# What the PDF says in words where the CSV keeps the code (issue 36): a game by its name, where
# a table's house edges came from in a phrase.
FIGURES_IN_WORDS = {"engine": "the games' mathematics", "local": "the casino's own figures",
                    "engine+local": "the games' mathematics and the casino's own figures",
                    "none": "none"}


def _in_words(all_sections: Iterator[tuple[str, str, Row, list[Row]]]
              ) -> Iterator[tuple[str, str, Row, list[Row]]]:
    for name, title, header, rows in all_sections:
        if name in ("table", "game"):
            game, figures = header.index("game"), (header.index("figures")
                                                   if "figures" in header else None)
            rows = [list(row) for row in rows]
            for row in rows:
                # the PDF is written in English throughout: a game's name too, whatever
                # language the request that asked for it reads
                with translation.override("en"):
                    row[game] = str(game_label(str(row[game])))
                if figures is not None:
                    row[figures] = FIGURES_IN_WORDS.get(str(row[figures]), row[figures])
        yield name, title, header, rows


def close_report_pdf(report: CloseReport, *, provisional: bool = False) -> bytes:
    """The PDF: a title, then one table per section; the casino, the day and the digest in
    every page's footer. ``provisional``: the day is not closed yet, said on every page."""
    digest = report_digest(report)
    style = files.styles()
    buffer = io.BytesIO()
    footer = (f"{report.casino_name} ({report.casino}) · gaming day "
              f"{report.gaming_day.isoformat()} · digest SHA-256 {digest}"
              + (" · PROVISIONAL: the day is not closed" if provisional else ""))

    def on_page(canvas: Canvas, doc: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.drawString(10 * mm, 7 * mm, footer)
        canvas.drawRightString(files.PAGE[0] - 10 * mm, 7 * mm, f"page {doc.page}")
        canvas.restoreState()

    doc = files.document(buffer, title=f"Close report {report.casino} {report.gaming_day}",
                         author=report.casino_name, bottom_margin=14 * mm)
    story: list[Flowable] = [
        Paragraph(f"Close report · {escape(report.casino_name)} ({report.casino}) · gaming day "
                  f"{report.gaming_day.isoformat()}", style.sheet["Title"]),
        Paragraph(f"Currency {report.currency}. Digest (SHA-256 of the report's canonical "
                  f"JSON): {digest}", style.sheet["Normal"]),
    ]
    if provisional:
        story.insert(1, Paragraph("PROVISIONAL: the gaming day is not closed; its figures may "
                                  "still change until it is.", style.sheet["Heading2"]))
    leave_out = {**_PDF_LEAVES_OUT, **(TRAYS_BY_SESSION if report.sessions else {})}
    story += files.section_grids(_in_words(sections(report)), style, skip="report", wrap_over=40,
                                 wide=70 * mm, leave_out=leave_out)
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()
