"""Rounds counted one way on every screen (issue 36, item 7): the floor, the tables' list and
the session page say the rounds played (settled or with an outcome), the void ones apart and
the one in play apart, as the gaming day's result counts them at the close."""

from __future__ import annotations

from typing import Any

import pytest

from casino.models import Role
from games.models import TableSession
from games.services import (
    outcome_record,
    round_close_betting,
    round_open,
    round_record,
    round_void,
    table_session_open,
)

from .conftest import CASINO, pit
from .test_web import person

pytestmark = pytest.mark.django_db


def test_the_floor_the_tables_and_the_session_count_the_rounds_alike(make_table: Any) -> None:
    table = make_table("american_roulette", "r1", minimum="5")
    sid = str(table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                                 metadata=pit()).session_id)
    red = [{"seat": 1, "type": "red", "amount": "10"}]
    for number in (3, 4):  # two rounds played
        round_record(session_id=sid, bets=red, outcome={"number": number}, metadata=pit())
    void = str(round_open(session_id=sid, bets=red, metadata=pit()).round_id)
    round_void(round_id=void, reason="the ball left the wheel", metadata=pit())  # one void
    in_play = str(round_open(session_id=sid, bets=red, metadata=pit()).round_id)
    round_close_betting(round_id=in_play, metadata=pit())  # one in play, no outcome yet
    session = TableSession.objects.get(session_id=sid)
    # 4 opened - 1 void - 1 in play = 2 played
    assert (session.rounds, session.rounds_voided, session.rounds_played) == (4, 1, 2)
    fiscal = person("fiscal", Role.PIT_BOSS)
    said = '2 <span class="muted">· 1 void</span> <span class="muted">· one in play</span>'
    for url in (f"/pit/{CASINO}/floor/rows/", f"/pit/{CASINO}/", f"/pit/sessions/{sid}/"):
        assert said in fiscal.get(url).content.decode(), url
    outcome_record(round_id=in_play, outcome={"number": 5}, metadata=pit())
    assert TableSession.objects.get(session_id=sid).rounds_played == 2  # still in play
