"""Issue 34: the compliance officer's screen of the linking period (``/compliance/<casino>/
linking-period/``): the period in force today and where it comes from, each version with its
author and date, a form for a new one; refused input shown, nothing recorded; the cage never
sees it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.models import Casino, Membership, Role
from eventstore import clock
from eventstore.models import StoredEvent

from .conftest import _cage

URL = "/compliance/lisboa/linking-period/"


@pytest.fixture
def officer(db: None) -> Client:
    _cage("lisboa", "EUR", "Europe/Lisbon", None, {"100.00": 10}, {"100.00": 5},
          ["100.00", "25.00"])
    user = User.objects.create_user(username="olga", password="x")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.COMPLIANCE_OFFICER)
    client = Client()
    client.force_login(user)
    return client


def test_the_officer_reads_and_sets_the_linking_period(officer: Client) -> None:
    today = Casino.objects.get(code="lisboa").gaming_day(clock.now())
    page = officer.get(URL).content.decode()
    assert '<strong id="in-force-days">1 gaming day</strong>' in page
    assert "No period was set: the gaming day alone" in page
    # linked from the compliance navigation
    assert URL in officer.get("/compliance/lisboa/alerts/").content.decode()
    # a period of 0 days: refused, said on the page, nothing recorded
    refused = officer.post(URL, {"idempotency_key": "k1", "days": "0",
                                 "from_day": today.isoformat(), "reason": "policy"},
                           follow=True).content.decode()
    assert "the linking period is a whole number of gaming days from 1 to 366" in refused
    assert not StoredEvent.objects.filter(event_type="LinkingPeriodSet").exists()
    done = officer.post(URL, {"idempotency_key": "k2", "days": "3",
                              "from_day": today.isoformat(), "reason": "policy of 2026"},
                        follow=True).content.decode()
    assert "linking period set" in done
    assert '<strong id="in-force-days">3 gaming days</strong>' in done
    assert f"Set by olga on {today:%Y}" in done
    history = done[done.index('id="versions"'):]
    assert f"<td>{today.isoformat()}</td><td class=\"num\">3</td><td>olga</td>" in history
    assert "policy of 2026" in history


def test_the_cage_does_not_see_the_linking_period(officer: Client) -> None:
    user = User.objects.create_user(username="ana", password="x")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.CASHIER)
    cashier = Client()
    cashier.force_login(user)
    assert cashier.get(URL).status_code == 403
    assert cashier.post(URL, {"days": "3", "from_day": "2026-12-07",
                              "reason": "x"}).status_code == 403
    assert not StoredEvent.objects.filter(event_type="LinkingPeriodSet").exists()
