
"""The gaming day's close report (issue 14, item 6): its figures worked out by hand on a small
day, the CSV and the PDF read back, the digest, the page and the API."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from decimal import Decimal as D

import pytest
from django.contrib.auth.models import User

from cage.models import Shift
from reporting.close_report import CloseReport, close_report, report_digest
from reporting.close_report_files import close_report_csv, close_report_pdf

from .conftest import CASINO, Floor, act


def straight(amount: str, number: int = 17) -> dict[str, object]:
    return {"seat": 1, "type": "straight", "numbers": [number], "amount": amount}


def split(amount: str, numbers: tuple[int, int] = (17, 20)) -> dict[str, object]:
    return {"seat": 2, "type": "split", "numbers": list(numbers), "amount": amount}


def a_small_day(floor: Floor) -> dt.date:
    """Three tables, two games.

    r1 (French roulette): float 2,600.00; 200.00 changed into chips; two straights and two
    splits of 25.00 each lose on 2 (the house wins 100.00); a credit of 200.00.
    Tray: 2,600 − 200 + 100 − 200 = 2,300.00. Win = 2,300 − 2,600 + 200 − 0 + 200 = 100.00.

    r2 (French roulette): float 2,600.00; a fill of 500.00; 300.00 changed; a split of 5.00 on
    17/20 wins on 17 (the house pays 17 × 5 = 85.00).
    Tray: 2,600 + 500 − 300 − 85 = 2,715.00. Win = 2,715 − 2,600 + 0 − 500 + 300 = −85.00.

    a1 (American roulette): float 2,600.00; 100.00 changed; a straight of 20.00 loses on 0.
    Tray: 2,600 − 100 + 20 = 2,520.00. Win = 2,520 − 2,600 + 100 = 20.00.

    And the cage sells 300.00 of chips for cash at window w1.
    """
    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    floor.open_table("r1")
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [straight("25"), straight("25", 18), split("25"), split("25", (18, 21))],
               2)
    floor.credit("r1", {"100.00": 2})
    floor.close_table("r1", {"100.00": 8, "25.00": 40, "5.00": 100, "1.00": 0}, "200.00")

    floor.open_table("r2")
    floor.fill("r2", {"100.00": 5})
    floor.buy_in("r2", "300.00")
    floor.spin("r2", [split("5")], 17)
    floor.close_table("r2", {"100.00": 14, "25.00": 40, "5.00": 63, "1.00": 0}, "300.00")

    floor.open_table("a1", game="american_roulette")
    floor.buy_in("a1", "100.00")
    floor.spin("a1", [straight("20")], 0)
    floor.close_table("a1", {"100.00": 9, "25.00": 40, "5.00": 100, "1.00": 120}, "100.00")
    return Shift.objects.get(id=floor.window).gaming_day


def report_of(floor: Floor) -> CloseReport:
    return close_report(casino=CASINO, gaming_day=a_small_day(floor))


def test_per_table_opening_fills_credits_drop_closing_win_and_hold(floor: Floor) -> None:
    report = report_of(floor)
    rows = {t.table: t for t in report.tables}
    assert sorted(rows) == ["a1", "r1", "r2"]
    r1, r2, a1 = rows["r1"], rows["r2"], rows["a1"]
    assert (r1.opening, r1.fills, r1.credits, r1.drop, r1.closing, r1.win) == (
        D("2600.00"), D("0.00"), D("200.00"), D("200.00"), D("2300.00"), D("100.00"))
    assert r1.hold_percent == D("50.00")  # 100 / 200
    assert (r2.opening, r2.fills, r2.credits, r2.drop, r2.closing, r2.win) == (
        D("2600.00"), D("500.00"), D("0.00"), D("300.00"), D("2715.00"), D("-85.00"))
    assert r2.hold_percent == D("-28.33")  # -85 / 300
    assert (a1.opening, a1.drop, a1.closing, a1.win, a1.hold_percent) == (
        D("2600.00"), D("100.00"), D("2520.00"), D("20.00"), D("20.00"))


def test_hold_against_theoretical_from_the_game_math(floor: Floor) -> None:
    rows = {t.table: t for t in report_of(floor).tables}
    r1, r2, a1 = rows["r1"], rows["r2"], rows["a1"]
    # A single-zero straight or split keeps 1/37 of the stake: 100 / 37 = 2.7027 -> 2.70
    assert (r1.handle, r1.theoretical_win, r1.theoretical_hold_percent) == (
        D("100.00"), D("2.70"), D("2.70"))
    assert (r1.win_handle_percent, r1.against_theoretical) == (D("100.00"), D("97.30"))
    # 5 / 37 = 0.135 -> 0.14, which is 2.80% of a handle of 5.00
    assert (r2.handle, r2.theoretical_win, r2.theoretical_hold_percent) == (
        D("5.00"), D("0.14"), D("2.80"))
    assert r2.against_theoretical == D("-85.14")
    # The engine's American roulette has one zero too (37 numbers, games/engine/roulette.py):
    # 20 / 37 = 0.5405 -> 0.54, 2.70% of 20.00
    assert (a1.handle, a1.theoretical_win, a1.theoretical_hold_percent) == (
        D("20.00"), D("0.54"), D("2.70"))
    assert all(t.figures in ("engine", "local", "engine+local") for t in rows.values())


def test_per_game_sums(floor: Floor) -> None:
    games = {g.game: g for g in report_of(floor).games}
    french = games["french_roulette"]
    assert (french.tables, french.sessions, french.opening, french.fills, french.credits,
            french.drop, french.closing, french.win) == (
        2, 2, D("5200.00"), D("500.00"), D("200.00"), D("500.00"), D("5015.00"), D("15.00"))
    assert french.hold_percent == D("3.00")  # 15 / 500
    assert (french.handle, french.theoretical_win) == (D("105.00"), D("2.84"))  # 2.70 + 0.14
    american = games["american_roulette"]
    assert (american.tables, american.win, american.drop) == (1, D("20.00"), D("100.00"))


def test_the_cage_section(floor: Floor) -> None:
    report = report_of(floor)
    window = next(c for c in report.cage if c.cage == "w1" and c.scope == "shift")
    assert window.shift == floor.window
    # w1 opened empty; from the vault 4,500.00 cash and 8,700.00 chips; the sale: 300.00 cash
    # in, 300.00 chips out; the fill to r2: 500.00 chips out; r1's credit: 200.00 chips in.
    assert (window.opening, window.receipts, window.payments, window.expected) == (
        D("0.00"), D("13700.00"), D("800.00"), D("12900.00"))
    assert (window.counted, window.variance) == (None, None)  # not counted yet
    moved = {m.kind: (m.received, m.paid) for m in window.movements}
    assert moved["FillIssued"] == (D("0.00"), D("500.00"))
    assert moved["CreditReceived"] == (D("200.00"), D("0.00"))
    day = next(c for c in report.cage if c.cage == "w1" and c.scope == "day")
    assert (day.opening, day.expected) == (window.opening, window.expected)
    total = next(c for c in report.cage if c.scope == "total")
    cages = [c for c in report.cage if c.scope == "day"]
    assert total.expected == sum((c.expected for c in cages), D(0))
    # the vault's opening: 40 × 500 + 300 × 100 + 200 × 50 + 500 × 20 + 500 × 10
    vault = next(c for c in cages if c.cage == "vault")
    assert vault.opening == D("75000.00")


def test_the_gaming_tax_base_and_the_taxes(floor: Floor) -> None:
    report = report_of(floor)
    # table win 100 − 85 + 20 = 35.00, no jackpot: the gross gaming revenue
    assert report.revenue.gross_gaming_revenue == D("35.00")
    assert report.totals.gaming_tax_base == D("35.00")
    # Portugal's IEJ on banked games (docs/gaming-tax.md): three tables opened with 2,600.00
    # each, banca simples, zone Estoril. Capital em giro inicial 7,800.00 at 0.25 % = 19.50;
    # presumed gross profit 21 % of it = 1,638.00, at 20 % = 327.60; no non-banked game.
    assert [(t.code, t.base, t.rate, t.amount) for t in report.taxes] == [
        ("pt-iej-capital", D("7800.00"), D("0.25"), D("19.50")),
        ("pt-iej-profit", D("1638.00"), D("20"), D("327.60")),
        ("pt-iej-non-banked", D("0.00"), None, D("0.00"))]
    assert report.totals.taxes == D("347.10")
    assert "Decreto-Lei n.º 422/89" in report.taxes[0].legal_source


def test_the_days_totals(floor: Floor) -> None:
    totals = report_of(floor).totals
    assert totals.drop == D("600.00")  # 200 + 300 + 100
    assert totals.win == D("35.00")
    # chips in players' hands: 300 sold at the cage + 600 changed at the tables, − 100 lost
    # at r1, + 85 won at r2, − 20 lost at a1
    assert totals.chips_in_circulation == D("865.00")
    assert totals.jackpot_liability == D("0.00")


def test_an_approved_table_variance_is_an_exception_of_the_day(floor: Floor) -> None:
    from casino.services.approvals import approval_grant, approval_request

    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    session = floor.open_table("r1")
    floor.close_table("r1", {"100.00": 10, "25.00": 40, "5.00": 100, "1.00": 99}, "0.00")
    day = Shift.objects.get(id=floor.window).gaming_day
    asked = approval_request(kind="table_variance", subject=session, reason="miscount",
                             explanation="a 1.00 chip fell under the table",
                             metadata=act("paulo", "pit_boss"))
    assert close_report(casino=CASINO, gaming_day=day).exceptions == ()  # not approved yet
    approval_grant(approval_id=asked.approval_id, metadata=act("rita", "pit_boss"))
    (line,) = close_report(casino=CASINO, gaming_day=day).exceptions
    assert (line.kind, line.subject, line.requested_by, line.approved_by) == (
        "table_variance", session, "paulo", "rita")
    assert close_report(casino=CASINO, gaming_day=day + dt.timedelta(days=1)).exceptions == ()
    assert close_report_pdf(close_report(casino=CASINO, gaming_day=day)).startswith(b"%PDF-")


def test_the_digest_is_the_same_twice_and_changes_with_a_figure(floor: Floor) -> None:
    day = a_small_day(floor)
    first = report_digest(close_report(casino=CASINO, gaming_day=day))
    assert len(first) == 64
    assert int(first, 16) >= 0
    assert report_digest(close_report(casino=CASINO, gaming_day=day)) == first
    floor.sell({"25.00": 1}, {"10.00": 2, "5.00": 1})  # one more sale: the cage, the chips
    assert report_digest(close_report(casino=CASINO, gaming_day=day)) != first


def test_the_csv_read_back_adds_up(floor: Floor) -> None:
    report = report_of(floor)
    text = "".join(close_report_csv(report))
    rows = [r for r in csv.reader(io.StringIO(text)) if r]
    sections: dict[str, list[dict[str, str]]] = {}
    headers: dict[str, list[str]] = {}
    for row in rows:
        if row[0] not in headers:
            headers[row[0]] = row
            sections[row[0]] = []
        else:
            sections[row[0]].append(dict(zip(headers[row[0]], row, strict=True)))
    assert list(sections) == ["report", "table", "session", "game", "cage", "jackpot", "machine",
                              "revenue", "tax", "exception", "correction", "total"]
    assert sections["report"][0]["digest"] == report_digest(report)
    tables, (total,) = sections["table"], sections["total"]
    assert sum(D(t["drop"]) for t in tables) == D(total["drop"]) == D("600.00")
    assert sum(D(t["win"]) for t in tables) == D(total["win"]) == D("35.00")
    for t in tables:
        assert (D(t["closing"]) - D(t["opening"]) + D(t["credits"]) - D(t["fills"])
                + D(t["drop"]) + D(t["carried"])) == D(t["win"])
    assert sum(D(g["win"]) for g in sections["game"]) == D("35.00")
    assert sections["tax"][0]["rate_percent"] == "0.25"  # the IEJ on the capital, simples


def test_the_pdf_read_back_holds_the_table_lines_and_the_digest(floor: Floor) -> None:
    from pypdf import PdfReader

    report = report_of(floor)
    pdf = close_report_pdf(report)
    assert pdf.startswith(b"%PDF-")
    assert close_report_pdf(report) == pdf  # built invariant: the same bytes twice
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    squeezed = " ".join(text.split())
    assert report_digest(report) in text.replace("\n", "")
    assert "Casino lisboa" in text
    assert report.gaming_day.isoformat() in text
    # the games by their names, not their codes (issue 36)
    # (the trays, opening and closing, each session's own: issue 36)
    for line in ("r1 French roulette 1 1 0.00 200.00 200.00 100.00 50.00",
                 "r2 French roulette 1 1 500.00 0.00 300.00 -85.00 -28.33",
                 "a1 American roulette 1 1 0.00 0.00 100.00 20.00 20.00",
                 "2600.00 0.00 200.00 200.00 2300.00 100.00",
                 "2600.00 500.00 0.00 300.00 2715.00 -85.00",
                 "2600.00 0.00 0.00 100.00 2520.00 20.00"):
        assert line in squeezed, line


def test_the_pdf_is_written_in_one_language_whatever_the_request_reads(floor: Floor) -> None:
    """A PDF asked for from a pt-PT page is the same English document: no game's name in
    Portuguese among English headings (seen when a pt-PT request's language leaked)."""
    from django.utils import translation
    from pypdf import PdfReader

    report = report_of(floor)
    english = close_report_pdf(report)
    with translation.override("pt-pt"):
        asked_in_portuguese = close_report_pdf(report)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(
        asked_in_portuguese)).pages)
    assert "French roulette" in text
    assert "Roleta francesa" not in text
    assert asked_in_portuguese == english


