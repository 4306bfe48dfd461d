"""The ledger's API and pages: the accountant reads and exports, and does nothing else."""

from __future__ import annotations

import csv
import io
from decimal import Decimal as D
from pathlib import Path

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.http import StreamingHttpResponse
from django.test import Client
from rest_framework.test import APIClient

from casino import gaming_day as gaming_days
from casino.models import Membership, Role
from ledger.models import JournalEntry, JournalLine

from .conftest import CASINO, Floor

API = f"/api/v1/ledger/{CASINO}"


def person(name: str, role: str) -> object:
    user = get_user_model().objects.create_user(username=name, password="pw")
    Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return user


@pytest.fixture
def played(floor: Floor) -> Floor:
    floor.open_table("r1")
    floor.sell({"100.00": 2}, {"100.00": 2})
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    floor.buy_in("r1", "40.00")
    return floor


@pytest.fixture
def accountant(played: Floor) -> APIClient:
    client = APIClient()
    client.force_authenticate(person("alice", Role.ACCOUNTANT))
    return client


def period() -> str:
    day = JournalEntry.objects.latest("number").day
    return f"from={day}&to={day}"


def body(response: StreamingHttpResponse) -> bytes:
    return b"".join(response.streaming_content)  # type: ignore[arg-type]


def test_the_accountant_reads_the_trial_balance_the_journal_and_the_chart(
        accountant: APIClient) -> None:
    tb = accountant.get(f"{API}/trial-balance/?{period()}")
    assert tb.status_code == 200, tb.json()
    assert tb.json()["balanced"] is True
    assert tb.json()["debit"] == tb.json()["credit"]
    journal = accountant.get(f"{API}/journal/?{period()}&limit=2")
    assert journal.status_code == 200
    assert journal.json()["count"] == JournalEntry.objects.count()
    first = journal.json()["results"][0]
    assert sum(D(line["debit"]) for line in first["lines"]) == sum(
        D(line["credit"]) for line in first["lines"])
    one = accountant.get(f"{API}/journal/{first['number']}/")
    assert one.json()["number"] == first["number"]
    assert one.json()["corrected_by"] == []
    chart = accountant.get(f"{API}/accounts/").json()
    assert {"code": "2781", "snc": "278 Outros devedores e credores"}.items() <= next(
        a for a in chart if a["code"] == "2781").items()
    assert accountant.get(f"{API}/periods/").json() == []


def test_the_accountant_downloads_streamed_exports(accountant: APIClient, tmp_path: Path
                                                   ) -> None:
    response = accountant.get(f"{API}/journal.csv?{period()}")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(body(response).decode())))
    assert len(rows) == JournalLine.objects.count()
    xlsx = accountant.get(f"{API}/journal.xlsx?{period()}")
    assert xlsx.streaming
    path = tmp_path / "j.xlsx"
    path.write_bytes(body(xlsx))
    sheet = openpyxl.load_workbook(path, read_only=True)["Journal"]
    assert sum(1 for _ in sheet.iter_rows()) == len(rows) + 1
    tb = accountant.get(f"{API}/trial-balance.csv?{period()}")
    assert tb.streaming
    assert b"account_code" in body(tb)
    assert accountant.get(f"{API}/trial-balance.xlsx?{period()}").streaming


def test_the_accountant_reads_results_and_revenue(accountant: APIClient) -> None:
    results = accountant.get(f"{API}/results/?{period()}&by=table").json()
    assert results[0]["table"] == "r1"
    assert D(results[0]["revenue"]) == D("50.00")
    assert accountant.get(f"{API}/results/?{period()}&by=week").status_code == 400
    revenue = accountant.get(f"{API}/gross-gaming-revenue/?{period()}").json()
    assert revenue["jurisdiction"] == "PT"
    # no closed day yet, so no IEJ; the contrapartida's minimum of 1,000,000.00 a year accrues a
    # twelfth a month all the same (docs/gaming-tax.md)
    assert (revenue["months"][0]["days_closed"], revenue["months"][0]["tax_total"]) == (
        0, "83333.33")


def test_the_accountant_changes_nothing(accountant: APIClient) -> None:
    for url in (f"{API}/trial-balance/?{period()}", f"{API}/journal/?{period()}",
                f"{API}/accounts/", f"{API}/journal.csv?{period()}"):
        for method in (accountant.post, accountant.put, accountant.patch, accountant.delete):
            assert method(url, {}).status_code == 405


