"""Token authentication as an API client uses it (``Authorization: Token …``), with the
project's one token model (knox, ``access.ApiToken``)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from access.models import ApiToken
from casino.models import Membership, Role
from eventstore.models import StoredEvent

from ..conftest import CASINO

pytestmark = pytest.mark.django_db
API = "/api/v1/pit"


def token_for(username: str, *, active: bool = True) -> str:
    user = get_user_model().objects.create_user(username, password="x", is_active=active)
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.PIT_BOSS)
    return ApiToken.objects.create(user=user, name="pit tablet", issued_by=username)[1]


def _a_session_opened_with_a_token(make_table: Any, username: str) -> tuple[APIClient, Any]:
    """A pit boss's client with their token, and its answer to opening a session on r1."""
    make_table("french_roulette", "r1", minimum="5")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(username)}")
    return client, client.post(f"{API}/tables/{CASINO}/r1/sessions/", {"opening": {"5.00": 40}},
                               format="json")


def test_a_pit_boss_with_a_token_opens_a_session_recorded_under_their_name(
        casino: str, make_table) -> None:
    client, response = _a_session_opened_with_a_token(make_table, "fiscal")

    assert response.status_code == 201, response.json()
    session = client.get(f"{API}/sessions/{response.json()['session_id']}/").json()
    assert session["opened_by"] == "fiscal"


def test_an_unknown_token_is_refused_with_the_one_error_shape(casino: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)

    response = client.get(f"{API}/tables/")

    assert response.status_code == 401
    assert response.json()["error"]["message"] == "Invalid token."


def test_the_token_of_a_deactivated_user_is_refused(casino: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for('gone', active=False)}")

    response = client.get(f"{API}/tables/")

    assert response.status_code == 401
    assert response.json()["error"]["message"] == "User inactive or deleted."


def open_round(client: APIClient, make_table) -> str:
    make_table("french_roulette", "r1", minimum="5")
    session = client.post(f"{API}/tables/{CASINO}/r1/sessions/", {"opening": {"5.00": 40}},
                          format="json").json()["session_id"]
    response = client.post(f"{API}/sessions/{session}/rounds/open/", {"bets": []}, format="json")
    assert response.status_code == 201, response.json()
    return str(response.json()["round_id"])


def test_a_command_on_a_round_acts_in_the_rounds_casino_with_the_tokens_roles(
        casino: str, make_table) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for('fiscal')}")
    round_id = open_round(client, make_table)

    response = client.post(f"{API}/rounds/{round_id}/close-betting/", {}, format="json",
                           HTTP_IDEMPOTENCY_KEY="close-1")

    assert response.status_code == 200, response.json()
    event = StoredEvent.objects.get(stream=f"round/{round_id}", event_type="BettingClosed")
    assert (event.metadata["actor"], event.metadata["role"], event.metadata["casino"]) == (
        "fiscal", "pit_boss", CASINO)


def test_a_token_without_a_role_in_the_rounds_casino_records_nothing(
        casino: str, make_table) -> None:
    owner = APIClient()
    owner.credentials(HTTP_AUTHORIZATION=f"Token {token_for('fiscal')}")
    round_id = open_round(owner, make_table)
    stranger = get_user_model().objects.create_user("stranger", password="x")
    Membership.objects.create(user=stranger, casino_id="macau", role=Role.PIT_BOSS)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.objects.create(user=stranger)[1]}")
    before = StoredEvent.objects.count()

    response = client.post(f"{API}/rounds/{round_id}/close-betting/", {}, format="json")

    assert response.status_code == 403, response.json()
    assert CASINO in response.json()["error"]["message"]
    assert StoredEvent.objects.count() == before


def test_a_command_on_a_round_that_does_not_exist_is_not_found(casino: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for('fiscal')}")

    response = client.post(f"{API}/rounds/{uuid.uuid4()}/close-betting/", {}, format="json")

    assert response.status_code == 404
    assert "there is no round" in response.json()["error"]["message"]


def test_a_terminals_token_and_casino_look_ups_are_prepared_once_on_its_connection(
        casino: str, make_table) -> None:
    """The ORM's statements are bound server-side (ADR 0015): a look-up has one text whatever
    the token or session asked for, and psycopg prepares it once a connection has run it
    ``prepare_threshold`` times, instead of the server parsing and planning it on every request.
    With client-side binding each request's look-up is new text, never prepared."""
    from django.conf import settings
    from django.db import connection

    client, opened = _a_session_opened_with_a_token(make_table, "fiscal")
    assert opened.status_code == 201, opened.json()
    session = opened.json()["session_id"]
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    for _ in range(threshold + 2):
        assert client.get(f"{API}/sessions/{session}/rounds/").status_code == 200

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE from_sql IS FALSE")
        prepared = [row[0] for row in cursor.fetchall()]
    token_look_ups = [s for s in prepared if '"access_apitoken"' in s]
    casino_look_ups = [s for s in prepared if '"casino_membership"' in s
                       and '"games_tablesession"' in s]
    assert len(token_look_ups) == 1, prepared
    assert "$1" in token_look_ups[0]  # the token's key is a parameter, not part of the text
    assert len(casino_look_ups) == 1, prepared
