
"""The jackpot API through DRF's client: reads for the pit, the cage and the regulator (now and
as of a past moment), a coup recomputed, a prize paid once, roles and the one error shape."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from casino.models import Membership, Role
from jackpots.models import JackpotPool, JackpotPrize
from jackpots.services import jackpot_coup_settle

from .conftest import CASINO, EXAMPLES, STUD, example_table_bets, pit

pytestmark = pytest.mark.django_db
BASE = f"/api/v1/jackpots/{CASINO}"


def client_for(username: str, *roles: str) -> APIClient:
    user = User.objects.create_user(username=username, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def example_a(make_pool) -> dict[str, Any]:
    pool_id = make_pool("stud_poker", "stud-progressive", amount=EXAMPLES["A"]["pool"])
    before = timezone.now()
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    rid = str(uuid.uuid4())
    jackpot_coup_settle(pool_id=pool_id, round_id=rid, table=table,
                        bets=example_table_bets("A"), metadata=pit())
    return {"pool": pool_id, "round": rid, "table": table, "before": before}


def test_the_regulator_reads_a_pool_now_and_as_of_before_its_hit(example_a: dict[str, Any]
                                                                 ) -> None:
    api = client_for("ines", Role.REGULATOR)
    listed = api.get(f"{BASE}/pools/")
    assert listed.status_code == 200, listed.content
    assert [p["pool_id"] for p in listed.json()] == [example_a["pool"]]
    assert listed.json()[0]["meters"]["amount"] == "10000.00"

    now = api.get(f"{BASE}/pools/{example_a['pool']}/").json()
    assert now["jackpot"]["paytable"][0] == {"combination": "royal_flush", "pays": "jackpot"}
    assert now["meters"]["amount"] == "10000.00"
    assert now["meters"]["resets"] == 1
    assert now["last_hits"][0]["combination"] == "royal_flush"
    assert now["last_hits"][0]["amount"] == "51799.17"
    assert now["last_hits"][0]["table"] == example_a["table"]
    assert now["last_hits"][0]["round_id"] == example_a["round"]

    then = api.get(f"{BASE}/pools/{example_a['pool']}/",
                   {"as_of": example_a["before"].isoformat()}).json()
    assert then["meters"]["amount"] == "52345.67"
    assert then["meters"]["hits"] == 0
    assert then["last_hits"] == []
    assert then["configuration"]["version"] == 1

    history = api.get(f"{BASE}/pools/{example_a['pool']}/history/").json()
    assert history[-1]["amount"] == "10000.00"
    assert [h["event_type"] for h in history].count("JackpotHit") == 4


def test_a_coup_recomputed_by_the_same_code_matches(example_a: dict[str, Any]) -> None:
    api = client_for("ines", Role.REGULATOR)
    coup = api.get(f"{BASE}/pools/{example_a['pool']}/coups/{example_a['round']}/").json()
    assert coup["matches"] is True
    assert coup["result"] == EXAMPLES["A"]["result"]
    assert coup["request"]["pool"] == "52345.67"
    assert coup["seats"]["seat1"] == {"seat": 1, "player": "seat-1"}
    configurations = api.get(f"{BASE}/pools/{example_a['pool']}/configurations/").json()
    assert configurations[0]["approval_reference"] == "IGJ 123/2024"


def test_the_cage_lists_what_it_owes_and_pays_a_prize_once(example_a: dict[str, Any]) -> None:
    from cage import services as cage
    from casino.context import person_metadata

    boss = person_metadata(username="carla", role=Role.CAGE_SUPERVISOR, casino=CASINO)
    cage.cage_configure(code="w1", name="Window 1", kind="window", minimum_cash=Decimal("0.00"),
                        metadata=boss)
    shift = cage.shift_open(cage="w1", cash={"20.00": 10, "5.00": 10},
                            metadata=person_metadata(username="ana", role=Role.CASHIER,
                                                     casino=CASINO)).shift_id
    api = client_for("ana", Role.CASHIER)
    owed = api.get(f"{BASE}/prizes/", {"unpaid": "true"}).json()
    assert sorted(p["amount"] for p in owed) == ["25.00", "25.00", "500.00", "51799.17"]
    flush = next(p for p in owed if p["combination"] == "flush")
    url = f"{BASE}/prizes/{flush['prize_id']}/payment/"
    body = {"shift_id": str(shift), "cash": {"20.00": 1, "5.00": 1}}
    paid = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="pay-1")
    assert paid.status_code == 201, paid.content
    again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="pay-1")
    assert again.status_code == 201
    assert again.json() == paid.json()
    twice = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="pay-2")
    assert twice.status_code == 409
    assert twice.json()["error"]["code"] == "already_paid"
    assert JackpotPrize.objects.get(prize_id=flush["prize_id"]).paid
    assert len(api.get(f"{BASE}/prizes/", {"unpaid": "true"}).json()) == 3


def test_the_pit_reads_a_table_derived_option(example_a: dict[str, Any]) -> None:
    api = client_for("paulo", Role.PIT_BOSS)
    answer = api.get(f"{BASE}/tables/{example_a['table']}/jackpot/").json()
    assert answer["pool_id"] == example_a["pool"]
    assert answer["jackpot"] == {"bet": "1.00", "increment_percent": "70", "start": "10000.00",
                                 "paytable": STUD["paytable"]}
    assert api.get(f"{BASE}/tables/nowhere/jackpot/").json()["jackpot"] is None


def test_refusals_have_the_one_error_shape(example_a: dict[str, Any]) -> None:
    stranger = client_for("zeca")
    refused = stranger.get(f"{BASE}/pools/")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "not_allowed"
    api = client_for("ines", Role.REGULATOR)
    missing = api.get(f"{BASE}/pools/nope/")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    bad = api.get(f"{BASE}/pools/{example_a['pool']}/", {"as_of": "yesterday"})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "invalid"
    pay = api.post(f"{BASE}/prizes/x/payment/", {"shift_id": "s"}, format="json")
    assert pay.status_code == 403  # the regulator does not pay
