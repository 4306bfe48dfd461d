"""The ingest API (bulk, per-reading answers, the same batch twice), the CSV import command,
the floor's read and the regulator's."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from machines.models import MachineDay, MeterReading

CSV = """machine,reading_id,read_at,coin_in,coin_out,jackpots,cancelled_credits,bills_in,\
tickets_in,tickets_out,progressive_contributions,games_played,bills.20.00
M001,f1,2026-12-07T10:00:00+00:00,200.00,150.00,0.00,0.00,60.00,0.00,0.00,0.00,200,3
M001,f2,2026-12-07T11:00:00+00:00,100.00,150.00,0.00,0.00,60.00,0.00,0.00,0.00,200,3
"""


def _client(name: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username=name))
    return client


def test_the_ingest_api_answers_each_reading_and_records_nothing_twice(make_machine) -> None:
    make_machine("M001")
    now = timezone.now().isoformat()
    body = {"source": "sds", "readings": [
        {"machine": "M001", "reading_id": "r1", "read_at": now,
         "meters": {"coin_in": "10.00", "coin_out": "4.00", "jackpots": "0.00",
                    "cancelled_credits": "0.00", "bills_in": "0.00", "tickets_in": "0.00",
                    "tickets_out": "0.00", "progressive_contributions": "0.00",
                    "games_played": 10}},
        {"machine": "M404", "reading_id": "x", "read_at": "2026-12-07T10:00:00Z",
         "meters": {}}]}
    client = _client("paulo")
    first = client.post("/api/v1/machines/lisboa/readings/", body, format="json")
    assert first.status_code == 200, first.content
    assert (first.json()["recorded"], first.json()["refused"]) == (1, 1)
    assert first.json()["results"][1]["code"] == "unknown_machine"
    again = client.post("/api/v1/machines/lisboa/readings/", body, format="json")
    assert (again.json()["recorded"], again.json()["duplicates"]) == (0, 1)
    assert MeterReading.objects.count() == 1
    # a cashier may not feed meters
    assert _client("ana").post("/api/v1/machines/lisboa/readings/", body,
                               format="json").status_code == 403
    # a malformed body: 400, nothing recorded
    bad = client.post("/api/v1/machines/lisboa/readings/", {"readings": "x"}, format="json")
    assert bad.status_code == 400
    floor = client.get("/api/v1/machines/lisboa/machines/").json()
    # 10 − 4 = 6.00 today; return 4 / 10 = 40.00 %
    assert (floor[0]["win_today"], floor[0]["actual_return"]) == ("6.00", "40.00")


def test_the_csv_import_records_the_good_and_names_the_bad(make_machine, tmp_path: Path) -> None:
    make_machine("M001")
    path = tmp_path / "export.csv"
    path.write_text(CSV, encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command("import_meter_readings", "lisboa", str(path), stdout=out, stderr=err)
    assert "recorded 1, duplicates 0, refused 1" in out.getvalue()
    assert "coin_in went back from 200.00 to 100.00" in err.getvalue()
    # 200 − 150 = 50.00
    assert MachineDay.objects.get(machine="M001").win == Decimal("50.00")
    out = StringIO()
    call_command("import_meter_readings", "lisboa", str(path), stdout=out, stderr=StringIO())
    assert "recorded 0, duplicates 1, refused 1" in out.getvalue()
