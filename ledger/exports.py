"""Exports for accountants: the journal and the trial balance of a period, as CSV and XLSX.

Constant memory whatever the period's size:

* CSV: PostgreSQL writes the CSV itself (``COPY (SELECT ...) TO STDOUT``) and we pass its blocks
  on as they arrive, to a file or to an HTTP response.
* XLSX: rows are streamed from the database (``cursor.stream``) into ``xlsxwriter`` in its
  ``constant_memory`` mode, which flushes each row to a temporary file; past a sheet's
  1,048,576 rows the journal continues on a new sheet ("Journal (2)", ...), each with its header.
  An XLSX file is a zip whose directory comes last, so it is written to a temporary file first
  and then streamed.

Journal columns (one row per journal line, in entry order): ``date`` (the gaming day the entry is
posted in), ``entry_number``, ``account_code``, ``account_name``, ``debit``, ``credit`` (one of
the two, the other empty), ``description``, ``event_type`` and ``event_position`` (the event it
came from), ``stream``, ``corrects_entry`` (for a correction, the entry it corrects) and
``event_date`` (the gaming day of the event, when a closed day sent it to a later one). Amounts
use a decimal point and no thousands separator; dates are ISO (CSV) or Excel dates (XLSX).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import tempfile
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import xlsxwriter
from django.db import connection
from psycopg import sql

from .reports import TrialBalance

XLSX_MAX_ROWS = 1_048_576  # rows of an Excel sheet, its header included
JOURNAL_COLUMNS = ("date", "entry_number", "account_code", "account_name", "debit", "credit",
                   "description", "event_type", "event_position", "stream", "corrects_entry",
                   "event_date")
TRIAL_BALANCE_COLUMNS = ("account_code", "account_name", "kind", "snc", "macau", "opening",
                         "debit", "credit", "closing", "closing_debit", "closing_credit")

_FROM = """
  FROM journal_entry e
  JOIN journal_line l ON l.entry_id = e.id
  JOIN ledger_account a ON a.casino_id = l.casino_id AND a.code = l.account_code
  LEFT JOIN journal_entry c ON c.id = e.corrects_id
 WHERE e.casino_id = {casino} AND e.day BETWEEN {day_from} AND {day_to}
 ORDER BY e.number, l.line_no
"""
_CSV_SELECT = """
SELECT e.day AS date, e.number AS entry_number, l.account_code, a.name AS account_name,
       CASE WHEN l.debit > 0 THEN l.debit::text ELSE '' END AS debit,
       CASE WHEN l.credit > 0 THEN l.credit::text ELSE '' END AS credit,
       e.description, e.event_type, e.event_position, e.stream, c.number AS corrects_entry,
       e.event_day AS event_date
"""
# Excel dates are days since 1899-12-30; amounts are Excel numbers (doubles: exact in cents).
_XLSX_SELECT = """
SELECT e.day - DATE '1899-12-30', e.number, l.account_code, a.name,
       l.debit::float8, l.credit::float8, e.description, e.event_type, e.event_position,
       e.stream, c.number, e.event_day - DATE '1899-12-30'
