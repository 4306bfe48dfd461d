"""The tips' API through DRF's client: a box dropped, counted by two counters, a period
distributed and read back; bad input refused with the one error shape, nothing recorded."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.models import Membership, Role
from eventstore.models import StoredEvent

BASE = "/api/v1/tips/lisboa"


def client_for(username: str, *roles: str) -> APIClient:
    user = User.objects.create_user(username=username, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id="lisboa", role=role)
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_box_counted_and_a_month_distributed_through_the_api(lisboa: str) -> None:
    boss = client_for("gestor", Role.ADMINISTRATOR)
    ruled = boss.post(f"{BASE}/rule/", {"period": "month", "categories": {"croupier": "10"},
                                        "source": "Portaria 1159/90", "effective_from":
                                        "2025-01-01"}, format="json")
    assert ruled.status_code == 201, ruled.content
    for staff in ("c1", "c2", "c3"):
        made = boss.post(f"{BASE}/staff/register/", {"staff_number": staff,
                                                     "category": "croupier",
                                                     "since": "2025-01-01"}, format="json")
        assert made.status_code == 201, made.content
    pit = client_for("paulo", Role.PIT_BOSS)
    dropped = pit.post(f"{BASE}/boxes/drop/", {"place": "table", "code": "bj1",
                                               "gaming_day": "2025-05-31"}, format="json")
    assert dropped.status_code == 201, dropped.content
    url = f"{BASE}/boxes/2025-05-31/table-bj1/"
    ana, rui = client_for("ana", Role.CASHIER), client_for("rui", Role.CASHIER)
    assert ana.post(url + "count/", {"cash": {"50.00": 2}}, format="json").status_code == 200
    confirmed = rui.post(url + "confirm/", {"cash": {"50.00": 2}}, format="json")
    assert confirmed.json()["status"] == "confirmed"
    accountant = client_for("contas", Role.ACCOUNTANT)
    shared = accountant.post(f"{BASE}/periods/2025-05/distribute/", {}, format="json")
    assert shared.status_code == 201, shared.content
    # 100.00: the fund 15 % = 15.00; 85.00 among three croupiers of equal points: 28.333.. each
    # -> 28.33 x 3 = 84.99, the cent to the first (c1): 28.34, 28.33, 28.33
    assert shared.json()["fund"] == "15.00"
    assert [s["amount"] for s in shared.json()["shares"]] == ["28.34", "28.33", "28.33"]
    report = client_for("ines", Role.REGULATOR)
    assert report.get(f"{BASE}/periods/2025-05/").json()["staff"] == "85.00"
    assert report.get(f"{BASE}/staff/c2/shares/").json()[0]["amount"] == "28.33"
    again = accountant.post(f"{BASE}/periods/2025-05/distribute/", {}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "distributed_already"


def test_bad_input_is_refused_naming_it_and_records_nothing(lisboa: str) -> None:
    boss = client_for("gestor", Role.ADMINISTRATOR)
    before = StoredEvent.objects.count()
    bad = boss.post(f"{BASE}/rule/", {"period": "month", "categories": {"croupier": "-1"},
                                      "source": "x", "effective_from": "2025-01-01"},
                    format="json")
    assert bad.status_code == 400
    assert bad.json()["error"]["extra"]["field"] == "categories"
    pit = client_for("paulo", Role.PIT_BOSS)
    no_rule = pit.post(f"{BASE}/boxes/drop/", {"place": "table", "code": "bj1"}, format="json")
    assert no_rule.status_code == 409
    assert no_rule.json()["error"]["code"] == "no_tip_rule"
    stranger = client_for("zeca")
    assert stranger.get(f"{BASE}/boxes/").status_code == 403
    assert StoredEvent.objects.count() == before