@pytest.fixture
def people(db: None) -> dict[str, User]:
    from casino.models import Membership, Role

    out: dict[str, User] = {}
    for name, role in (("conta", Role.ACCOUNTANT), ("caixa", Role.CASHIER),
                       ("igj", Role.REGULATOR)):
        user = User.objects.create_user(username=name, password="x")
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
        out[name] = user
    return out


def test_the_page_renders_for_the_accountant_and_not_for_a_cashier(
        floor: Floor, people: dict[str, User], client: object) -> None:
    day = a_small_day(floor)
    digest = report_digest(close_report(casino=CASINO, gaming_day=day))
    client.force_login(people["conta"])  # type: ignore[attr-defined]
    page = client.get(f"/ledger/{CASINO}/close-report/?day={day}")  # type: ignore[attr-defined]
    body = page.content.decode()
    assert page.status_code == 200
    assert digest in body
    assert "2,715.00" in body  # the figures the page's way: grouped, two places
    assert "-85.00" in body
    portuguese = client.get(f"/ledger/{CASINO}/close-report/?day={day}",  # type: ignore[attr-defined]
                            headers={"accept-language": "pt-pt"}).content.decode()
    assert "2.715,00" in portuguese
    assert "-85,00" in portuguese
    assert "2715.00" not in portuguese
    assert f"/ledger/{CASINO}/close-report.pdf?day={day}" in body
    overview = client.get(f"/ledger/{CASINO}/trial-balance/")  # type: ignore[attr-defined]
    assert f"/ledger/{CASINO}/close-report/" in overview.content.decode()  # in the navigation
    download = client.get(f"/ledger/{CASINO}/close-report.csv?day={day}")  # type: ignore[attr-defined]
    assert download.status_code == 200
    assert "attachment" in download["Content-Disposition"]
    assert digest in b"".join(download.streaming_content).decode()
    client.force_login(people["caixa"])  # type: ignore[attr-defined]
    refused = client.get(f"/ledger/{CASINO}/close-report/?day={day}")  # type: ignore[attr-defined]
    assert refused.status_code == 403
    refused_file = client.get(f"/ledger/{CASINO}/close-report.pdf?day={day}")  # type: ignore[attr-defined]
    assert refused_file.status_code == 403


