"""The IEJ's approved capital per table (issue 34, part 3): its API operation and its screen
for the administrator and the accountant, with the inspection's reference."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from casino.models import Membership, Role
from eventstore.models import StoredEvent
from games.models import TableCapital

from .conftest import CASINO, TableMaker

pytestmark = pytest.mark.django_db


def _user(name: str, role: str) -> User:
    user = User.objects.create_user(username=name, password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return user


def _api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_accountant_records_an_approved_capital_through_the_api(
        make_table: TableMaker) -> None:
    make_table("french_roulette", "r1")
    url = f"/api/v1/pit/tables/{CASINO}/r1/capital/"
    accountant = _api(_user("lia", Role.ACCOUNTANT))
    made = accountant.post(url, {"capital": "75340.00", "reference": "IGJ letter 12/2026"},
                           format="json")
    assert made.status_code == 201, made.json()
    [row] = TableCapital.objects.all()
    assert (row.table, row.capital, row.reference) == ("r1", Decimal("75340.00"),
                                                      "IGJ letter 12/2026")
    # refused, nothing recorded: no reference, a capital of nothing, the pit boss
    for body in ({"capital": "100.00", "reference": " "},
                 {"capital": "0.00", "reference": "IGJ letter 13/2026"},
                 {"capital": "lots", "reference": "IGJ letter 13/2026"}):
        refused = accountant.post(url, body, format="json")
        assert refused.status_code == 400, (body, refused.json())
    pit_boss = _api(_user("ana", Role.PIT_BOSS))
    assert pit_boss.post(url, {"capital": "100.00", "reference": "x"},
                         format="json").status_code == 403
    assert StoredEvent.objects.filter(event_type="TableCapitalApproved").count() == 1
    # the capitals and the tables' tax classes rebuild from the events as they are live
    from games.services import table_change_tax_class

    from .conftest import pit, rebuild_differences
    table_change_tax_class(casino=CASINO, code="r1", bank="dupla", vip=True, reason="VIP room",
                           metadata=pit("admin"))
    assert rebuild_differences() == []


def test_the_administrators_screen_shows_and_records_the_approved_capital(
        make_table: TableMaker) -> None:
    make_table("french_roulette", "r1")
    web = Client()
    web.force_login(_user("adm", Role.ADMINISTRATOR))
    url = f"/pit/{CASINO}/capitals/"
    page = web.get(url).content.decode()
    assert f'href="{url}"' in page  # the pit's navigation leads to it
    assert "none recorded" in page
    assert 'name="reference"' in page
    refused = web.post(url, {"table": "r1", "capital": "2600.00", "reference": "",
                             "idempotency_key": "k1"})
    assert refused.status_code == 400
    assert "cite the inspection" in refused.content.decode()
    assert 'value="2600.00"' in refused.content.decode()  # the form as typed
    done = web.post(url, {"table": "r1", "capital": "2600.00",
                          "reference": "IGJ approval 7/2026", "idempotency_key": "k2"},
                    follow=True)
    html = done.content.decode()
    assert "Approved capital recorded." in html
    assert "IGJ approval 7/2026" in html
    # the pit boss reads it, and may not record
    reader = Client()
    reader.force_login(_user("ana", Role.PIT_BOSS))
    seen = reader.get(url).content.decode()
    assert "IGJ approval 7/2026" in seen
    assert 'name="reference"' not in seen
    assert reader.post(url, {"table": "r1", "capital": "1.00", "reference": "x",
                             "idempotency_key": "k3"}).status_code == 403
