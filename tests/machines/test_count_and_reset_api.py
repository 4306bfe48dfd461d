"""The count room's API (a box counted by one, confirmed by another, its variance explained and
approved by a second person) and the meter reset's (a RAM clear with its witness)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from machines.models import MachineBox, MachineDay
from machines.services.readings import meter_readings_record

from .conftest import floor, meters

BOXES = "/api/v1/machines/lisboa/boxes/"


def _client(name: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username=name))
    return client


def test_a_box_counted_confirmed_and_explained_through_the_api(make_machine) -> None:
    make_machine("M001")
    now = timezone.now()
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "a", "read_at": now.isoformat(),
         "meters": meters(coin_in="100.00", coin_out="80.00", bills_in="100.00",
                          games_played=100, bills={"50.00": 2})}], source="sds",
        metadata=floor())
    ana, rui = _client("ana"), _client("rui")
    # a malformed count: 400, nothing recorded
    bad = ana.post(BOXES, {"machine": "M001", "drop_id": "D1", "notes": "x", "window": "SLOT1"},
                   format="json")
    assert bad.status_code == 400
    assert not MachineBox.objects.exists()
    # 1 × 50.00 + 2 × 20.00 = 90.00 counted against 100.00 metered: −10.00
    counted = ana.post(BOXES, {"machine": "M001", "drop_id": "D1",
                               "notes": {"50.00": 1, "20.00": 2}, "window": "SLOT1"},
                       format="json")
    assert counted.status_code == 201, counted.content
    assert (counted.json()["counted"], counted.json()["metered"],
            counted.json()["variance"]) == ("90.00", "100.00", "-10.00")
    # the first counter may not confirm her own count; a pit boss may not count
    assert ana.post(f"{BOXES}D1/confirmation/", {}, format="json").status_code in (400, 403, 409)
    assert _client("paulo").post(f"{BOXES}D1/confirmation/", {},
                                 format="json").status_code == 403
    confirmed = rui.post(f"{BOXES}D1/confirmation/", {}, format="json")
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["status"] == "confirmed"
    explained = ana.post(f"{BOXES}D1/explanation/",
                         {"explanation": "a 50 note jammed in the validator",
                          "approved_by": "sofia"}, format="json")
    assert explained.status_code == 200, explained.content
    box = MachineBox.objects.get(drop_id="D1")
    assert (box.approved_by, box.explanation) == ("sofia", "a 50 note jammed in the validator")


def test_a_ram_clear_through_the_api_needs_its_witness(make_machine) -> None:
    make_machine("M001")
    now = timezone.now()
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "a", "read_at": now.isoformat(),
         "meters": meters(coin_in="100.00", coin_out="80.00", games_played=100)}],
        source="sds", metadata=floor())
    body = {"kind": "ram_clear", "reading_id": "clear-1",
            "read_at": (now + dt.timedelta(seconds=1)).isoformat(),
            "before": meters(coin_in="150.00", coin_out="110.00", games_played=150),
            "after": meters(), "reason": "board replaced"}
    paulo = _client("paulo")
    # no witness: 400, nothing recorded
    assert paulo.post("/api/v1/machines/lisboa/machines/M001/resets/", body,
                      format="json").status_code == 400
    done = paulo.post("/api/v1/machines/lisboa/machines/M001/resets/",
                      {**body, "witnessed_by": "sofia"}, format="json")
    assert done.status_code == 201, done.content
    # the play before the clear: (150 − 100) − (110 − 80) = 50 − 30 = 20.00
    assert done.json()["win"] == "20.00"
    # the day: 100 − 80 = 20.00, then 20.00 more: 40.00
    assert MachineDay.objects.get(machine="M001").win == Decimal("40.00")


def test_the_slot_cashiers_count_through_the_api(make_machine) -> None:
    ana = _client("ana")
    body = {"count_id": "C1", "window": "SLOT1", "notes": {"20.00": 1, "5.00": 1}}
    # no witness: 400
    assert ana.post("/api/v1/machines/lisboa/cash-counts/", body,
                    format="json").status_code == 400
    done = ana.post("/api/v1/machines/lisboa/cash-counts/", {**body, "witnessed_by": "sofia"},
                    format="json")
    assert done.status_code == 201, done.content
    assert done.json()["counted"] == "25.00"  # 20.00 + 5.00