def test_through_the_api(floor: Floor, people: dict[str, User]) -> None:
    from rest_framework.test import APIClient

    day = a_small_day(floor)
    api = APIClient()
    api.force_authenticate(people["igj"])
    data = api.get(f"/api/v1/ledger/{CASINO}/close-report/{day}/").json()
    assert data["digest"] == report_digest(close_report(casino=CASINO, gaming_day=day))
    assert data["totals"]["win"] == "35.00"
    assert [t["table"] for t in data["tables"]] == ["a1", "r1", "r2"]
    pdf = api.get(f"/api/v1/ledger/{CASINO}/close-report/{day}.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF-")  # type: ignore[attr-defined]
    got = api.get(f"/api/v1/ledger/{CASINO}/close-report/{day}.csv")
    assert b"".join(got.streaming_content).startswith(b"report,casino")  # type: ignore[attr-defined]
    wrong = api.get(f"/api/v1/ledger/{CASINO}/close-report/yesterday/")
    assert wrong.status_code == 400
    error = wrong.json()["error"]
    assert error["message"] == "'yesterday' is not a gaming day such as 2025-03-01"
    assert error["extra"]["field"] == "day"
    api.force_authenticate(people["caixa"])
    assert api.get(f"/api/v1/ledger/{CASINO}/close-report/{day}/").status_code == 403


