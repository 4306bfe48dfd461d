"""No 500 from input (issue 35, finding 3 and 4): a number that overflows, a lone surrogate, a NUL,
an over-long string, a seat out of range, with or without an ``Idempotency-Key``, is a 400
naming the field, before any fingerprint or INSERT; request ids are short tokens."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.models import StoredEvent

from . import test_pit_api
from .test_bad_input import refusal
from .test_pit_api import API

fiscal = test_pit_api.fiscal  # a pit boss and an open roulette session
session = test_pit_api.session

pytestmark = pytest.mark.django_db

BET = '{"seat": 1, "type": "red", "amount": "10"'


@pytest.mark.parametrize(("body", "field", "why"), [
    ('{"bets": [' + BET + ', "numbers": [1e309]}]}', "bets[0].numbers[0]", "not a finite"),
    ('{"bets": [' + BET + ', "player": "\\ud800"}]}', "bets[0].player", "lone surrogate"),
    ('{"bets": [' + BET + ', "player": "Ri\\u0000ta"}]}', "bets[0].player", "NUL"),
    ('{"bets": [' + BET + ', "player": "' + "a" * 65 + '"}]}', "bets[0].player", "longer than 64"),
    ('{"bets": [' + BET + ', "note": "' + "a" * 2001 + '"}]}', "bets[0].note", "longer than 2000"),
    ('{"bets": [{"seat": 10000000000, "type": "red", "amount": "10"}]}', "bets[0].seat", "1 to 20"),
    ('{"bets": [{"seat": -5, "type": "red", "amount": "10"}]}', "bets[0].seat", "1 to 20"),
])
@pytest.mark.parametrize("key", ["", "k-1"])
def test_bad_values_are_400s_naming_the_field_with_or_without_a_key(
        fiscal: APIClient, session: str, body: str, field: str, why: str, key: str) -> None:
    before = StoredEvent.objects.count()
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    answer = fiscal.generic("POST", f"{API}/sessions/{session}/rounds/open/", body,
                            content_type="application/json", **headers)
    error = refusal(answer, 400)
    assert error["code"] == "invalid"
    assert list(error["extra"]["fields"]) == [field]
    assert why in error["message"]
    assert StoredEvent.objects.count() == before


def test_a_drops_seat_and_player_are_bounded_in_a_form_too(fiscal: APIClient,
                                                           session: str) -> None:
    before = StoredEvent.objects.count()
    url = f"{API}/sessions/{session}/drops/"
    for body in ({"amount": "10", "seat": "10000000000"}, {"amount": "10", "seat": "-5"},
                 {"amount": "10", "player": "a" * 100_000}, {"amount": "10", "player": "a\x00"}):
        answer = fiscal.post(url, body)  # form-encoded
        assert answer.status_code == 400, (body, answer.content[:200])
    assert StoredEvent.objects.count() == before


def test_a_long_request_id_is_replaced_by_a_fresh_token_and_a_short_one_kept(
        fiscal: APIClient, session: str) -> None:
    url = f"{API}/sessions/{session}/drops/"
    body: dict[str, Any] = {"amount": "10.00"}
    fiscal.post(url, body, format="json", HTTP_X_REQUEST_ID="x" * 8000,
                HTTP_X_CORRELATION_ID="y" * 8000)
    fiscal.post(url, body, format="json", HTTP_X_REQUEST_ID="req-42",
                HTTP_X_CORRELATION_ID="corr.7")
    first, second = (e.metadata for e in StoredEvent.objects.filter(
        event_type="DropRecorded").order_by("position"))
    assert len(first["request_id"]) == 32
    assert len(first["correlation_id"]) == 32
    assert (second["request_id"], second["correlation_id"]) == ("req-42", "corr.7")


def test_a_nul_in_a_query_is_a_400_not_a_database_error(fiscal: APIClient) -> None:
    answer = fiscal.get(f"{API}/tables/?casino=lis%00boa")
    assert refusal(answer, 400)["extra"]["fields"] == {"casino": ["holds a NUL character"]}
