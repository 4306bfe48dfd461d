"""Exports re-import to the trial balance's totals; XLSX rolls over to new sheets."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import zoneinfo
from collections import defaultdict
from decimal import Decimal as D
from pathlib import Path

import openpyxl
import pytest
from django.core.management import CommandError, call_command

from ledger import exports, reports
from ledger.models import JournalLine

from .conftest import CASINO, Clock, Floor, make_floor

LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")
DAY1, DAY2, DAY3 = dt.date(2025, 5, 1), dt.date(2025, 5, 2), dt.date(2025, 5, 3)


def at(day: dt.date, hour: int) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour), tzinfo=LISBON)


@pytest.fixture
def three_days(db: None, clock: Clock) -> Floor:
    clock.set(at(DAY1, 12))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.open_table("r1")
    floor.sell({"100.00": 3}, {"100.00": 3})
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    # a session belongs to the gaming day it opened in: the table closes each day
    floor.close_table("r1", {"100.00": 10, "25.00": 40, "5.00": 100, "1.00": 150}, "0.00")
    clock.set(at(DAY2, 12))
    floor.open_table("r1")
    floor.buy_in("r1", "100.00")
    floor.spin("r1", [{"seat": 1, "type": "straight", "numbers": [5], "amount": "5"}], 5)
    floor.fill("r1", {"100.00": 3})
    floor.redeem({"25.00": 4}, {"100.00": 1})
    # 2,650.00 - 100.00 (buy-in) - 175.00 (the straight up) + 300.00 (the fill)
    floor.close_table("r1", {"100.00": 13, "25.00": 40, "5.00": 65, "1.00": 50}, "100.00")
    clock.set(at(DAY3, 12))
    floor.open_table("r1")
    floor.spin("r1", [{"seat": 2, "type": "black", "amount": "20"}], 2)
    return floor


def totals_by_account(rows: list[tuple[str, D, D]]) -> dict[str, tuple[D, D]]:
    sums: dict[str, list[D]] = defaultdict(lambda: [D(0), D(0)])
    for code, debit, credit in rows:
        sums[code][0] += debit
        sums[code][1] += credit
    return {k: (v[0], v[1]) for k, v in sums.items()}


def trial_balance_totals(day_from: dt.date, day_to: dt.date) -> dict[str, tuple[D, D]]:
    tb = reports.trial_balance(casino=CASINO, day_from=day_from, day_to=day_to)
    assert tb.balanced
    return {r.code: (r.debit, r.credit) for r in tb.rows if r.debit or r.credit}


def read_csv(blob: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(blob.decode("utf-8"))))


def test_the_journal_csv_of_a_period_reimports_to_the_trial_balance(three_days: Floor) -> None:
    blob = b"".join(exports.journal_csv(casino=CASINO, day_from=DAY2, day_to=DAY2))
    rows = read_csv(blob)
    assert list(rows[0]) == list(exports.JOURNAL_COLUMNS)
    assert {r["date"] for r in rows} == {"2025-05-02"}
    amounts = [(r["account_code"], D(r["debit"] or 0), D(r["credit"] or 0)) for r in rows]
    assert totals_by_account(amounts) == trial_balance_totals(DAY2, DAY2)
    assert sum(a[1] for a in amounts) == sum(a[2] for a in amounts) > 0
    assert all((r["debit"] == "") != (r["credit"] == "") for r in rows)
    assert len(rows) == JournalLine.objects.filter(entry__day=DAY2).count()
    spin = next(r for r in rows if r["event_type"] == "RoundSettled")
    assert spin["account_name"].startswith("Gaming revenue — french roulette — table r1")
    assert spin["stream"].startswith("round/")
    assert int(spin["event_position"]) > 0


def test_the_journal_xlsx_reimports_to_the_trial_balance(three_days: Floor,
                                                         tmp_path: Path) -> None:
    path = tmp_path / "journal.xlsx"
    written = exports.journal_xlsx(casino=CASINO, day_from=DAY1, day_to=DAY3, path=path)
    book = openpyxl.load_workbook(path, read_only=True)
    assert book.sheetnames == ["Journal"]
    rows = list(book["Journal"].iter_rows(values_only=True))
    assert rows[0] == exports.JOURNAL_COLUMNS
    assert len(rows) - 1 == written == JournalLine.objects.count()
    amounts = [(str(r[2]), D(str(r[4] or 0)).quantize(D("0.01")),
                D(str(r[5] or 0)).quantize(D("0.01"))) for r in rows[1:]]
    assert totals_by_account(amounts) == trial_balance_totals(DAY1, DAY3)
    assert rows[1][0].date() == DAY1  # an Excel date


def test_the_xlsx_journal_continues_on_a_new_sheet_past_the_row_limit(three_days: Floor,
                                                                       tmp_path: Path) -> None:
    path = tmp_path / "journal.xlsx"
    written = exports.journal_xlsx(casino=CASINO, day_from=DAY1, day_to=DAY3, path=path,
                                   max_rows=5)
    book = openpyxl.load_workbook(path, read_only=True)
    sheets = (written + 3) // 4
    assert book.sheetnames == ["Journal"] + [f"Journal ({n})" for n in range(2, sheets + 1)]
    lines = []
    for name in book.sheetnames:
        rows = list(book[name].iter_rows(values_only=True))
        assert rows[0] == exports.JOURNAL_COLUMNS
        assert 2 <= len(rows) <= 5
        lines += rows[1:]
    assert len(lines) == written
    assert [int(r[1]) for r in lines] == sorted(int(r[1]) for r in lines)  # entry order kept


def test_an_empty_period_exports_its_headers(three_days: Floor, tmp_path: Path) -> None:
    empty = dt.date(2030, 1, 1)
    blob = b"".join(exports.journal_csv(casino=CASINO, day_from=empty, day_to=empty))
    assert blob.decode().strip() == ",".join(exports.JOURNAL_COLUMNS)
    path = tmp_path / "empty.xlsx"
    assert exports.journal_xlsx(casino=CASINO, day_from=empty, day_to=empty, path=path) == 0
    rows = list(openpyxl.load_workbook(path, read_only=True)["Journal"].iter_rows(
        values_only=True))
    assert rows == [exports.JOURNAL_COLUMNS]


def test_the_trial_balance_exports_read_back(three_days: Floor, tmp_path: Path) -> None:
    tb = reports.trial_balance(casino=CASINO, day_from=DAY2, day_to=DAY3)
    rows = read_csv(b"".join(exports.trial_balance_csv(tb)))
    assert [r["account_code"] for r in rows] == [r.code for r in tb.rows]
    assert sum(D(r["debit"]) for r in rows) == tb.debit == sum(D(r["credit"]) for r in rows)
    assert sum(D(r["closing"]) for r in rows) == 0
    assert any(D(r["opening"]) != 0 for r in rows)  # day 1 is before the period
    path = tmp_path / "tb.xlsx"
    exports.trial_balance_xlsx(tb, path)
    sheet = list(openpyxl.load_workbook(path, read_only=True)["Trial balance"].iter_rows(
        values_only=True))
    assert sheet[0] == exports.TRIAL_BALANCE_COLUMNS
    assert sum(D(str(r[6])) for r in sheet[1:]).quantize(D("0.01")) == tb.debit


def test_export_ledger_command_writes_csv_and_xlsx(three_days: Floor, tmp_path: Path,
                                                   capsysbinary: pytest.CaptureFixture[bytes]
                                                   ) -> None:
    out = tmp_path / "j.csv"
    call_command("export_ledger", "--from", "2025-05-01", "--to", "2025-05-03", "--format",
                 "csv", "--output", str(out))
    rows = read_csv(out.read_bytes())
    assert len(rows) == JournalLine.objects.count()
    call_command("export_ledger", "--from", "2025-05-03", "--to", "2025-05-03", "--format",
                 "csv")
    printed = read_csv(capsysbinary.readouterr().out)
    assert {r["date"] for r in printed} == {"2025-05-03"}
    xlsx = tmp_path / "j.xlsx"
    call_command("export_ledger", "--from", "2025-05-01", "--to", "2025-05-03", "--format",
                 "xlsx", "--output", str(xlsx))
    assert openpyxl.load_workbook(xlsx, read_only=True).sheetnames == ["Journal"]
    call_command("export_ledger", "--from", "2025-05-01", "--to", "2025-05-03", "--format",
                 "xlsx", "--report", "trial-balance", "--output", str(tmp_path / "tb.xlsx"))
    with pytest.raises(CommandError, match="needs --output"):
        call_command("export_ledger", "--from", "2025-05-01", "--to", "2025-05-03",
                     "--format", "xlsx")
    with pytest.raises(CommandError, match=r"starts .* after it ends"):
        call_command("export_ledger", "--from", "2025-05-03", "--to", "2025-05-01",
                     "--format", "csv", "--output", str(out))


def test_trial_balance_command_in_its_three_formats(three_days: Floor) -> None:
    table = io.StringIO()
    call_command("trial_balance", "--from", "2025-05-01", "--to", "2025-05-03", stdout=table)
    text = table.getvalue()
    assert "Trial balance lisboa (EUR) 2025-05-01 to 2025-05-03" in text
    assert "2781" in text
    assert "Chips in circulation" in text
    as_csv = io.StringIO()
    call_command("trial_balance", "--from", "2025-05-01", "--to", "2025-05-03", "--format",
                 "csv", stdout=as_csv)
    rows = read_csv(as_csv.getvalue().encode())
    assert sum(D(r["closing"]) for r in rows) == 0
    as_json = io.StringIO()
    call_command("trial_balance", "--from", "2025-05-02", "--to", "2025-05-02", "--format",
                 "json", stdout=as_json)
    data = json.loads(as_json.getvalue())
    assert data["balanced"] is True
    assert data["debit"] == data["credit"]
    assert {a["account_code"] for a in data["accounts"]} >= {"1110.w1", "2781", "7211.r1"}


def test_each_casino_exports_its_own_journal(three_days: Floor) -> None:
    make_floor("porto")
    rows = read_csv(b"".join(exports.journal_csv(casino="porto", day_from=DAY1, day_to=DAY3)))
    assert rows
    assert all(r["account_code"] for r in rows)
    mine = read_csv(b"".join(exports.journal_csv(casino=CASINO, day_from=DAY1, day_to=DAY3)))
    assert len(mine) + len(rows) == JournalLine.objects.count()


def test_a_download_abandoned_half_way_leaves_the_connection_usable(
        three_days: Floor, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36: no cancel request is sent (it raced the COPY's end and, landing late,
    cancelled the connection's next statement: the test failed now and then in a full run)."""
    import psycopg

    cancels: list[object] = []
    monkeypatch.setattr(psycopg.Connection, "_try_cancel", lambda self, *a, **k: cancels.append(a))
    blocks = exports.journal_csv(casino=CASINO, day_from=DAY1, day_to=DAY3)
    assert next(blocks).startswith(b"date,entry_number")
    blocks.close()  # the client went away
    assert cancels == []
    assert JournalLine.objects.count() > 0
