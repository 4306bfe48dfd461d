"""In the cell a casino moved out of (``cells_move``): its old cell records no more of its
events, and a web request or an API call for it is answered so (a 410 naming the cell it moved
to; the screen shows it beside the form), never a 500; nothing is recorded. A retry of a command
answered before the move still gets its first answer (the idempotency record is there)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from casino.context import person_metadata, system_metadata
from casino.models import Membership, Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from cells.models import MovedCasino
from eventstore.models import StoredEvent
from games.limits import default_limits
from games.services import table_configure, table_session_open

pytestmark = pytest.mark.django_db

CASINO = "lisboa"
MOVED = "casino 'lisboa' has moved to cell 'porto': this cell records no more of its events " \
        "and nothing was recorded; send it to that cell"


@pytest.fixture
def tables() -> str:
    meta = system_metadata(CASINO, job="test")
    casino_register(code=CASINO, name="Casino Lisboa", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=CASINO, code="main", name="Value chips",
                      denominations=["100", "25", "5", "1"], metadata=meta)
    admin = person_metadata(username="admin", role=Role.PIT_BOSS, casino=CASINO)
    for code in ("r1", "r2"):
        table_configure(casino=CASINO, code=code, name=code.upper(), game="french_roulette",
                        options={}, seats=7, chip_set="main",
                        limits=default_limits("french_roulette", Decimal("5"), {}),
                        max_prize_per_coup=None, metadata=admin)
    return CASINO


def pit_boss() -> Any:
    user = get_user_model().objects.create_user("fiscal", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.PIT_BOSS)
    return user


def moved_out(cell: str = "porto") -> None:
    """What ``cells_move`` records in the source when it closes the casino there."""
    last = StoredEvent.objects.filter(casino_id=CASINO).order_by("-sequence").first()
    assert last is not None
    MovedCasino.objects.create(casino_id=CASINO, to_cell=cell, last_sequence=last.sequence,
                               last_hash=last.hash)


def test_an_api_call_for_a_moved_casino_is_a_410_naming_its_cell(tables: str) -> None:
    api = APIClient()
    api.force_authenticate(pit_boss())
    url = f"/api/v1/pit/tables/{CASINO}/r1/sessions/"
    body = {"opening": {"100.00": 20, "5.00": 40}}
    first = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="open-r1")
    assert first.status_code == 201, first.json()
    moved_out()
    before = StoredEvent.objects.count()

    refused = api.post(f"/api/v1/pit/tables/{CASINO}/r2/sessions/", body, format="json",
                       HTTP_IDEMPOTENCY_KEY="open-r2")
    assert refused.status_code == 410
    assert refused.json() == {"error": {"code": "casino_moved", "message": MOVED,
                                        "extra": {"casino": "lisboa", "cell": "porto"}}}
    # without a key too (the unkeyed path appends at once)
    assert api.post(f"/api/v1/pit/tables/{CASINO}/r2/sessions/", body,
                    format="json").status_code == 410
    # the retry of a command answered before the move: its first answer, nothing new
    again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="open-r1")
    assert (again.status_code, again.json()) == (201, first.json())
    assert StoredEvent.objects.count() == before


def test_a_screen_for_a_moved_casino_says_where_it_went_beside_the_form(tables: str) -> None:
    sid = table_session_open(casino=CASINO, table="r1", opening={"100.00": 10},
                             metadata=person_metadata(username="fiscal", role=Role.PIT_BOSS,
                                                      casino=CASINO)).session_id
    client = Client()
    client.force_login(pit_boss())
    page = client.get(f"/pit/sessions/{sid}/")
    found = re.search(r'name="idempotency_key" value="([^"]*:round)"', page.content.decode())
    assert found
    moved_out()
    before = StoredEvent.objects.count()

    refused = client.post(f"/pit/sessions/{sid}/", {"action": "open_round",
                                                     "idempotency_key": found.group(1)})
    assert refused.status_code == 200
    html = refused.content.decode()
    assert 'role="alert"' in html
    assert "has moved to cell &#x27;porto&#x27;" in html
    assert StoredEvent.objects.count() == before
