"""Issue 35, finding 11, at the pit: an idempotency key is its user's (another person's command
with the same key is recorded, not answered with the first one's answer); the history of the
pit's things is for the pit's readers, not a cashier's nor a compliance officer's."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from casino.models import Membership, Role
from eventstore.models import StoredEvent

from ..conftest import CASINO
from . import test_pit_api
from .test_pit_api import API, client_for

fiscal = test_pit_api.fiscal  # a pit boss and an open roulette session
session = test_pit_api.session

pytestmark = pytest.mark.django_db


def test_one_key_sent_by_two_people_records_two_commands(fiscal: APIClient,
                                                         session: str) -> None:
    chefe = client_for("chefe", Role.PIT_BOSS)
    url = f"{API}/sessions/{session}/drops/"
    first = fiscal.post(url, {"amount": "100.00"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = fiscal.post(url, {"amount": "100.00"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    other = chefe.post(url, {"amount": "100.00"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")

    assert (first.status_code, again.status_code, other.status_code) == (201, 201, 201)
    # the retry answers as the first time; the other person's drop is their own: 2 drops
    drops = StoredEvent.objects.filter(event_type="DropRecorded")
    assert [e.metadata["actor"] for e in drops.order_by("position")] == ["fiscal", "chefe"]


@pytest.mark.parametrize(("role", "status"), [(Role.CASHIER, 403),
                                              (Role.COMPLIANCE_OFFICER, 403),
                                              (Role.PIT_BOSS, 200), (Role.ACCOUNTANT, 200)])
def test_the_history_of_a_table_session_is_the_pit_readers(fiscal: APIClient, session: str,
                                                           role: str, status: int) -> None:
    user = get_user_model().objects.create_user(f"who-{role}")
    Membership.objects.create(user=user, casino_id=CASINO, role=role)
    browser = Client()
    browser.force_login(user)
    answer = browser.get(f"/history/{CASINO}/table_session/{session}/")
    assert answer.status_code == status
