"""The Django admin sets a pool up through the services (an event is recorded) and refuses a start
value below 10,000 times the bet with the regulation's words."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from eventstore.models import StoredEvent
from jackpots.models import JackpotPool

from .conftest import CASINO, STUD

pytestmark = pytest.mark.django_db


def form(table: str, start: str) -> dict[str, str]:
    return {"casino": CASINO, "pool_id": "stud-admin", "name": "Stud progressive",
            "game": "stud_poker", "tables": json.dumps([table]), "bet": "1.00",
            "increment_percent": "70", "start": start, "paytable": json.dumps(STUD["paytable"]),
            "reserve_percent": "0", "cap": "", "approved_on": "2024-03-01",
            "approval_reference": "IGJ 123/2024", "reason": ""}


def test_the_administrator_sets_up_a_pool_in_the_admin(make_table) -> None:
    table = make_table("stud_poker", "sp-admin")
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.com", "x"))
    assert client.get("/admin/jackpots/jackpotpool/add/").status_code == 200
    client.post("/admin/jackpots/jackpotpool/add/", form(table, "9999.99"))
    assert not JackpotPool.objects.exists()
    client.post("/admin/jackpots/jackpotpool/add/", form(table, "10000.00"))
    pool = JackpotPool.objects.get(pool_id="stud-admin")
    assert pool.amount == pool.start
    assert StoredEvent.objects.filter(stream=pool.stream).count() == 2
    assert client.get(f"/admin/jackpots/jackpotpool/{pool.pk}/change/").status_code == 200
