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
from casino.eventstore.models import StoredEvent
from casino.models import Membership, Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/api/v1/events/verify/"


@pytest.fixture
def two_casinos() -> None:
    cache.delete(selectors.VERIFIED_KEY)
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


@pytest.mark.usefixtures("two_casinos")
def test_a_regulator_of_one_casino_sees_only_that_casinos_figures() -> None:
    everything = StoredEvent.objects.count()
    lisboa = list(StoredEvent.objects.filter(casino_id="lisboa").order_by("position"))
    assert 0 < len(lisboa) < everything
    whole = reader("igj", "lisboa", "macau").get(URL).json()
    assert whole == {"ok": True, "checked": everything, "bad_position": None, "reason": "",
                     "last_hash": StoredEvent.objects.order_by("-position").first().hash}
    own = reader("igj-lisboa", "lisboa").get(URL).json()
    assert own == {"ok": True, "checked": len(lisboa), "last_hash": lisboa[-1].hash,
                   "bad_position": None, "reason": ""}
    assert reader("nobody").get(URL).status_code == 403


@pytest.mark.usefixtures("two_casinos")
def test_each_call_verifies_only_the_events_since_the_last() -> None:
    api = reader("igj", superuser=True)
    first = api.get(URL).json()
    chip_set_register(casino="lisboa", code="plaques", name="Plaques",
                      denominations=["1000.00"], metadata=system_metadata("lisboa", job="test"))
    with mock.patch("casino.selectors.verify_chain", wraps=selectors.verify_chain) as verify:
        second = api.get(URL).json()
    assert verify.call_args.kwargs == {"after": first["checked"],
                                       "prev_hash": first["last_hash"]}
    assert second["checked"] == StoredEvent.objects.count() > first["checked"]
    assert second["ok"] is True


@pytest.mark.usefixtures("two_casinos")
def test_a_rewrite_is_found_by_the_next_full_check_and_named_only_to_its_casino() -> None:
    api = reader("igj", superuser=True)
    assert api.get(URL).json()["ok"] is True
    victim = StoredEvent.objects.filter(casino_id="macau").order_by("position").first()
    assert victim is not None
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE event DISABLE TRIGGER event_refuse_update_delete")
        cursor.execute("UPDATE event SET data = %s::jsonb WHERE position = %s",
                       [json.dumps({"altered": True}), victim.position])
        cursor.execute("ALTER TABLE event ENABLE TRIGGER event_refuse_update_delete")
    known = cache.get(selectors.VERIFIED_KEY)
    later = known["full_at"] + selectors.FULL_CHECK_EVERY
    report = selectors.chain_report(now=later)
    assert (report.ok, report.bad_position) == (False, victim.position)
    assert api.get(URL).json()["bad_position"] == victim.position
    lisboa = reader("igj-lisboa", "lisboa").get(URL).json()
    assert lisboa["ok"] is False
    assert lisboa["bad_position"] is None
    assert lisboa["reason"] == "the chain is broken at an event of another casino"
    assert lisboa["checked"] == StoredEvent.objects.filter(
        casino_id="lisboa", position__lt=victim.position).count()
