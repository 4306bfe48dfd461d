"""Table configuration in the Django admin: each save is an event; broken ratios are refused."""

from __future__ import annotations

import json
from decimal import Decimal
from decimal import Decimal as D

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from eventstore.models import StoredEvent
from games.limits import default_limits
from games.models import DropDefinition, Table

from .conftest import CASINO

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(casino: str) -> Client:
    user = get_user_model().objects.create_superuser("gestor", password="x")
    client = Client()
    client.force_login(user)
    return client


def form(limits: dict, **extra: object) -> dict[str, object]:
    return {"casino": CASINO, "code": "bj1", "name": "Blackjack 1", "game": "blackjack",
            "options": "{}", "seats": "7", "chip_set": "main", "limits": json.dumps(limits),
            "max_prize_per_coup": "", "reason": "", **extra}


def test_a_table_and_its_limits_configured_in_the_admin_are_events(admin_client: Client) -> None:
    response = admin_client.post("/admin/games/table/add/", form(default_limits("blackjack",
                                                                                D("10"))))
    assert response.status_code == 302, response.content.decode()[:500]
    table = Table.objects.get(code="bj1")
    configured = StoredEvent.objects.get(stream=f"table/{CASINO}.bj1")
    assert configured.event_type == "TableConfigured"
    assert configured.metadata["actor"] == "gestor"
    limits = default_limits("blackjack", D("25"))
    response = admin_client.post(f"/admin/games/table/{table.pk}/change/",
                                 form(limits, reason="weekend limits"))
    assert response.status_code == 302
    changed = StoredEvent.objects.filter(stream=f"table/{CASINO}.bj1").order_by("version").last()
    assert changed.event_type == "TableLimitsChanged"
    assert changed.data["reason"] == "weekend limits"
    assert Table.objects.get(code="bj1").limits["main"] == {"min": "25.00", "max": "750.00"}


def test_a_tables_tax_class_set_in_the_admin_is_an_event(admin_client: Client) -> None:
    response = admin_client.post("/admin/games/table/add/", form(
        default_limits("blackjack", D("10")), bank="dupla", vip="on"))
    assert response.status_code == 302, response.content.decode()[:500]
    table = Table.objects.get(code="bj1")
    assert (table.bank, table.vip) == ("dupla", True)
    last = StoredEvent.objects.filter(stream=f"table/{CASINO}.bj1").order_by("version").last()
    assert last.event_type == "TableTaxClassChanged"
    assert last.data == {"bank": "dupla", "vip": True, "reason": ""}


def test_the_admin_refuses_limits_over_the_ratio_naming_the_article(admin_client: Client
                                                                    ) -> None:
    limits = default_limits("blackjack", D("10"))
    limits["main"]["max"] = "500.00"
    before = StoredEvent.objects.count()
    response = admin_client.post("/admin/games/table/add/", form(limits))
    assert response.status_code == 200
    assert "n.º 37" in response.content.decode()
    assert StoredEvent.objects.count() == before


def test_the_drop_definition_is_versioned(admin_client: Client) -> None:
    for basis in ("counted", "recorded"):
        response = admin_client.post("/admin/games/dropdefinition/add/",
                                     {"casino": CASINO, "basis": basis, "reason": "policy"})
        assert response.status_code == 302
    assert list(DropDefinition.objects.values_list("version", "basis")) == [
        (1, "counted"), (2, "recorded")]


def test_a_table_jackpot_typed_in_the_admin_is_refused(admin_client: Client) -> None:
    jackpot = {"bet": "1.00", "increment_percent": "80", "start": "10000.00",
               "paytable": [{"combination": "two_aces", "pays": "jackpot"}]}
    before = StoredEvent.objects.count()
    response = admin_client.post("/admin/games/table/add/", form(
        default_limits("blackjack", D("10")), options=json.dumps({"jackpot": jackpot})))
    assert response.status_code == 200
    assert "derived from the pool the table feeds" in response.content.decode()
    assert StoredEvent.objects.count() == before


def test_the_admin_shows_the_jackpot_derived_from_the_pool(admin_client: Client) -> None:
    from casino.context import person_metadata
    from casino.models import Role
    from jackpots.services import jackpot_pool_create

    assert admin_client.post("/admin/games/table/add/", form(
        default_limits("blackjack", D("10")))).status_code == 302
    table = Table.objects.get(code="bj1")
    page = admin_client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "none: the table feeds no jackpot pool" in page
    jackpot_pool_create(
        casino=CASINO, pool_id="bj-progressive", name="Aces", game="blackjack", tables=["bj1"],
        bet=Decimal("1.00"), increment_percent="80", start=Decimal("10000.00"),
        paytable=[{"combination": "four_aces_suited", "pays": "jackpot"},
                  {"combination": "two_aces", "pays": "25x"}],
        approved_on="2024-03-01", approval_reference="IGJ 1/2024",
        metadata=person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino=CASINO))
    page = admin_client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "pool <b>bj-progressive</b>" in page
    assert "four_aces_suited" in page
    assert 'name="jackpot_from_pool"' not in page  # read-only: shown, not an input


def test_a_currency_the_casino_does_not_accept_is_refused_in_the_admin(
        admin_client: Client) -> None:
    response = admin_client.post("/admin/games/table/add/", form(
        default_limits("blackjack", Decimal("5.00")), currency="USD"), follow=True)
    # the table is configured; its currency is refused, named, and nothing of it recorded
    assert "does not accept USD" in response.content.decode()
    assert not StoredEvent.objects.filter(event_type="TableCurrencyChanged").exists()
    assert Table.objects.get(code="bj1").currency == ""
