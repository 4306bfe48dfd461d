"""The exchange's API and page: a rate posted, notes bought, the holding read in HKD and in
MOP; bad input refused with the one error shape and nothing recorded."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from casino.models import Membership, Role
from eventstore.models import StoredEvent

BASE = "/api/v1/exchange/macau"


def user(username: str, *roles: str) -> User:
    made = User.objects.create_user(username=username, password="x")
    for role in roles:
        Membership.objects.create(user=made, casino_id="macau", role=role)
    return made


def api(username: str, *roles: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(user(username, *roles))
    return client


def test_a_purchase_through_the_api_and_the_page(macau: str) -> None:
    admin = api("gestor", Role.ADMINISTRATOR)
    assert admin.post(f"{BASE}/currencies/accept/", {"currency": "HKD"},
                      format="json").status_code == 201
    boss = api("lei", Role.CAGE_SUPERVISOR)
    posted = boss.post(f"{BASE}/currencies/HKD/rate/", {"mid": "1.03", "spread_percent": "1"},
                       format="json")
    assert posted.status_code == 201, posted.content
    cashier = api("chan", Role.CASHIER)
    assert cashier.post(f"{BASE}/desk/open/", {"cash": {"1000.00": 5}},
                        format="json").status_code == 201
    # 1,000 HKD at 1.0197: paid 1,019.70 MOP; carried 1,030.00
    bought = cashier.post(f"{BASE}/deals/buy/", {"currency": "HKD", "cash": {"500.00": 2}},
                          format="json")
    assert bought.status_code == 201, bought.content
    assert (bought.json()["book_amount"], bought.json()["desk_cash"]) == ("1019.70", "3980.30")
    [held] = cashier.get(f"{BASE}/holdings/").json()
    assert (held["amount"], held["book_value"], held["at_mid"]) == ("1000.00", "1030.00",
                                                                     "1030.00")
    page = Client()
    page.force_login(User.objects.get(username="chan"))
    shown = page.get("/exchange/macau/").content.decode()
    assert "1000.00 HKD" in shown
    assert "1030.00" in shown


def test_bad_input_is_refused_with_the_one_shape(macau: str) -> None:
    admin = api("gestor", Role.ADMINISTRATOR)
    admin.post(f"{BASE}/currencies/accept/", {"currency": "HKD"}, format="json")
    before = StoredEvent.objects.count()
    boss = api("lei", Role.CAGE_SUPERVISOR)
    zero = boss.post(f"{BASE}/currencies/HKD/rate/", {"mid": "0"}, format="json")
    assert zero.status_code == 400
    assert zero.json()["error"]["code"] == "rate_not_positive"
    other = boss.post(f"{BASE}/currencies/USD/rate/", {"mid": "7.8"}, format="json")
    assert other.status_code == 400
    assert other.json()["error"]["code"] == "currency_not_accepted"
    assert api("zeca").get(f"{BASE}/holdings/").status_code == 403
    assert StoredEvent.objects.count() == before