def test_other_roles_and_strangers_are_refused(played: Floor) -> None:
    cashier = APIClient()
    cashier.force_authenticate(person("ana2", Role.CASHIER))
    refused = cashier.get(f"{API}/trial-balance/?{period()}")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "not_allowed"
    assert cashier.get(f"{API}/journal.csv?{period()}").status_code == 403
    assert APIClient().get(f"{API}/accounts/").status_code in (401, 403)
    regulator = APIClient()
    regulator.force_authenticate(person("igj", Role.REGULATOR))
    assert regulator.get(f"{API}/accounts/").status_code == 200
    assert regulator.get("/api/v1/ledger/nowhere/accounts/").status_code == 404


def test_a_bad_period_is_refused_in_the_one_error_shape(accountant: APIClient) -> None:
    bad = accountant.get(f"{API}/trial-balance/?from=2025-05-03&to=2025-05-01")
    assert bad.status_code == 400
    assert "after it ends" in bad.json()["error"]["message"]
    assert accountant.get(f"{API}/journal/?from=yesterday&to=today").status_code == 400


def test_the_accountant_pages(played: Floor) -> None:
    client = Client()
    client.force_login(person("alice", Role.ACCOUNTANT))
    day = JournalEntry.objects.latest("number").day
    query = f"?from={day}&to={day}"
    assert CASINO in client.get("/ledger/").content.decode()
    overview = client.get(f"/ledger/{CASINO}/{query}").content.decode()
    assert "journal.csv" in overview
    assert "trial-balance.xlsx" in overview
    tb = client.get(f"/ledger/{CASINO}/trial-balance/{query}").content.decode()
    assert "Chips in circulation" in tb
    assert "Balanced" in tb
    journal = client.get(f"/ledger/{CASINO}/journal/{query}").content.decode()
    assert "Chips sold at w1" in journal
    number = JournalEntry.objects.latest("number").number
    assert "Drop box" in client.get(f"/ledger/{CASINO}/journal/{number}/").content.decode()
    results = client.get(f"/ledger/{CASINO}/results/{query}&by=game").content.decode()
    assert "French roulette" in results  # the game by its name, not its code
    revenue = client.get(f"/ledger/{CASINO}/revenue/{query}").content.decode()
    assert "closed day" in revenue  # each month links to its return
    month = day.strftime("%Y-%m")
    the_return = client.get(f"/ledger/{CASINO}/gaming-tax/?month={month}").content.decode()
    assert "Decreto-Lei n.º 422/89" in the_return
    assert "IEJ, banked games: capital em giro inicial" in the_return  # by its name
    csv_file = client.get(f"/ledger/{CASINO}/gaming-tax.csv?month={month}")
    assert csv_file.content.decode().startswith("return,casino,")
    pdf = client.get(f"/ledger/{CASINO}/gaming-tax.pdf?month={month}")
    assert pdf.content.startswith(b"%PDF")
    download = client.get(f"/ledger/{CASINO}/journal.csv{query}")
    assert download.streaming
    assert b"entry_number" in body(download)
    assert client.post(f"/ledger/{CASINO}/journal.csv{query}").status_code == 405
    # a period typed wrong is said beside the form, the dates kept as typed (never a 404 page)
    reversed_ = client.get(f"/ledger/{CASINO}/trial-balance/?from=2026-03-02&to=2026-03-01")
    assert reversed_.status_code == 200
    page = reversed_.content.decode()
    assert "the first not after the last" in page
    assert 'value="2026-03-02"' in page
    assert 'aria-invalid="true"' in page


def test_the_pages_are_for_ledger_readers_only(played: Floor) -> None:
    client = Client()
    client.force_login(person("ana2", Role.CASHIER))
    assert client.get(f"/ledger/{CASINO}/").status_code == 403
    assert client.get(f"/ledger/{CASINO}/journal.csv").status_code == 403
    assert Client().get(f"/ledger/{CASINO}/").status_code == 302  # to the login page


def test_the_current_gaming_day_is_the_default_period(played: Floor) -> None:
    client = Client()
    client.force_login(person("alice", Role.ACCOUNTANT))
    from django.utils import timezone

    today = gaming_days.day_of(timezone.now(), "Europe/Lisbon", 6)
    assert f'value="{today}"' in client.get(f"/ledger/{CASINO}/").content.decode()
