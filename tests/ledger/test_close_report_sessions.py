"""The close report per session (issue 36, item 7): each table session's own opening and
closing tray, never two sessions' trays added into one "Closing"; a day sealed before the
report listed its sessions keeps the report (and the digest) its seal signed."""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import replace
from decimal import Decimal as D

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pypdf import PdfReader

from cage.models import Shift
from casino.models import GamingDaySeal
from reporting.close_report import as_sealed, close_report, report_digest
from reporting.close_report_files import close_report_csv, close_report_pdf

from .conftest import CASINO, Floor
from .test_close_report import people, straight  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def two_sessions(floor: Floor) -> dt.date:
    """Table r1 opened twice in the day.

    Session 1: float 2,600.00 (100×10 + 25×40 + 5×100 + 1×100); 200.00 changed into chips;
    closed on a tray of 2,300.00 (100×8 + 25×40 + 5×100). Win = 2,300 − 2,600 + 200 = −100.00.
    Session 2: opens on that tray, 2,300.00; 100.00 changed; a straight of 20.00 loses on 0:
    tray 2,300 − 100 + 20 = 2,220.00 (100×7 + 25×40 + 5×100 + 1×20).
    Win = 2,220 − 2,300 + 100 = 20.00.
    The table's day: openings 2,600 + 2,300 = 4,900.00 and closings 2,300 + 2,220 = 4,520.00
    (no tray anyone counted), win −100 + 20 = −80.00.
    """
    floor.open_table("r1")
    floor.buy_in("r1", "200.00")
    floor.close_table("r1", {"100.00": 8, "25.00": 40, "5.00": 100, "1.00": 0}, "200.00")
    floor.open_table("r1", opening={"100.00": 8, "25.00": 40, "5.00": 100, "1.00": 0})
    floor.buy_in("r1", "100.00")
    floor.spin("r1", [straight("20")], 0)
    floor.close_table("r1", {"100.00": 7, "25.00": 40, "5.00": 100, "1.00": 20}, "100.00")
    return Shift.objects.get(id=floor.window).gaming_day


def test_each_session_its_own_opening_and_closing(floor: Floor) -> None:
    report = close_report(casino=CASINO, gaming_day=two_sessions(floor))
    (table,) = report.tables
    assert (table.sessions, table.opening, table.closing, table.win) == (
        2, D("4900.00"), D("4520.00"), D("-80.00"))
    first, second = report.sessions
    assert (first.table, first.number, first.opening, first.drop, first.closing, first.win) == (
        "r1", 1, D("2600.00"), D("200.00"), D("2300.00"), D("-100.00"))
    assert (second.number, second.opening, second.drop, second.closing, second.win) == (
        2, D("2300.00"), D("100.00"), D("2220.00"), D("20.00"))
    assert first.opened_at < second.opened_at
    assert report.as_data()["sessions"][1]["closing"] == "2220.00"  # type: ignore[index,call-overload]

    rows = [r for r in csv.reader(io.StringIO("".join(close_report_csv(report))))
            if r and r[0] == "session"]
    assert rows[0][:2] == ["session", "table"]
    assert [(r[1], r[2], r[5], r[9], r[10]) for r in rows[1:]] == [
        ("r1", "1", "2600.00", "2300.00", "-100.00"), ("r1", "2", "2300.00", "2220.00", "20.00")]

    text = " ".join("\n".join(p.extract_text() for p in PdfReader(
        io.BytesIO(close_report_pdf(report))).pages).split())
    assert "Table sessions" in text
    assert "2220.00" in text
    assert "2600.00" in text
    assert "4520.00" not in text
    assert "4900.00" not in text


def test_the_page_shows_the_sessions_and_no_added_trays(
        floor: Floor, people: dict[str, User], client: object) -> None:  # noqa: F811
    day = two_sessions(floor)
    client.force_login(people["conta"])  # type: ignore[attr-defined]
    body = client.get(f"/ledger/{CASINO}/close-report/?day={day}").content.decode()  # type: ignore[attr-defined]
    assert "Table sessions" in body
    assert "2,220.00" in body
    assert "2,300.00" in body
    assert "4,520.00" not in body
    assert "4,900.00" not in body


def test_a_report_without_sessions_reads_and_digests_as_before(floor: Floor) -> None:
    report = close_report(casino=CASINO, gaming_day=two_sessions(floor))
    before = replace(report, sessions=())
    assert "sessions" not in before.as_data()  # an old report's content, the same keys
    rows = [r[0] for r in csv.reader(io.StringIO("".join(close_report_csv(before)))) if r]
    assert "session" not in rows
    assert report_digest(before) != report_digest(report)
    # A day sealed before the sessions were listed: its seal signed the report without them.
    GamingDaySeal.objects.create(
        casino_id=CASINO, gaming_day=report.gaming_day, first_position=1, last_position=2,
        last_hash="0" * 64, totals={}, report_digest=report_digest(before), key_id="k",
        signature="s", payload={}, position=3, sealed_by="conta", sealed_at=timezone.now())
    again = close_report(casino=CASINO, gaming_day=report.gaming_day)
    assert again.sessions == ()
    assert report_digest(again) == report_digest(before)
    # A seal of the report with its sessions keeps them.
    GamingDaySeal.objects.filter(casino_id=CASINO).update(report_digest=report_digest(report))
    assert as_sealed(report) is report
