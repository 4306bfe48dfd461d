"""Streamed downloads of the ledger's exports, shared by the API and the web pages."""

from __future__ import annotations

import datetime as dt

from django.http import FileResponse, StreamingHttpResponse

from ledger import exports
from ledger.models import DayClose
from ledger.reports import trial_balance

from .close_report import close_report
from .close_report_files import close_report_csv, close_report_pdf


def _name(casino: str, what: str, day_from: dt.date, day_to: dt.date, ext: str) -> str:
    return f"{casino}-{what}-{day_from.isoformat()}-{day_to.isoformat()}.{ext}"


def journal_download(*, casino: str, day_from: dt.date, day_to: dt.date,
                     file: str) -> StreamingHttpResponse | FileResponse:
    """The journal of the period, streamed: CSV as PostgreSQL writes it, XLSX from a temporary
    file written in constant memory (deleted once sent)."""
    if file == "csv":
        response = StreamingHttpResponse(
            exports.journal_csv(casino=casino, day_from=day_from, day_to=day_to),
            content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="{_name(casino, "journal", day_from, day_to, "csv")}"')
        return response
    path = exports.temporary_xlsx()
    exports.journal_xlsx(casino=casino, day_from=day_from, day_to=day_to, path=path)
    return _xlsx(path, _name(casino, "journal", day_from, day_to, "xlsx"))


def trial_balance_download(*, casino: str, day_from: dt.date, day_to: dt.date,
                           file: str, language: str = "en"
                           ) -> StreamingHttpResponse | FileResponse:
    """The trial balance as a file, its accounts named in ``language`` (the person's)."""
    report = trial_balance(casino=casino, day_from=day_from, day_to=day_to)
    if file == "csv":
        response = StreamingHttpResponse(exports.trial_balance_csv(report, language=language),
                                         content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="{_name(casino, "trial-balance", day_from, day_to, "csv")}"')
        return response
    path = exports.temporary_xlsx()
    exports.trial_balance_xlsx(report, path, language=language)
    return _xlsx(path, _name(casino, "trial-balance", day_from, day_to, "xlsx"))


def _xlsx(path: str, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        exports.file_chunks(path),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def close_report_download(*, casino: str, gaming_day: dt.date,
                          file: str) -> StreamingHttpResponse:
    """The day's close report as a CSV (streamed line by line) or a PDF (streamed in chunks)."""
    report = close_report(casino=casino, gaming_day=gaming_day)
    name = f"{casino}-close-report-{gaming_day.isoformat()}.{file}"
    if file == "csv":
        response = StreamingHttpResponse(close_report_csv(report),
                                         content_type="text/csv; charset=utf-8")
    else:
        pdf = close_report_pdf(report, provisional=not DayClose.objects.filter(
            casino_id=casino, day=gaming_day).exists())
        response = StreamingHttpResponse(
            (pdf[i:i + 65536] for i in range(0, len(pdf), 65536)),
            content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
