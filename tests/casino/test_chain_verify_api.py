"""GET /api/v1/events/verify/ (issue 18, item 7): a user of one casino learns whether the chain
holds and the figures of their own casino's events, never the global count or head; each call
verifies only what was recorded since the last one, and a rewrite is still found."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection, transaction
from rest_framework.test import APIClient

from casino import selectors
from casino.context import system_metadata
from casino.models import Membership, Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.models import StoredEvent

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/events/verify/"


@pytest.fixture
def two_casinos() -> None:
    cache.clear()
    for code, zone in (("lisboa", "Europe/Lisbon"), ("macau", "Asia/Macau")):
        casino_register(code=code, name=code.title(), currency="EUR", time_zone=zone,
                        gaming_day_closes_at=6, metadata=system_metadata(code, job="test"))
    chip_set_register(casino="macau", code="main", name="Main", denominations=["100.00"],
                      metadata=system_metadata("macau", job="test"))


def reader(name: str, *casinos: str, superuser: bool = False) -> APIClient:
    user = User.objects.create_user(name, password="x", is_superuser=superuser)
    for code in casinos:
        Membership.objects.create(user=user, casino_id=code, role=Role.REGULATOR)
    api = APIClient()
    api.force_authenticate(user)
    return api


def _chain(code: str) -> dict[str, object]:
    """A casino's chain as the API reports it, worked out from the stored events."""
    own = list(StoredEvent.objects.filter(casino_id=code).order_by("position"))
    return {"casino": code, "ok": True, "checked": len(own), "last_hash": own[-1].hash,
            "bad_position": None, "reason": ""}


@pytest.mark.usefixtures("two_casinos")
def test_a_regulator_of_one_casino_sees_only_that_casinos_figures() -> None:
    lisboa, macau = _chain("lisboa"), _chain("macau")
    whole = reader("igj", "lisboa", "macau").get(URL).json()
    assert whole == {"ok": True, "checked": StoredEvent.objects.count(), "last_hash": "",
                     "bad_position": None, "reason": "", "casinos": [lisboa, macau]}
    own = reader("igj-lisboa", "lisboa").get(URL).json()
    assert own == {"ok": True, "checked": lisboa["checked"], "last_hash": lisboa["last_hash"],
                   "bad_position": None, "reason": "", "casinos": [lisboa]}
    assert reader("nobody").get(URL).status_code == 403


@pytest.mark.usefixtures("two_casinos")
def test_each_call_verifies_only_the_events_since_the_last() -> None:
    api = reader("igj-lisboa", "lisboa")
    first = api.get(URL).json()
    chip_set_register(casino="lisboa", code="plaques", name="Plaques",
                      denominations=["1000.00"], metadata=system_metadata("lisboa", job="test"))
    with mock.patch("casino.selectors.verify_casino_chain",
                    wraps=selectors.verify_casino_chain) as verify:
        second = api.get(URL).json()
    assert verify.call_args.args == ("lisboa",)
    assert verify.call_args.kwargs == {"first": first["checked"] + 1,
                                       "anchor": first["last_hash"]}
    assert second["checked"] == StoredEvent.objects.filter(casino_id="lisboa").count() \
        == first["checked"] + 1
    assert second["ok"] is True


@pytest.mark.usefixtures("two_casinos")
def test_a_rewrite_is_found_by_the_next_full_check_and_only_in_its_casino() -> None:
    api = reader("igj", superuser=True)
    assert api.get(URL).json()["ok"] is True
    victim = StoredEvent.objects.filter(casino_id="macau").order_by("position").first()
    assert victim is not None
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE event DISABLE TRIGGER event_refuse_update_delete")
        cursor.execute("UPDATE event SET data = %s::jsonb WHERE position = %s",
                       [json.dumps({"altered": True}), victim.position])
        cursor.execute("ALTER TABLE event ENABLE TRIGGER event_refuse_update_delete")
    known = cache.get(f"{selectors.VERIFIED_KEY}.macau")
    later = known["full_at"] + selectors.FULL_CHECK_EVERY
    report = selectors.casino_chain_report("macau", now=later)
    assert (report.ok, report.bad_position) == (False, victim.position)
    whole = api.get(URL).json()
    assert (whole["ok"], whole["bad_position"]) == (False, victim.position)
    assert whole["reason"].startswith("casino macau: ")
    # Lisbon's chain holds on its own: one chain per casino (docs/event-hash.md)
    lisboa = reader("igj-lisboa", "lisboa").get(URL).json()
    assert lisboa["casinos"] == [_chain("lisboa")]
    assert lisboa["ok"] is True
