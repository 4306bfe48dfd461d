"""Each role's home: the pit boss sees the floor, the accountant the days and their closes."""

from __future__ import annotations

from typing import Any

import pytest

from casino.models import Role
from games.services import round_record, table_session_open

from .conftest import CASINO, pit
from .test_web import person

pytestmark = pytest.mark.django_db


def test_the_pit_boss_home_is_the_floor_and_the_accountants_the_days(make_table: Any) -> None:
    table = make_table("american_roulette", "r1")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    round_record(session_id=sid, bets=[{"seat": 1, "type": "red", "amount": "20"}],
                 outcome={"number": 4}, metadata=pit())
    home = person("fiscal", Role.PIT_BOSS).get("/").content.decode()
    assert f'hx-get="/pit/{CASINO}/floor/rows/"' in home
    assert f'<a href="/pit/sessions/{sid}/">r1</a>' in home
    assert "<strong>€20.00</strong>" in home  # the result so far: the red 20 lost
    accountant = person("contabilista", Role.ACCOUNTANT).get("/").content.decode()
    assert "Gaming days and their closes" in accountant
    assert "not closed" in accountant
    assert f'href="/ledger/{CASINO}/desk/"' in accountant
    assert "/floor/rows/" not in accountant  # the floor is the pit boss's
