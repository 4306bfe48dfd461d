"""Exports of the table results of a period (each table each gaming day), as CSV, XLSX or PDF,
built off the request by a Celery task that reports its progress as it goes.

Columns: gaming day, table, game, sessions, rounds, handle, drop, round results, variance, win,
hold % (win ÷ drop), win ÷ handle %: the figures of ``ledger.reports.table_results``, so the file
reconciles with the Results page and the journal. Amounts use a decimal point; the PDF ends with
the period's totals.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import uuid
from collections.abc import Callable, Sequence
from decimal import Decimal

import xlsxwriter
from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from casino.models import Casino
from games.web.labels import game_label
from ledger import reports
from ledger.models import ResultsExport

FORMATS = ("csv", "xlsx", "pdf")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}
PROGRESS_EVERY = 200  # rows between two progress writes

Progress = Callable[[int], None]


def _columns() -> list[str]:
    return [_("Gaming day"), _("Table"), _("Game"), _("Sessions"), _("Rounds"), _("Handle"),
            _("Drop"), _("Round results"), _("Variance"), _("Win"), _("Hold %"),
            _("Win / handle %")]


def _game(code: str) -> str:
    return str(game_label(code))


def result_rows(casino: str, day_from: dt.date, day_to: dt.date) -> list[list[object]]:
    rows: list[list[object]] = []
    for r in reports.table_results(casino=casino, day_from=day_from, day_to=day_to, by="day"):
        rows.append([r.day, r.table, _game(r.game), r.sessions, r.rounds, r.handle, r.drop,
                     r.revenue, r.variance, r.win, r.hold_percent, r.win_handle_percent])
    return rows


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def write_csv(rows: Sequence[Sequence[object]], progress: Progress) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(_columns())
    for n, row in enumerate(rows, start=1):
        writer.writerow([_text(v) for v in row])
        if n % PROGRESS_EVERY == 0:
            progress(n)
    return out.getvalue().encode("utf-8")


def write_xlsx(rows: Sequence[Sequence[object]], progress: Progress) -> bytes:
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    sheet = book.add_worksheet(_("Results"))
    date_format = book.add_format({"num_format": "yyyy-mm-dd"})
    money = book.add_format({"num_format": "0.00"})
    for col, name in enumerate(_columns()):
        sheet.write(0, col, name)
    for n, row in enumerate(rows, start=1):
        for col, value in enumerate(row):
            if isinstance(value, dt.date):
                sheet.write_datetime(n, col, dt.datetime.combine(value, dt.time()), date_format)
            elif isinstance(value, Decimal):
                # Excel holds numbers as binary floating point: the cell shows the cents as
                # recorded (two decimals at most, far inside a double's 15 digits)
                sheet.write_number(n, col, float(value), money)
            elif value is None:
                sheet.write_blank(n, col, None)
            else:
                sheet.write(n, col, value)
        if n % PROGRESS_EVERY == 0:
            progress(n)
    book.close()
    return out.getvalue()


def write_pdf(rows: Sequence[Sequence[object]], progress: Progress, *, title: str) -> bytes:
    out = io.BytesIO()
    styles = getSampleStyleSheet()
    data = [_columns()]
    totals = [Decimal(0)] * 5  # handle, drop, round results, variance, win
    for n, row in enumerate(rows, start=1):
        data.append([_text(v) for v in row])
        for i in range(5):
            totals[i] += Decimal(str(row[5 + i]))
        if n % PROGRESS_EVERY == 0:
            progress(n)
    data.append([_("Total"), "", "", "", "", *[str(t) for t in totals], "", ""])
    table = Table(data, repeatRows=1)
    table.setStyle(TableStyle([
        ("FONTSIZE", (0, 0), (-1, -1), 7), ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
        ("LINEABOVE", (0, -1), (-1, -1), 0.5, colors.black)]))
    SimpleDocTemplate(out, pagesize=landscape(A4), title=title).build(
        [Paragraph(title, styles["Title"]), Spacer(1, 6), table])
    return out.getvalue()


def results_export_request(*, casino: str, file_format: str, day_from: dt.date,
                           day_to: dt.date, requested_by: str, language: str = "en"
                           ) -> ResultsExport:
    """The export's record, waiting for its task (the caller sends it on commit)."""
    if file_format not in FORMATS:
        raise ValueError(f"an export is one of {', '.join(FORMATS)}, not {file_format!r}")
    return ResultsExport.objects.create(
        export_id=uuid.uuid4(), casino_id=casino, file_format=file_format, day_from=day_from,
        day_to=day_to, requested_by=requested_by, requested_at=timezone.now(),
        language=language)


def results_export_build(export_id: str) -> ResultsExport:
    """Build the file of export ``export_id``, writing its progress as it goes (each write its
    own transaction: the page polling it sees them). Idempotent: a file built is left as it is."""
    export = ResultsExport.objects.get(export_id=export_id)
    if export.status == ResultsExport.Status.DONE:
        return export
    records = ResultsExport.objects.filter(export_id=export_id)
    rows = result_rows(export.casino_id, export.day_from, export.day_to)
    records.update(status=ResultsExport.Status.RUNNING, rows_total=len(rows), rows_done=0)

    def progress(done: int) -> None:
        records.update(rows_done=done)

    casino = Casino.objects.get(code=export.casino_id)
    title = _("Table results · %(casino)s · %(start)s to %(end)s (%(currency)s)") % {
        "casino": casino.name, "start": export.day_from.isoformat(),
        "end": export.day_to.isoformat(), "currency": casino.currency}
    writers: dict[str, Callable[[Sequence[Sequence[object]], Progress], bytes]] = {
        "csv": write_csv, "xlsx": write_xlsx, "pdf": functools.partial(write_pdf, title=title)}
    try:
        content = writers[export.file_format](rows, progress)
    except Exception as error:
        records.update(status=ResultsExport.Status.FAILED, message=str(error))
        raise
    records.update(status=ResultsExport.Status.DONE, rows_done=len(rows), content=content)
    export.refresh_from_db()
    return export


def file_name(export: ResultsExport) -> str:
    return (f"results-{export.casino_id}-{export.day_from.isoformat()}-"
            f"{export.day_to.isoformat()}.{export.file_format}")
