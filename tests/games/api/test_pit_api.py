"""The pit API through DRF's client: a live round, the one error shape, idempotency replay,
roles, reads, the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from casino.models import Membership, Role
from eventstore.models import StoredEvent

from ..conftest import CASINO

pytestmark = pytest.mark.django_db
API = "/api/v1/pit"


def client_for(username: str, *roles: str) -> APIClient:
    user = get_user_model().objects.create_user(username, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def fiscal(casino: str) -> APIClient:
    return client_for("fiscal", Role.PIT_BOSS)


@pytest.fixture
def session(make_table, fiscal: APIClient) -> str:
    make_table("french_roulette", "r1", minimum="5")
    response = fiscal.post(f"{API}/tables/{CASINO}/r1/sessions/",
                           {"opening": {"100.00": 20, "5.00": 40}}, format="json")
    assert response.status_code == 201, response.json()
    return str(response.json()["session_id"])


def post(client: APIClient, url: str, body: dict[str, Any] | None = None, key: str = ""
         ) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(url, body or {}, format="json", **headers)


def test_a_live_round_through_the_api(fiscal: APIClient, session: str) -> None:
    opened = post(fiscal, f"{API}/sessions/{session}/rounds/open/",
                  {"bets": [{"seat": 1, "player": "P-a001", "type": "straight", "numbers": [17],
                             "amount": "10.00"},
                            {"seat": 2, "type": "red", "amount": "25"}]})
    assert opened.status_code == 201, opened.json()
    rid = opened.json()["round_id"]
    assert post(fiscal, f"{API}/rounds/{rid}/bets/",
                {"bets": [{"seat": 3, "type": "dozen", "dozen": 3, "amount": "20"}]}
                ).status_code == 201
    assert post(fiscal, f"{API}/rounds/{rid}/close-betting/").status_code == 200
    assert post(fiscal, f"{API}/rounds/{rid}/outcome/", {"outcome": {"number": 17}}
                ).status_code == 200
    settled = post(fiscal, f"{API}/rounds/{rid}/settle/")
    assert settled.status_code == 200
    assert settled.json()["result"] == "-305.00"  # -350 + 25 + 20
    detail = fiscal.get(f"{API}/rounds/{rid}/").json()
    assert detail["status"] == "settled"
    assert [(b["bet_id"], b["status"], b["win"]) for b in detail["bets"]] == [
        ("b1", "won", "350.00"), ("b2", "lost", "0.00"), ("b3", "lost", "0.00")]
    info = fiscal.get(f"{API}/sessions/{session}/").json()
    assert info["round_result"] == "-305.00"
    assert info["hold_check"]["handle"] == "55.00"
    assert fiscal.get(f"{API}/sessions/{session}/rounds/").json()[0]["number"] == 1


def test_every_refusal_has_the_one_error_shape(fiscal: APIClient, session: str) -> None:
    rid = post(fiscal, f"{API}/sessions/{session}/rounds/open/").json()["round_id"]
    before = StoredEvent.objects.count()
    over = post(fiscal, f"{API}/rounds/{rid}/bets/",
                {"bets": [{"seat": 1, "type": "straight", "numbers": [7], "amount": "500"}]})
    assert over.status_code == 400
    body = over.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == "over_limit"
    assert "150.00" in body["error"]["message"]
    assert body["error"]["extra"]["article"]
    floated = post(fiscal, f"{API}/rounds/{rid}/bets/",
                   {"bets": [{"seat": 1, "type": "red", "amount": 10.5}]})
    assert floated.status_code == 400
    assert floated.json()["error"]["code"] == "invalid"
    engine = post(fiscal, f"{API}/rounds/{rid}/bets/",
                  {"bets": [{"seat": 1, "type": "split", "numbers": [3, 4], "amount": "10"}]})
    assert engine.json()["error"]["code"] == "invalid_bet"
    unsettled = post(fiscal, f"{API}/rounds/{rid}/settle/")
    assert unsettled.status_code == 409
    assert unsettled.json()["error"]["code"] == "betting_open"
    missing = fiscal.get(f"{API}/rounds/00000000-0000-0000-0000-000000000000/")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    # The drop is counted in the count room: a drop count sent with the close is refused.
    shape = post(fiscal, f"{API}/sessions/{session}/close/",
                 {"closing": {"100.00": 1}, "drop_count": "0"})
    assert shape.status_code == 400
    assert shape.json()["error"]["message"].startswith("drop_count")
    assert shape.json()["error"]["extra"]["field"] == "drop_count"
    assert StoredEvent.objects.count() == before


def test_a_retried_command_answers_as_the_first_time_and_records_nothing(
        fiscal: APIClient, session: str) -> None:
    body = {"bets": [{"seat": 1, "type": "red", "amount": "10"}]}
    first = post(fiscal, f"{API}/sessions/{session}/rounds/open/", body, key="terminal-7:1")
    count = StoredEvent.objects.count()
    again = post(fiscal, f"{API}/sessions/{session}/rounds/open/", body, key="terminal-7:1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert StoredEvent.objects.count() == count
    other = post(fiscal, f"{API}/sessions/{session}/drops/", {"amount": "100"},
                 key="terminal-7:1")
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "idempotency_conflict"
    assert StoredEvent.objects.count() == count


def test_slips_drop_and_close_through_the_api(fiscal: APIClient, session: str) -> None:
    assert post(fiscal, f"{API}/sessions/{session}/fills/",
                {"slip": "F1", "chips": {"100.00": 5}}).status_code == 201
    assert post(fiscal, f"{API}/sessions/{session}/fills/",
                {"slip": "F3", "chips": {"100.00": 5}}).status_code == 201
    duplicate = post(fiscal, f"{API}/sessions/{session}/fills/",
                     {"slip": "F1", "chips": {"5.00": 1}})
    assert duplicate.json()["error"]["code"] == "duplicate_slip"
    assert post(fiscal, f"{API}/slips/{CASINO}/fill/F3/void/", {"reason": "wrong table"}
                ).status_code == 200
    assert fiscal.get(f"{API}/slips/missing/", {"casino": CASINO, "kind": "fill"}).json() == {
        "fill": [{"series": "F", "first": "F1", "last": "F3", "missing": ["F2"]}]}
    assert post(fiscal, f"{API}/sessions/{session}/credits/",
                {"slip": "C1", "chips": {"5.00": 10}}).status_code == 201
    assert post(fiscal, f"{API}/sessions/{session}/drops/", {"amount": "200"}
                ).status_code == 201
    closed = post(fiscal, f"{API}/sessions/{session}/close/",
                  {"closing": {"100.00": 18, "5.00": 30}})
    assert closed.status_code == 200, closed.json()
    assert closed.json()["table_win"] is None  # the drop box is in the count room
    # Two counters (cashiers, not the pit boss) count the box: 200 in two 100 notes.
    assert post(fiscal, f"{API}/sessions/{session}/drop-box/count/",
                {"cash": {"100.00": 2}}).status_code == 403
    rita = client_for("rita", Role.CASHIER)
    sofia = client_for("sofia", Role.CAGE_SUPERVISOR)
    assert post(rita, f"{API}/sessions/{session}/drop-box/count/",
                {"cash": {"100.00": 2}}).status_code == 201
    own = post(rita, f"{API}/sessions/{session}/drop-box/confirm/", {"cash": {"100.00": 2}})
    assert (own.status_code, own.json()["error"]["code"]) == (403, "four_eyes")
    confirmed = post(sofia, f"{API}/sessions/{session}/drop-box/confirm/",
                     {"cash": {"100.00": 2}})
    assert confirmed.status_code == 200, confirmed.json()
    # 200 + 1950 - 2200 + 50 credit - 0 fills (none issued) = 0
    assert confirmed.json()["table_win"] == "0.00"
    boxes = rita.get(f"{API}/drop-boxes/", {"casino": CASINO}).json()
    assert [(b["amount"], b["counted_by"], b["confirmed_by"]) for b in boxes] == [
        ("200.00", "rita", "sofia")]
    days = fiscal.get(f"{API}/gaming-days/", {"casino": CASINO, "by": "game"}).json()
    assert days[0]["game"] == "french_roulette"
    assert fiscal.get(f"{API}/tables/", {"casino": CASINO}).json()[0]["last_closing"] == {
        "100.00": 18, "5.00": 30}


def test_roles(session: str) -> None:
    cashier = client_for("caixa", Role.CASHIER)
    refused = post(cashier, f"{API}/sessions/{session}/rounds/open/")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "not_allowed"
    assert cashier.get(f"{API}/sessions/{session}/").status_code == 403
    regulator = client_for("igj", Role.REGULATOR)
    assert regulator.get(f"{API}/sessions/{session}/").status_code == 200
    assert post(regulator, f"{API}/sessions/{session}/rounds/open/").status_code == 403
    assert APIClient().get(f"{API}/sessions/{session}/").status_code in (401, 403)


def test_the_openapi_schema_lists_the_pit(fiscal: APIClient) -> None:
    schema = fiscal.get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/pit/rounds/{round_id}/settle/" in paths
    assert "/api/v1/pit/sessions/{session_id}/rounds/whole/" in paths