def test_the_jackpots_meter_hits_paid_and_owed(db: None) -> None:
    from tests.jackpots.meters import meter_correct

    from .test_circulation import _jackpot, _jackpot_floor

    floor = _jackpot_floor()
    _jackpot(floor, 1, ["two_aces", "nothing"], "chips")  # 25 × 1.00, paid in 25.00 chips
    _jackpot(floor, 2, ["three_aces"], "later")  # 250 × 1.00, owed
    day = Shift.objects.get(id=floor.window).gaming_day
    report = close_report(casino=CASINO, gaming_day=day)
    (pool,) = report.jackpots
    assert (pool.pool, pool.hits, pool.hits_amount, pool.paid, pool.owed) == (
        "bj", 2, D("275.00"), D("25.00"), D("250.00"))
    # start 10,000.00 + 3 jackpot chips × 1.00 × 80% − the prizes 275.00; no reserve
    assert (pool.meter, pool.reserve) == (D("9727.40"), D("0.00"))
    assert report.totals.jackpot_liability == D("9977.40")  # meter + reserve + owed
    # the day before, the pool did not exist: read at that day's boundary, nothing
    assert close_report(casino=CASINO, gaming_day=day - dt.timedelta(days=1)).jackpots == ()

    # a correction of the meter, up 10.00, asked by an accountant, approved by an administrator:
    # an exception of the day it was approved in (it changes no table session)
    meter_correct("bj", direction="up", amount="10.00", reason="display_fault")
    corrected = close_report(casino=CASINO, gaming_day=day)
    assert corrected.jackpots[0].meter == D("9737.40")
    assert corrected.totals.jackpot_liability == D("9987.40")
    (line,) = corrected.exceptions
    assert (line.kind, line.subject, line.reason, line.requested_by, line.approved_by) == (
        "jackpot_meter_correction", "bj", "display_fault", "contabilista", "gestor")


