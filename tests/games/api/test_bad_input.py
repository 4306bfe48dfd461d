"""Bad input at the API's edge (issue 18, item 1): each case crashed with a 500 (or an HTML
page) before; each is now a clear refusal in the one error shape, with nothing recorded."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.models import StoredEvent
from games.models import TableSession

from . import test_pit_api
from .test_pit_api import API, post

fiscal = test_pit_api.fiscal  # the pit API's fixtures: a pit boss and an open roulette session
session = test_pit_api.session

pytestmark = pytest.mark.django_db


def refusal(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "extra"}
    return dict(body["error"])


def test_json_nested_5000_deep_is_a_400_not_a_recursion_error(fiscal: APIClient, session: str
                                                               ) -> None:
    before = StoredEvent.objects.count()
    deep = '{"bets": ' + "[" * 5000 + "]" * 5000 + "}"
    answer = fiscal.generic("POST", f"{API}/sessions/{session}/rounds/open/", deep,
                            content_type="application/json")
    error = refusal(answer, 400)
    assert error["code"] == "parse_error"
    assert "deeper than 16 levels" in error["message"]
    # 17 levels, below Python's recursion limit, is refused the same way
    answer = fiscal.generic("POST", f"{API}/sessions/{session}/rounds/open/",
                            '{"bets": ' + "[" * 16 + "]" * 16 + "}",
                            content_type="application/json")
    assert refusal(answer, 400)["code"] == "parse_error"
    assert StoredEvent.objects.count() == before


def test_a_3_mb_body_is_a_413_in_the_error_shape_not_an_html_400(fiscal: APIClient, session: str
                                                                 ) -> None:
    body = '{"bets": [], "note": "' + "a" * 3_000_000 + '"}'
    answer = fiscal.generic("POST", f"{API}/sessions/{session}/rounds/open/", body,
                            content_type="application/json")
    assert refusal(answer, 413)["code"] == "too_large"


def test_5000_bets_in_one_round_are_refused_and_1000_is_the_most(fiscal: APIClient,
                                                                  session: str) -> None:
    before = StoredEvent.objects.count()
    bets = [{"seat": 1 + i % 7, "type": "red", "amount": "5"} for i in range(5000)]
    error = refusal(post(fiscal, f"{API}/sessions/{session}/rounds/open/", {"bets": bets}), 400)
    assert error["code"] == "too_many_bets"
    assert error["extra"] == {"field": "bets", "limit": 1000}
    assert "at most 1,000 bets (0 placed, 5,000 sent)" in error["message"]
    assert StoredEvent.objects.count() == before

    # 990 bets go in; 11 more would make 1,001
    opened = post(fiscal, f"{API}/sessions/{session}/rounds/open/", {"bets": bets[:990]})
    assert opened.status_code == 201, opened.json()
    rid = opened.json()["round_id"]
    more = post(fiscal, f"{API}/rounds/{rid}/bets/", {"bets": bets[:11]})
    assert "990 placed, 11 sent" in refusal(more, 400)["message"]
    assert post(fiscal, f"{API}/rounds/{rid}/bets/", {"bets": bets[:10]}).status_code == 201


def test_jackpot_bets_on_a_round_of_a_game_without_jackpots_are_refused_in_any_state(
        fiscal: APIClient, session: str) -> None:
    rid = post(fiscal, f"{API}/sessions/{session}/rounds/open/",
               {"bets": [{"seat": 1, "type": "red", "amount": "10"}]}).json()["round_id"]
    assert post(fiscal, f"{API}/rounds/{rid}/close-betting/").status_code == 200
    before = StoredEvent.objects.count()
    chips = post(fiscal, f"{API}/rounds/{rid}/jackpot-bets/",
                 {"bets": [{"seat": 1, "amount": "1.00"}]})  # was a KeyError: a 500
    error = refusal(chips, 409)
    assert error["code"] == "no_jackpot"
    assert error["extra"] == {"table": "r1"}
    assert StoredEvent.objects.count() == before


def test_a_100000_character_player_name_is_refused_before_any_event(fiscal: APIClient,
                                                                     session: str) -> None:
    before = StoredEvent.objects.count()
    answer = post(fiscal, f"{API}/sessions/{session}/rounds/open/",
                  {"bets": [{"seat": 1, "player": "x" * 100_000, "type": "red",
                             "amount": "10"}]})
    error = refusal(answer, 400)  # at the edge since issue 35 (edge.bounds: 64 at most)
    assert error["extra"] == {"fields": {"bets[0].player": ["is longer than 64 characters"]}}
    assert StoredEvent.objects.count() == before


def test_amounts_and_pieces_past_their_columns_are_400s(fiscal: APIClient, session: str,
                                                        identified_patron: Any) -> None:
    drops = f"{API}/sessions/{session}/drops/"
    patron = identified_patron(TableSession.objects.get(session_id=session).casino_id)
    too_much = refusal(post(fiscal, drops, {"amount": "1000000000000.00"}), 400)
    assert too_much["extra"]["field"] == "amount"
    # the largest amount a column holds is taken; a second one overflows the session's total
    # (a drop this size is a patron's, identified: docs/patrons.md)
    assert post(fiscal, drops, {"amount": "999999999999.99", "patron": patron}
                ).status_code == 201
    before = StoredEvent.objects.count()
    total = refusal(post(fiscal, drops, {"amount": "999999999999.99", "patron": patron}), 400)
    assert total["code"] == "out_of_range"
    assert StoredEvent.objects.count() == before
    pieces = refusal(post(fiscal, f"{API}/sessions/{session}/close/",
                          {"closing": {"100.00": 10**13}}), 400)
    assert pieces["extra"] == {"field": "closing"}
    assert "at most 2,147,483,647" in pieces["message"]
    assert StoredEvent.objects.count() == before
