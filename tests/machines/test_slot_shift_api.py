"""The slot cashier's shift through the API, as through its screen: opened on a blind count,
counted blind, its difference explained with a cage supervisor's approval, closed; a window's
shifts with their figures (blind while open). The roles are the screen's; bad input is a 400
naming the field, with nothing recorded. Figures worked by hand in the comments."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from eventstore.models import StoredEvent
from machines.models import SlotShift

SHIFTS = "/api/v1/machines/lisboa/shifts/"
WINDOW = "/api/v1/machines/lisboa/windows/SLOT1/shifts/"


def _client(name: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username=name))
    return client


def test_a_slot_cashiers_shift_through_the_api(casino: str) -> None:
    ana, paulo = _client("ana"), _client("paulo")
    events = StoredEvent.objects.count()
    # bad input: a 400 naming the field, nothing recorded
    missing = ana.post(SHIFTS, {"notes": {"50.00": 4}}, format="json")
    assert missing.status_code == 400
    assert "window" in missing.json()["error"]["extra"]["fields"]
    malformed = ana.post(SHIFTS, {"window": "SLOT1", "notes": "x"}, format="json")
    assert malformed.status_code == 400
    assert "notes" in malformed.json()["error"]["extra"]["fields"]
    negative = ana.post(SHIFTS, {"window": "SLOT1", "notes": {"50.00": -1}}, format="json")
    assert negative.status_code == 400
    foreign = ana.post(SHIFTS, {"window": "SLOT1", "notes": {"30.00": 1}}, format="json")
    assert foreign.status_code == 400  # no 30.00 note in euros
    assert foreign.json()["error"]["extra"]["field"] == "notes"
    # not the screen's roles: a pit boss reads the floor but does not open a cashier's shift
    assert paulo.post(SHIFTS, {"window": "SLOT1", "notes": {"50.00": 4}},
                      format="json").status_code == 403
    assert APIClient().post(SHIFTS, {"window": "SLOT1", "notes": {"50.00": 4}},
                            format="json").status_code == 401
    assert StoredEvent.objects.count() == events
    assert not SlotShift.objects.exists()

    # the window's first shift: 4 × 50.00 = 200.00 brought in
    opened = ana.post(SHIFTS, {"window": "SLOT1", "notes": {"50.00": 4}}, format="json")
    assert opened.status_code == 201, opened.content
    body = opened.json()
    shift = body["shift_id"]
    assert (body["status"], body["opening"], body["book"], body["opening_variance"]) == (
        "open", "200.00", "0.00", "200.00")
    again = _client("rui").post(SHIFTS, {"window": "SLOT1", "notes": {"50.00": 1}},
                                format="json")
    assert again.status_code == 409  # one shift not closed a window
    assert again.json()["error"]["extra"]["field"] == "window"

    # the window's list, read by a pit boss: blind while open (the opening count only)
    listed = paulo.get(WINDOW)
    assert listed.status_code == 200
    (row,) = listed.json()
    assert (row["shift_id"], row["status"], row["opening"], row["opened_by"]) == (
        shift, "open", "200.00", "ana")
    assert (row["book"], row["expected"], row["counted"], row["boxes_in"]) == ("", "", "", "")
    assert paulo.get("/api/v1/machines/lisboa/windows/SLOT9/shifts/").json() == []
    assert paulo.get(WINDOW + "?status=lost").status_code == 400

    # counted blind 3 × 50.00 + 2 × 20.00 = 190.00 against 200.00 expected: 10.00 short
    assert ana.post(f"{SHIFTS}{shift}/count/", {}, format="json").status_code == 400
    assert paulo.post(f"{SHIFTS}{shift}/count/", {"notes": {"50.00": 4}},
                      format="json").status_code == 403
    unknown = ana.post(f"{SHIFTS}nope/count/", {"notes": {"50.00": 4}}, format="json")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["extra"]["field"] == "shift_id"
    counted = ana.post(f"{SHIFTS}{shift}/count/", {"notes": {"50.00": 3, "20.00": 2}},
                       format="json")
    assert counted.status_code == 200, counted.content
    assert (counted.json()["counted"], counted.json()["expected"],
            counted.json()["variance"]) == ("190.00", "200.00", "-10.00")

    # not closed before its difference is explained and approved
    refused = ana.post(f"{SHIFTS}{shift}/close/", {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "variance_not_approved"
    no_words = ana.post(f"{SHIFTS}{shift}/explanation/", {"approved_by": "sofia"},
                        format="json")
    assert no_words.status_code == 400
    assert "explanation" in no_words.json()["error"]["extra"]["fields"]
    for who in ("ana", "rui"):  # the counter herself, a cashier: not a cage supervisor's approval
        assert ana.post(f"{SHIFTS}{shift}/explanation/",
                        {"explanation": "a 10.00 note paid twice", "approved_by": who},
                        format="json").status_code == 403
    explained = ana.post(f"{SHIFTS}{shift}/explanation/",
                         {"explanation": "a 10.00 note paid twice", "approved_by": "sofia"},
                         format="json")
    assert explained.status_code == 200, explained.content
    closed = ana.post(f"{SHIFTS}{shift}/close/", {}, format="json")
    assert closed.status_code == 200, closed.content
    assert closed.json()["status"] == "closed"

    # the list with every figure once counted
    (row,) = _client("sofia").get(WINDOW + "?status=closed").json()
    assert (row["opening"], row["book"], row["opening_variance"], row["first"]) == (
        "200.00", "0.00", "200.00", True)
    assert (row["boxes_in"], row["tickets_paid"], row["hand_pays_paid"]) == (
        "0.00", "0.00", "0.00")
    assert (row["counted"], row["expected"], row["variance"], row["count_number"]) == (
        "190.00", "200.00", "-10.00", 1)
    assert (row["counted_by"], row["approved_by"], row["closed_by"], row["explanation"]) == (
        "ana", "sofia", "ana", "a 10.00 note paid twice")
    assert row["closed_at"]
    assert _client("sofia").get(WINDOW + "?status=open").json() == []
