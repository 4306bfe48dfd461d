"""Celery's reliability settings (issue 18, item 5): a task killed with its worker comes back
(acks late, rejected on worker lost, a visibility timeout longer than the longest task), and a
task retries, with backoff, the database and the broker gone, not only OSError."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from casino.errors import ConcurrentChange
from config.celery import app

OUR_TASKS = ("ledger.period_close", "ledger.gaming_day_close", "ledger.gaming_day_close_due",
             "cage.gaming_day_chips_record", "cage.gaming_day_close_due", "cage.shift_close",
             "games.table_session_close", "casino.projections_check")


def test_a_message_is_acknowledged_when_its_task_ends_and_comes_back_if_the_worker_dies() -> None:
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    # Redis gives an unacknowledged message back after this: 15 minutes, not the default hour,
    # and longer than the longest task (a gaming-day close of 500 tables: seconds)
    assert app.conf.broker_transport_options["visibility_timeout"] == 900


@pytest.mark.parametrize("name", OUR_TASKS)
def test_every_task_retries_the_database_and_the_broker_with_backoff(name: str) -> None:
    app.loader.import_default_modules()
    task = app.tasks[name]
    for error in (OperationalError, InterfaceError, BrokerError, ConcurrentChange, OSError):
        assert issubclass(error, task.autoretry_for), (name, error)
    assert task.retry_backoff == 2
    assert task.retry_jitter is True
    assert task.max_retries == 10


def test_the_period_close_retries_a_lost_database_connection_and_closes_once() -> None:
    """It retried only OSError: a lost connection failed the close for good."""
    from reporting.tasks import period_close_task

    lost = OperationalError("server closed the connection unexpectedly")
    closed = {"casino": "lisboa", "gaming_day": "2024-03-01", "closed": True}
    with mock.patch("reporting.tasks.period_close", side_effect=[lost, closed]) as close:
        result = period_close_task.apply(args=("lisboa", "2024-03-01"), throw=False).get()
    assert result == closed
    assert close.call_count == 2


def test_the_day_close_retries_a_lost_race_instead_of_reporting_it() -> None:
    from reporting.tasks import gaming_day_close_task

    closed = {"casino": "lisboa", "gaming_day": "2024-03-01", "closed": True}
    with mock.patch("reporting.closes.gaming_day_close",
                    side_effect=[ConcurrentChange(), closed]) as close:
        result = gaming_day_close_task.apply(args=("lisboa", "2024-03-01"), throw=False).get()
    assert result == closed
    assert close.call_count == 2
