"""The pit's screens render for a pit boss and are closed to others."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from casino.models import Membership, Role
from games.services import round_record, table_session_close, table_session_open

from .conftest import CASINO, pit

pytestmark = pytest.mark.django_db


def test_tables_session_round_and_gaming_day_pages(make_table) -> None:
    table = make_table("punto_banco", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit())["session_id"]
    rid = round_record(session_id=sid, bets=[{"seat": 1, "type": "player", "amount": "20"}],
                       outcome={"player": ["9S", "KH"], "banker": ["2C", "3D"]},
                       metadata=pit())["round_id"]
    table_session_close(session_id=sid, closing={"100.00": 9, "25.00": 3, "5.00": 1},
                        drop_count="0", metadata=pit())
    user = get_user_model().objects.create_user("fiscal", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.PIT_BOSS)
    client = Client()
    client.force_login(user)
    assert "punto_banco" in client.get("/pit/").content.decode()
    page = client.get(f"/pit/sessions/{sid}/").content.decode()
    assert "-20.00" in page
    assert "Hold check" in page
    assert "player" in client.get(f"/pit/rounds/{rid}/").content.decode()
    assert "By game" in client.get("/pit/gaming-days/").content.decode()
    stranger = get_user_model().objects.create_user("caixa", password="x")
    client.force_login(stranger)
    assert client.get(f"/pit/sessions/{sid}/").status_code == 403
