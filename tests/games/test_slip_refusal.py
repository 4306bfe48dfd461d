"""The cage's answer reaches the pit at once: a refused fill shows, on the session's page,
refused with the cage's reason (and who), and rebuilds from the events as it was live."""

from __future__ import annotations

from typing import Any

import pytest

from cage.services import cage_configure, shift_open, slip_refuse
from casino.context import person_metadata
from casino.models import Role
from games.models import Slip, SlipStatus
from games.services import fill_request, table_session_open

from .conftest import CASINO, pit, rebuild_differences
from .test_web import person

pytestmark = pytest.mark.django_db


def test_a_refused_fill_shows_at_the_pit_with_the_cages_reason(make_table: Any) -> None:
    table = make_table("american_roulette", "r1")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    fill_request(session_id=sid, slip="F-7", chips={"25.00": 4}, metadata=pit())
    cashier = person_metadata(username="caixa", role=Role.CASHIER, casino=CASINO)
    cage_configure(code="main", name="Main cage", kind="main", metadata=person_metadata(
        username="gestor", role=Role.ADMINISTRATOR, casino=CASINO))
    shift = shift_open(cage="main", metadata=cashier, cash={"500.00": 10},
                       chips={"main": {"25.00": 10}}).shift_id
    slip_refuse(shift_id=shift, kind="fill", slip="F-7", reason="the table asked twice",
                metadata=cashier)

    slip = Slip.objects.get(kind="fill", number="F-7")
    assert (slip.status, slip.refusal_reason, slip.refused_by, slip.window) == (
        SlipStatus.REFUSED, "the table asked twice", "caixa", "main")
    page = person("fiscal", Role.PIT_BOSS).get(f"/pit/sessions/{sid}/").content.decode()
    assert "refused by the cage (main, caixa): the table asked twice" in page
    assert rebuild_differences() == []


def test_a_waiting_request_is_followed_until_the_cage_answers(make_table: Any) -> None:
    table = make_table("american_roulette", "r1")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    fill_request(session_id=sid, slip="F-8", chips={"25.00": 4}, metadata=pit())
    fiscal = person("fiscal", Role.PIT_BOSS)
    page = fiscal.get(f"/pit/sessions/{sid}/").content.decode()
    assert f"/pit/sessions/{sid}/?fragment=cage-answers" in page  # polled while it waits
    answers = fiscal.get(f"/pit/sessions/{sid}/?fragment=cage-answers").content.decode()
    assert "waiting for the cage" in answers
    assert 'hx-trigger="every 2s"' in answers
    cashier = person_metadata(username="caixa", role=Role.CASHIER, casino=CASINO)
    cage_configure(code="main", name="Main cage", kind="main", metadata=person_metadata(
        username="gestor", role=Role.ADMINISTRATOR, casino=CASINO))
    shift = shift_open(cage="main", metadata=cashier, cash={"500.00": 10},
                       chips={"main": {"25.00": 10}}).shift_id
    slip_refuse(shift_id=shift, kind="fill", slip="F-8", reason="no such chips here",
                metadata=cashier)
    answers = fiscal.get(f"/pit/sessions/{sid}/?fragment=cage-answers").content.decode()
    assert "refused by the cage (main, caixa): no such chips here" in answers
    assert "hx-trigger" not in answers  # answered: no more polling
