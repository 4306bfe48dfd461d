"""Jackpot chips through the pit API: worked example B (stud poker) played live, the round and
the table as the API shows them, a late chip refused with the one error shape."""

from __future__ import annotations

from decimal import Decimal
from decimal import Decimal as D
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.context import person_metadata
from casino.models import Role
from eventstore.models import StoredEvent
from jackpots.models import JackpotPool

from ..conftest import CASINO, rebuild_differences
from .test_pit_api import API, client_for, post

pytestmark = pytest.mark.django_db

STUD_PAYTABLE = [
    {"combination": "royal_flush", "pays": "jackpot"},
    {"combination": "straight_flush", "pays": "10%"},
    {"combination": "four_of_a_kind", "pays": "500x"},
    {"combination": "full_house", "pays": "100x"},
    {"combination": "flush", "pays": "50x"},
]
B_CARDS = {2: ["5H", "6H", "7H", "8H", "9H"],  # straight flush
           6: ["5D", "6D", "7D", "8D", "9D"],  # straight flush
           7: ["KC", "KS", "KH", "2C", "2S"]}  # full house


@pytest.fixture
def fiscal(casino: str, make_table) -> APIClient:
    """A pit boss, and table sp1 feeding a stud poker pool whose meter shows 30,000.00."""
    from jackpots.services import jackpot_pool_create

    from ...jackpots.meters import meter_correct

    make_table("stud_poker", "sp1", minimum="10")
    jackpot_pool_create(
        casino=CASINO, pool_id="stud", name="Stud progressive", game="stud_poker",
        tables=["sp1"], bet=Decimal("1.00"), increment_percent="70", start=Decimal("10000.00"),
        paytable=STUD_PAYTABLE, approved_on="2024-03-01", approval_reference="IGJ 123/2024",
        metadata=person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino=CASINO))
    meter_correct("stud", direction="up", amount="20000.00")
    return client_for("fiscal", Role.PIT_BOSS)


def test_example_b_through_the_pit_api(fiscal: APIClient) -> None:
    table = fiscal.get(f"{API}/tables/{CASINO}/sp1/").json()
    assert table["jackpot"]["pool_id"] == "stud"  # derived from the pool, never typed
    assert table["jackpot"]["jackpot"]["bet"] == "1.00"
    assert "jackpot" not in table["options"]
    listed = fiscal.get(f"{API}/tables/", {"casino": CASINO}).json()
    assert [(t["code"], t["jackpot"]["pool_id"]) for t in listed] == [("sp1", "stud")]
    session = post(fiscal, f"{API}/tables/{CASINO}/sp1/sessions/",
                   {"opening": {"1000.00": 10, "100.00": 20}}).json()["session_id"]
    opened = post(fiscal, f"{API}/sessions/{session}/rounds/open/",
                  {"bets": [{"seat": s, "player": f"seat-{s}", "type": "ante", "amount": "10"}
                            for s in B_CARDS]})
    assert opened.status_code == 201, opened.json()
    rid = opened.json()["round_id"]
    chips = post(fiscal, f"{API}/rounds/{rid}/jackpot-bets/",
                 {"bets": [{"seat": s, "amount": "1.00"} for s in B_CARDS]}, key="jp-b")
    assert chips.status_code == 201, chips.json()
    assert chips.json()["jackpot_bets"] == ["j1", "j2", "j3"]
    assert post(fiscal, f"{API}/rounds/{rid}/close-betting/").status_code == 200

    before = StoredEvent.objects.count()
    late = post(fiscal, f"{API}/rounds/{rid}/jackpot-bets/",
                {"bets": [{"seat": 2, "player": "seat-2", "amount": "1.00"}]})
    assert late.status_code == 409
    assert late.json()["error"]["code"] == "betting_closed"
    assert "n.º 16" in late.json()["error"]["extra"]["article"]
    assert StoredEvent.objects.count() == before

    for seat in B_CARDS:
        assert post(fiscal, f"{API}/rounds/{rid}/decisions/",
                    {"seat": seat, "decision": "call"}).status_code == 200
    outcome = {"dealer": {"cards": ["AS", "KD", "3C", "4H", "7C"]},  # A-K: the bank plays
               "seats": [{"seat": s, "cards": cards} for s, cards in B_CARDS.items()]}
    assert post(fiscal, f"{API}/rounds/{rid}/outcome/", {"outcome": outcome}
                ).status_code == 200
    settled = post(fiscal, f"{API}/rounds/{rid}/settle/")
    assert settled.status_code == 200, settled.json()
    body: dict[str, Any] = settled.json()
    # Main game: every caller beats A-K: antes 3 x 10.00, calls 2 x 20 x 50 and 20 x 7.
    assert (body["handle"], body["result"]) == ("90.00", "-2170.00")
    # Jackpot: 30,000.00 + 3 x 0.70 = 30,002.10; full house 100.00 -> 29,902.10; straight flush
    # 10% = 2,990.21 divided by two = 1,495.105 -> 1,495.10 each (0.01 stays); pool 26,911.90.
    assert [(p["seat"], p["combination"], p["amount"]) for p in body["jackpot"]["prizes"]] == [
        (7, "full_house", "100.00"), (2, "straight_flush", "1495.10"),
        (6, "straight_flush", "1495.10")]
    assert (body["jackpot"]["paid"], body["jackpot"]["pool_after"]) == ("3090.20", "26911.90")

    detail = fiscal.get(f"{API}/rounds/{rid}/").json()
    assert (detail["jackpot_amount"], detail["jackpot_prizes"], detail["handle"]) == (
        "3.00", "3090.20", "90.00")
    assert [(b["seat"], b["player"], b["status"], b["combination"], b["prize"])
            for b in detail["jackpot_bets"]] == [
        (2, "seat-2", "won", "straight_flush", "1495.10"), (6, "seat-6", "won", "straight_flush",
                                                         "1495.10"),
        (7, "seat-7", "won", "full_house", "100.00")]
    assert all(b["bet_type"] in ("ante", "call") for b in detail["bets"])
    assert JackpotPool.objects.get(pool_id="stud").amount == D("26911.90")
    assert rebuild_differences() == []


def test_the_schema_publishes_the_jackpot_bet_operation(fiscal: APIClient) -> None:
    schema = fiscal.get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "post" in paths["/api/v1/pit/rounds/{round_id}/jackpot-bets/"]
