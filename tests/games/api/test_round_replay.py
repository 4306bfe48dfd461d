"""Round replay: the regulator re-settles a round from its events and sees whether it agrees."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from casino.models import Role

from .test_pit_api import API, client_for, post

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def settled_round(make_table: Any) -> str:
    fiscal = client_for("fiscal", Role.PIT_BOSS)
    make_table("french_roulette", "r1", minimum="5")
    session = fiscal.post(f"{API}/tables/lisboa/r1/sessions/",
                          {"opening": {"100.00": 20}}, format="json").json()["session_id"]
    rid = post(fiscal, f"{API}/sessions/{session}/rounds/whole/",
               {"bets": [{"seat": 1, "type": "straight", "numbers": [17], "amount": "10.00"},
                         {"seat": 2, "type": "red", "amount": "25"}],
                "outcome": {"number": 17}}).json()["round_id"]
    return str(rid)


@pytest.fixture
def regulator(casino: str) -> APIClient:
    return client_for("igj", Role.REGULATOR)


def test_a_settled_round_replays_to_the_same_settlements(settled_round: str,
                                                         regulator: APIClient) -> None:
    replay = regulator.get(f"{API}/rounds/{settled_round}/replay/").json()
    assert replay["matches"] is True
    assert [(b["bet_id"], b["replayed"]["status"], b["replayed"]["win"], b["matches"])
            for b in replay["bets"]] == [("b1", "won", "350.00", True),
                                         ("b2", "lost", "0.00", True)]


def test_a_settlement_altered_behind_the_store_shows_in_the_replay(
        settled_round: str, regulator: APIClient) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE event DISABLE TRIGGER event_refuse_update_delete")
        cursor.execute("UPDATE event SET data = jsonb_set(data, '{win}', '\"35.00\"') "
                       "WHERE event_type = 'BetSettled' AND data->>'bet_id' = 'b1'")
        cursor.execute("ALTER TABLE event ENABLE TRIGGER event_refuse_update_delete")
    replay = regulator.get(f"{API}/rounds/{settled_round}/replay/").json()
    assert replay["matches"] is False
    first = replay["bets"][0]
    assert first["recorded"]["win"] == "35.00"
    assert first["replayed"]["win"] == "350.00"
