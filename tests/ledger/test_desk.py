"""The accountant's desk: the days and their closes, results drawn as charts, today's gaming
tax, and exports of the results built by the Celery task (CSV, XLSX, PDF read back)."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from typing import Any

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from casino.models import Casino, Membership, Role
from ledger.models import ResultsExport

from .conftest import CASINO, Floor

pytestmark = pytest.mark.django_db


def accountant() -> Client:
    user = get_user_model().objects.create_user("contabilista", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.ACCOUNTANT)
    client = Client()
    client.force_login(user)
    return client


def _day_with_results(floor: Floor) -> str:
    floor.open_table("r1", "french_roulette")
    # 17 comes: the straight 10 on 17 wins 350; then 4 (black): the red 20 loses. -330 by hand
    floor.spin("r1", [{"seat": 1, "type": "straight", "numbers": [17], "amount": "10"}], 17)
    floor.spin("r1", [{"seat": 2, "type": "red", "amount": "20"}], 4)
    return Casino.objects.get(code=CASINO).gaming_day(timezone.now()).isoformat()


def test_the_desk_shows_the_days_the_charts_and_todays_tax(floor: Floor) -> None:
    today = _day_with_results(floor)
    page = accountant().get(f"/ledger/{CASINO}/desk/").content.decode()
    assert f'href="/ledger/{CASINO}/revenue/?from={today}&amp;to={today}"' in page
    assert "Gaming days and their closes" in page
    assert f'/ledger/{CASINO}/close/?day={today}' in page
    # the charts: SVG drawn on the server, the game by its name, the loss left of zero
    assert page.count("<svg") == 3
    assert "French roulette" in page
    assert "banca_francesa" not in page
    assert re.search(r"<title>r1: -€330.00</title>", page)  # the money filter (issue 36)
    by_game = Client()
    by_game.force_login(get_user_model().objects.get(username="contabilista"))
    results = by_game.get(f"/ledger/{CASINO}/results/?from={today}&to={today}&by=game")
    assert "<td>French roulette</td>" in results.content.decode()


@pytest.mark.parametrize("file_format", ["csv", "xlsx", "pdf"])
def test_an_export_is_built_by_the_task_with_its_progress_and_read_back(
        floor: Floor, file_format: str, django_capture_on_commit_callbacks: Any) -> None:
    today = _day_with_results(floor)
    client = accountant()
    with django_capture_on_commit_callbacks(execute=True) as sent:
        asked = client.post(f"/ledger/{CASINO}/desk/", {"format": file_format, "from": today,
                                                        "to": today})
    assert len(sent) == 1
    export = ResultsExport.objects.get()
    assert asked["Location"] == f"/ledger/{CASINO}/exports/{export.export_id}/"
    assert (export.status, export.rows_done, export.rows_total) == ("done", 1, 1)
    progress = client.get(asked["Location"] + "?fragment=1").content.decode()
    assert 'value="100"' in progress
    assert "1 of 1 rows" in progress
    content = client.get(f"/ledger/{CASINO}/exports/{export.export_id}/file").content
    if file_format == "csv":
        rows = list(csv.reader(io.StringIO(content.decode())))
        assert rows[0][:3] == ["Gaming day", "Table", "Game"]
        assert rows[1][:3] == [today, "r1", "French roulette"]
        assert rows[1][5] == "30.00"  # handle: 10 + 20
        assert rows[1][7] == "-330.00"  # round results
    elif file_format == "xlsx":
        sheet = openpyxl.load_workbook(io.BytesIO(content)).active
        assert sheet is not None
        values = [c.value for c in sheet[2]]
        assert values[1:3] == ["r1", "French roulette"]
        assert values[7] == -330
    else:
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
        assert "Table results" in text
        assert "French roulette" in text
        assert "-330.00" in text
        assert "Total" in text


def test_a_large_export_writes_its_progress_as_it_goes_and_is_built_once(floor: Floor) -> None:
    from reporting import results_export
    from reporting.tasks import results_export_task

    seen: list[int] = []
    rows = [[None, f"t{n}", "Craps", 1, 1, Decimal("1.00"), Decimal("2.00"), Decimal("0.50"),
             Decimal(0), Decimal("0.50"), None, None] for n in range(450)]
    results_export.write_csv(rows, seen.append)
    assert seen == [200, 400]  # every 200 rows, for the page's progress bar

    _day_with_results(floor)
    today = Casino.objects.get(code=CASINO).gaming_day(timezone.now())
    export = results_export.results_export_request(
        casino=CASINO, file_format="csv", day_from=today, day_to=today, requested_by="carla")
    first = results_export_task.apply(args=[str(export.export_id)]).get()
    again = results_export_task.apply(args=[str(export.export_id)]).get()
    assert first == again == {"export_id": str(export.export_id), "status": "done", "rows": 1}


@pytest.mark.parametrize("language", ["pt-pt", "en"])
def test_the_trial_balance_files_name_the_accounts_in_the_persons_language(
        floor: Floor, language: str) -> None:
    today = _day_with_results(floor)
    client = accountant()
    client.cookies["django_language"] = language
    # The chart's two names of the table's float account and of the chips in circulation.
    wanted = ({"0120.r1": "Banca (fichas na mesa) — r1", "2781": "Fichas em circulação"}
              if language == "pt-pt" else
              {"0120.r1": "Table float — table r1", "2781": "Chips in circulation (players' hands)"})
    period = f"?from={today}&to={today}"
    csv_file = client.get(f"/ledger/{CASINO}/trial-balance.csv{period}")
    assert csv_file.status_code == 200
    rows = list(csv.DictReader(io.StringIO(b"".join(csv_file.streaming_content).decode())))
    names = {r["account_code"]: r["account_name"] for r in rows}
    assert {code: names.get(code) for code in wanted} == wanted
    xlsx_file = client.get(f"/ledger/{CASINO}/trial-balance.xlsx{period}")
    assert xlsx_file.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(b"".join(xlsx_file.streaming_content)),
                                   read_only=True)["Trial balance"]
    by_code = {r[0]: r[1] for r in sheet.iter_rows(min_row=2, values_only=True)}
    assert {code: by_code.get(code) for code in wanted} == wanted