"""


def _query(select: str, casino: str, day_from: dt.date, day_to: dt.date) -> sql.Composed:
    return sql.SQL(select + _FROM).format(casino=sql.Literal(casino),
                                          day_from=sql.Literal(day_from),
                                          day_to=sql.Literal(day_to))


def journal_csv(*, casino: str, day_from: dt.date, day_to: dt.date) -> Iterator[bytes]:
    """The journal of the period as CSV (UTF-8, header first), block by block."""
    copy_sql = sql.SQL("COPY ({}) TO STDOUT (FORMAT csv, HEADER true, ENCODING 'UTF8')").format(
        _query(_CSV_SELECT, casino, day_from, day_to))
    with _driver_connection().cursor() as cursor, cursor.copy(copy_sql) as copy:
        blocks = iter(copy)
        try:
            for block in blocks:
                yield bytes(block)
        except GeneratorExit:
            # The client went away. Left to itself psycopg would send the server a cancel
            # request, on a connection of its own, and read the rest: when the COPY had ended
            # by the time the cancel arrived, it cancelled the connection's next statement
            # instead ("canceling statement due to user request", issue 36). The rest is
            # read here, so the COPY ends whole and no cancel is sent.
            for _ in blocks:
                pass
            raise


def journal_xlsx(*, casino: str, day_from: dt.date, day_to: dt.date, path: str | Path,
                 max_rows: int = XLSX_MAX_ROWS) -> int:
    """Write the journal of the period to an XLSX file at ``path``; returns the lines written.

    ``max_rows``: rows per sheet, header included (Excel's limit; smaller in tests)."""
    if max_rows < 2:
        raise ValueError("a sheet holds its header and at least one line")
    workbook = xlsxwriter.Workbook(str(path), {"constant_memory": True,
                                               "tmpdir": tempfile.gettempdir()})
    workbook.set_properties({"title": f"Journal {casino} {day_from} – {day_to}",
                             "subject": "General ledger journal"})
    bold = workbook.add_format({"bold": True})
    date = workbook.add_format({"num_format": "yyyy-mm-dd"})
    money = workbook.add_format({"num_format": "0.00"})
    sheets = 0
    sheet: Any = None
    row = max_rows
    lines = 0
    query = _query(_XLSX_SELECT, casino, day_from, day_to)
    with _driver_connection().cursor() as cursor:
        for record in cursor.stream(query, size=5000):
            if row >= max_rows:
                sheets += 1
                sheet = workbook.add_worksheet("Journal" if sheets == 1 else f"Journal ({sheets})")
                _header(sheet, JOURNAL_COLUMNS, bold)
                row = 1
            (day, number, code, name, debit, credit, description, event_type, position, stream,
             corrects, event_day) = record
            write_number, write_string = sheet.write_number, sheet.write_string
            write_number(row, 0, day, date)
            write_number(row, 1, number)
            write_string(row, 2, code)
            write_string(row, 3, name)
            if debit:
                write_number(row, 4, debit, money)
            if credit:
                write_number(row, 5, credit, money)
            write_string(row, 6, description)
            write_string(row, 7, event_type)
            write_number(row, 8, position)
            write_string(row, 9, stream)
            if corrects is not None:
                write_number(row, 10, corrects)
            write_number(row, 11, event_day, date)
            row += 1
            lines += 1
    if sheet is None:
        _header(workbook.add_worksheet("Journal"), JOURNAL_COLUMNS, bold)
    workbook.close()
    return lines


def _header(sheet: Any, columns: tuple[str, ...], bold: Any) -> None:
    for col, title in enumerate(columns):
        sheet.write_string(0, col, title, bold)


def trial_balance_rows(report: TrialBalance, *, language: str = "en") -> Iterator[tuple[Any, ...]]:
    """The rows, each account named in ``language`` (the chart keeps an English and a Portuguese
    name, as the screens show them: ``edge.web.labels.account_name``)."""
    portuguese = language.lower().startswith("pt")
    for r in report.rows:
        name = r.name_pt if portuguese and r.name_pt else r.name
        yield (r.code, name, r.kind, r.snc, r.macau, r.opening, r.debit, r.credit, r.closing,
               r.closing_debit, r.closing_credit)


def trial_balance_csv(report: TrialBalance, *, language: str = "en") -> Iterator[bytes]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(TRIAL_BALANCE_COLUMNS)
    for row in trial_balance_rows(report, language=language):
        writer.writerow([str(v) for v in row])
    yield buffer.getvalue().encode()


def trial_balance_xlsx(report: TrialBalance, path: str | Path, *, language: str = "en") -> None:
    workbook = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    workbook.set_properties({"title": f"Trial balance {report.casino} {report.day_from} – "
                                      f"{report.day_to}"})
    bold = workbook.add_format({"bold": True})
    money = workbook.add_format({"num_format": "0.00"})
    sheet = workbook.add_worksheet("Trial balance")
    _header(sheet, TRIAL_BALANCE_COLUMNS, bold)
    for row_no, row in enumerate(trial_balance_rows(report, language=language), start=1):
        for col, value in enumerate(row):
            if isinstance(value, Decimal):
                sheet.write_number(row_no, col, float(value), money)
            else:
                sheet.write_string(row_no, col, value)
    workbook.close()


def temporary_xlsx() -> str:
    handle, path = tempfile.mkstemp(prefix="ledger-", suffix=".xlsx")
    os.close(handle)
    return path


def file_chunks(path: str, *, delete: bool = True, size: int = 1 << 16) -> Iterator[bytes]:
    """A file's bytes, block by block; the file is deleted once read (or abandoned)."""
    try:
        with open(path, "rb") as handle:
            while block := handle.read(size):
                yield block
    finally:
        if delete:
            Path(path).unlink(missing_ok=True)


def _driver_connection() -> Any:
    """The psycopg connection under Django's (COPY streams through the driver itself)."""
    connection.ensure_connection()
    return connection.connection
