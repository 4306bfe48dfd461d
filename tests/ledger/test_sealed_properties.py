"""Sealed means sealed, as a property (issue 34): a sealed day, then any sequence of movements
in the next day, late corrections of the sealed day's session (each with its approval) and
configuration changes of the table and the casino; after each step the sealed day's artefacts
still give the seal's digests (the close report's SHA-256, the regulator file's bytes, the
register and results the close fixed) and ``reconcile`` of the sealed day is whole, as is the
next day's but for the session still open. Lean: a few examples of a few steps."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.errors import DomainError
from casino.models import GamingDaySeal
from casino.services.approvals import approval_grant, approval_request
from casino.services.casinos import casino_change_settings
from games.services import sessions, tables
from ledger.models import DayClose
from reporting.close_report import close_report, report_digest
from reporting.closes import gaming_day_close
from reporting.reconciliation import reconcile
from reporting.regulator_file import regulator_file

from .conftest import CASINO, Clock, Floor, act, pit_boss, system
from .test_day_close import DAY, at, finish, session_of
from .test_sealed_day import played

pytestmark = pytest.mark.django_db
NEXT = DAY + dt.timedelta(days=1)

steps = st.lists(st.one_of(
    st.tuples(st.just("late_credit"), st.integers(1, 4), st.booleans()),
    st.tuples(st.just("buy_in"), st.integers(1, 30)),
    st.tuples(st.just("spin"), st.integers(1, 20), st.integers(0, 36)),
    st.tuples(st.just("tax_class"), st.sampled_from(["simples", "dupla"]), st.booleans()),
    st.tuples(st.just("seats"), st.integers(5, 8)),
    st.tuples(st.just("casino"), st.sampled_from(["Casino A", "Casino B"]),
              st.sampled_from([5, 6, 7])),
    st.tuples(st.just("capital"), st.integers(1, 9)),
), min_size=1, max_size=5)


def _approved(kind: str, subject: str, reason: str, **details: object) -> None:
    asked = approval_request(kind=kind, subject=subject, reason=reason,
                             explanation="found after the close", details=details,
                             metadata=pit_boss())
    approval_grant(approval_id=asked.approval_id, metadata=act("carla", "cage_supervisor"))


def _run(floor: Floor, sealed_session: str, slips: Any, step: tuple[Any, ...]) -> None:
    kind = step[0]
    if kind == "late_credit":  # a credit of the sealed session found, then (maybe) voided
        number = f"C-{next(slips)}"
        _approved("late_slip", f"credit/{number}", "not_recorded", session_id=sealed_session,
                  chips={"25.00": step[1]})
        if step[2]:
            _approved("slip_void", f"credit/{number}", "never_left")
        else:  # the cage never had it: voided at once all the same (nothing left outstanding)
            _approved("slip_void", f"credit/{number}", "duplicate")
    elif kind == "buy_in":
        if "r1" not in floor.tables:
            floor.tables["r1"] = str(sessions.table_session_open(
                casino=CASINO, table="r1", opening=None, metadata=pit_boss()).session_id)
        floor.buy_in("r1", f"{step[1] * 10}.00")
    elif kind == "spin" and "r1" in floor.tables:
        floor.spin("r1", [{"seat": 1, "type": "straight", "numbers": [7],
                           "amount": str(step[1])}], step[2])
    elif kind == "tax_class":
        tables.table_change_tax_class(casino=CASINO, code="r1", bank=step[1], vip=step[2],
                                      reason="reclassified", metadata=pit_boss())
    elif kind == "seats" and "r1" not in floor.tables:
        tables.table_change_options(casino=CASINO, code="r1", options={}, seats=step[1],
                                    reason="seats", metadata=pit_boss())
    elif kind == "casino":
        casino_change_settings(code=CASINO, name=step[1], gaming_day_closes_at=step[2],
                               metadata=act("admin", "administrator"))
    elif kind == "capital":
        tables.table_approve_capital(casino=CASINO, code="r1", capital=f"{step[1]}000.00",
                                     reference="IGJ approval", metadata=act("admin",
                                                                             "administrator"))


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps)
def test_a_sealed_day_stays_as_sealed_whatever_follows(clock: Clock,
                                                       ops: list[tuple[Any, ...]]) -> None:
    with transaction.atomic():
        floor = played(clock)
        sealed_session = session_of(floor)
        finish(floor, sealed_session)
        clock.set(at(NEXT, 6, 5))
        gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
        seal = GamingDaySeal.objects.get(casino_id=CASINO, gaming_day=DAY)
        kept = regulator_file(CASINO, DAY)
        fixed = DayClose.objects.get(casino_id=CASINO, day=DAY)
        slips = itertools.count(9001)
        for n, op in enumerate(ops):
            clock.set(at(NEXT, 10, n))
            try:
                with transaction.atomic():
                    _run(floor, sealed_session, slips, op)
            except DomainError:
                pass  # refused by a service: nothing was recorded
            assert report_digest(close_report(casino=CASINO, gaming_day=DAY)) == \
                seal.report_digest, op
            assert regulator_file(CASINO, DAY) == kept, op
            again = DayClose.objects.get(casino_id=CASINO, day=DAY)
            assert (again.register, again.results, again.report_digest) == (
                fixed.register, fixed.results, fixed.report_digest), op
            assert reconcile(casino=CASINO, gaming_day=DAY).failures == [], op
            assert [line for line in reconcile(casino=CASINO, gaming_day=NEXT).failures
                    if line.what != "session still open"] == [], op
        transaction.set_rollback(True)