def test_an_approved_drop_variance_is_an_exception_of_its_sessions_day(floor: Floor) -> None:
    from cage import services as cage
    from casino.services.approvals import approval_grant, approval_request
    from games.models import TableSession

    from .conftest import cashier, notes, supervisor

    day = a_small_day(floor)
    r1 = str(TableSession.objects.get(table="r1").session_id)
    # r1's box was counted at 200.00; the cage receives 150.00 of it
    cage.drop_box_receive(shift_id=floor.window, session_id=r1, table="r1", cash=notes("150.00"),
                          amount=Decimal("150.00"), metadata=cashier())
    asked = approval_request(kind="drop_variance", subject=r1, reason="note_missing",
                             explanation="a 50 note is missing from the box", metadata=cashier())
    approval_grant(approval_id=asked.approval_id, note="seen the count sheet",
                   metadata=supervisor())
    report = close_report(casino=CASINO, gaming_day=day)
    (line,) = report.exceptions
    assert (line.kind, line.subject, line.reason, line.requested_by, line.approved_by) == (
        "drop_variance", r1, "note_missing", "ana", "carla")
    assert line.amount == D("-50.00")  # received less counted
    assert "short 50.00" in line.summary
    # the pit's figures stay those of the count
    assert {t.table: t.drop for t in report.tables}["r1"] == D("200.00")


def test_its_queries_do_not_grow_with_the_tables(floor: Floor) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    day = a_small_day(floor)
    with CaptureQueriesContext(connection) as three:
        close_report(casino=CASINO, gaming_day=day)
    floor.open_table("r3")
    floor.spin("r3", [straight("10")], 3)
    floor.close_table("r3", {"100.00": 10, "25.00": 40, "5.00": 102, "1.00": 0}, "0.00")
    with CaptureQueriesContext(connection) as four:
        report = close_report(casino=CASINO, gaming_day=day)
    assert len(report.tables) == 4
    assert len(four.captured_queries) == len(three.captured_queries)
