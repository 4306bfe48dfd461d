"""The gaming-day close on a real Celery worker process with a real broker (issue 14): a day
closes end to end; a worker killed with SIGKILL in the middle of the close leaves nothing, and
the close sent again (as beat sends it five minutes later) completes it, with the same figures.

The worker is stopped in the middle of the close by a lock: the test holds the ledger's period
table locked, so the worker's close, past its chips record and its figures, waits at the ledger
period; the test kills it there.
"""

from __future__ import annotations

import datetime as dt
import signal
import time

import psycopg
import pytest

from cage.models import ChipCirculationDay
from eventstore.models import StoredEvent
from ledger.models import DayClose, Period
from reporting.tasks import gaming_day_close_task
from tests.worker_process import broker, database_url, start_worker  # noqa: F401 - fixture

from .conftest import CASINO, Clock, Floor
from .test_day_close import DAY, finish, session_of
from .test_day_close import day as day

pytestmark = [pytest.mark.broker, pytest.mark.django_db(transaction=True)]


def _waiting_on_a_lock(dsn: str) -> bool:
    with psycopg.connect(dsn, autocommit=True) as watch:
        return bool(watch.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'").fetchone()[0])  # type: ignore[index]


@pytest.mark.usefixtures("broker")
def test_a_worker_killed_in_the_middle_of_a_close_leaves_nothing_and_the_next_run_closes(
        day: Floor, clock: Clock) -> None:
    finish(day, session_of(day))
    clock.now = None  # the worker lives in the present: the day (in March) is long over
    dsn = database_url()
    with psycopg.connect(dsn) as holder:
        holder.execute("LOCK TABLE ledger_period IN ACCESS EXCLUSIVE MODE")
        worker = start_worker()
        try:
            sent = gaming_day_close_task.delay(CASINO, DAY.isoformat())
            deadline = time.monotonic() + 90
            while not _waiting_on_a_lock(dsn):
                assert time.monotonic() < deadline, "the worker never reached the close"
                time.sleep(0.2)
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
        finally:
            if worker.poll() is None:
                worker.kill()
        holder.rollback()  # the lock goes; the killed worker's transaction rolls back
    deadline = time.monotonic() + 30
    while _waiting_on_a_lock(dsn) or (time.monotonic() < deadline and _busy(dsn)):
        time.sleep(0.2)
    # nothing of the close was recorded: not its figures, not the period, not even the chips
    assert not DayClose.objects.exists()
    assert not Period.objects.exists()
    assert not ChipCirculationDay.objects.exists()
    assert not StoredEvent.objects.filter(event_type="GamingDayClosed").exists()
    assert sent.id

    worker = start_worker()
    try:
        again = gaming_day_close_task.delay(CASINO, DAY.isoformat()).get(timeout=120)
        twice = gaming_day_close_task.delay(CASINO, DAY.isoformat()).get(timeout=120)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
    # the killed worker's message may come back to the new worker (acks late) and close the day
    # before the close sent again: either way the day is closed once
    assert again["closed"] is True, again
    # the figures of a clean close of the same day (test_day_close works them out by hand)
    assert again["totals"] == {"drop": "200.00", "win": "50.00", "gaming_tax_base": "50.00",
                               "chips_in_circulation": "450.00", "jackpot_liability": "0.00"}
    assert twice["already_closed"] is True
    assert StoredEvent.objects.filter(event_type="GamingDayClosed").count() == 1
    assert Period.objects.filter(day=DAY).count() == 1
    assert DayClose.objects.get(day=DAY).totals == again["totals"]
    assert dt.date.fromisoformat(again["gaming_day"]) == DAY


def _busy(dsn: str) -> bool:
    """Another client (the killed worker's backend) still at work on this database."""
    with psycopg.connect(dsn, autocommit=True) as watch:
        return bool(watch.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
            "AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')"
        ).fetchone()[0])  # type: ignore[index]


@pytest.mark.usefixtures("broker")
def test_the_close_page_follows_the_days_close_on_a_worker_step_by_step(
        day: Floor, clock: Clock, client: object) -> None:
    """The accountant presses the button: the page names the task and polls its progress with
    the close's steps (issue 17, the desk's close "with its progress"); a worker closes the day;
    the page is drawn again saying so, every step ticked."""
    import re

    from django.contrib.auth.models import User

    from casino.models import Membership, Role

    finish(day, session_of(day))
    clock.now = None  # the worker lives in the present: the day (in March) is long over
    user = User.objects.create_user(username="contabilista2", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.ACCOUNTANT)
    client.force_login(user)  # type: ignore[attr-defined]
    url = f"/ledger/{CASINO}/close/"
    sent = client.post(url, {"day": str(DAY), "idempotency_key": "d1"})  # type: ignore[attr-defined]
    assert sent.status_code == 302
    found = re.fullmatch(rf"{url}\?day={DAY}&closing=([0-9a-f-]{{36}})", sent["Location"])
    assert found, sent["Location"]
    fragment = f"{url}closing/{found.group(1)}/?day={DAY}"

    # no worker yet: waiting, polling, and the steps as they stand (the figures not fixed yet)
    page = client.get(sent["Location"]).content.decode()  # type: ignore[attr-defined]
    assert "waiting for one to take it" in page
    assert f'hx-get="{fragment.replace("&", "&amp;")}"' in page or f'hx-get="{fragment}"' in page
    assert 'hx-trigger="every 1s"' in page
    assert "✗</td><td>the day&#x27;s figures fixed" in page or "✗</td><td>the day's figures fixed" in page
    assert not DayClose.objects.exists()

    worker = start_worker()
    try:
        deadline = time.monotonic() + 120
        while True:
            polled = client.get(fragment, headers={"HX-Request": "true"})  # type: ignore[attr-defined]
            assert polled.status_code == 200
            if "HX-Redirect" in polled:
                break
            assert 'hx-trigger="every 1s"' in polled.content.decode()
            assert time.monotonic() < deadline, "the worker never closed the day"
            time.sleep(0.5)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
    assert polled["HX-Redirect"] == f"{url}?day={DAY}"
    assert DayClose.objects.get(day=DAY).closed_by == "contabilista2"
    after = client.get(polled["HX-Redirect"]).content.decode()  # type: ignore[attr-defined]
    assert f"gaming day {DAY} closed" in after  # the worker's answer, said once
    assert "hx-get" not in after
    assert "✓</td><td>the ledger period closed" in after
    last = client.get(fragment).content.decode()  # type: ignore[attr-defined]
    assert "The gaming day is closed." in last
    assert "hx-trigger" not in last
