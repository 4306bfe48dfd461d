"""Token authentication as an API client uses it (``Authorization: Token …``): the project's
own lookup (one prepared statement) accepts and refuses exactly as DRF's does."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from casino.models import Membership, Role

from ..conftest import CASINO

pytestmark = pytest.mark.django_db
API = "/api/v1/pit"


def token_for(username: str, *, active: bool = True) -> str:
    user = get_user_model().objects.create_user(username, password="x", is_active=active)
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.PIT_BOSS)
    return str(Token.objects.create(user=user).key)


def test_a_pit_boss_with_a_token_opens_a_session_recorded_under_their_name(
        casino: str, make_table) -> None:
    make_table("french_roulette", "r1", minimum="5")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for('fiscal')}")

    response = client.post(f"{API}/tables/{CASINO}/r1/sessions/", {"opening": {"5.00": 40}},
                           format="json")

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
