"""``manage.py demo_day`` plays every game through the services and the books balance."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.demo import DEMO_TABLES
from games.models import Round, Slip, TableSession

from ..conftest import rebuild_differences

pytestmark = pytest.mark.django_db


def test_demo_day_plays_every_game_and_the_projections_rebuild(settings) -> None:
    settings.DEBUG = True
    out = StringIO()
    call_command("demo_day", "--rounds-per-table", "4", "--seed", "7", stdout=out,
                 stderr=StringIO())
    games = {g for tables in DEMO_TABLES.values() for _, g, _, _ in tables}
    sessions = TableSession.objects.all()
    assert {s.game for s in sessions} == games
    assert all(s.status == "closed" for s in sessions)
    # the closing counts were made from the tray: table win = the rounds' result
    assert all(s.table_win == s.round_result for s in sessions), [
        (s.table, s.table_win, s.round_result) for s in sessions]
    assert Round.objects.filter(status="voided").exists()
    assert Round.objects.filter(corrections=1).exists()
    assert Slip.objects.filter(kind="fill", status="issued").exists()
    assert "french_roulette" in out.getvalue()
    assert rebuild_differences() == []
    again = StringIO()
    call_command("demo_day", "--if-empty", stdout=again)
    assert "nothing to do" in again.getvalue()
