"""A lost broker (issue 35, finding 8): a close sent while the broker was gone was an HTML 500
after 19 s, nothing queued. One publish policy for every sender (``config.settings``): a bounded
wait, then 503 with Retry-After, JSON in the API, a page in the web."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

import pytest
from django.test import RequestFactory
from kombu.exceptions import OperationalError as BrokerError

from edge.api.errors import exception_handler, server_error


@pytest.fixture
def dead_broker() -> Iterator[None]:
    """The app pointed at a port nothing listens on (1), tasks really sent."""
    from config.celery import app

    before = (app.conf.broker_url, app.conf.broker_write_url, app.conf.task_always_eager)
    dead = "redis://127.0.0.1:1/0"
    app.conf.broker_url, app.conf.broker_write_url, app.conf.task_always_eager = dead, dead, False
    # a new connection pool, to the dead broker; and new producers (an earlier test's, kept by
    # the app, still hold a connection to the live broker)
    app._pool = None
    app.amqp._producer_pool = None
    try:
        yield
    finally:
        app.conf.broker_url, app.conf.broker_write_url, app.conf.task_always_eager = before
        app._pool = None
        app.amqp._producer_pool = None


def test_a_task_sent_to_a_lost_broker_fails_within_the_policys_bounded_wait(
        dead_broker: None) -> None:
    from casino.tasks import projections_check_task

    started = time.monotonic()
    with pytest.raises(BrokerError):
        projections_check_task.delay()
    waited = time.monotonic() - started
    # two retries one second apart, each connection refused at once: about 2 s, at most ~6 s
    assert waited < 8, waited


def _lost() -> BaseException:
    try:
        raise BrokerError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
    except BrokerError as error:
        return error


def test_the_api_answers_a_lost_broker_503_with_retry_after_in_json() -> None:
    answer = exception_handler(_lost(), {})  # type: ignore[arg-type]
    assert answer is not None
    assert (answer.status_code, answer["Retry-After"]) == (503, "5")
    assert answer.data["error"]["code"] == "unavailable"
    assert "task queue" in answer.data["error"]["message"]


def test_the_web_answers_a_lost_broker_with_a_503_page_with_retry_after() -> None:
    request = RequestFactory().post("/ledger/lisboa/close/")
    try:
        raise _lost()
    except BrokerError:
        assert sys.exc_info()[1] is not None
        answer = server_error(request)
    assert (answer.status_code, answer["Retry-After"]) == (503, "5")
    assert answer["Content-Type"].startswith("text/html")
    assert b"Try again in a few seconds" in answer.content


@pytest.mark.django_db(transaction=True)
def test_an_export_asked_while_the_broker_is_lost_is_a_503_page_not_a_500(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The accountant's desk sends the export's task once the request's work is committed: the
    broker gone, the page is the 503 with Retry-After after the policy's bounded wait."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from casino.context import system_metadata
    from casino.models import Membership, Role
    from casino.services.casinos import casino_register

    casino_register(code="lisboa", name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="tests"))
    user = get_user_model().objects.create_user("contabilista")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.ACCOUNTANT)
    # every send fails as the publish policy fails once its bounded wait is over (the wait
    # itself: the test above, on a real connection refused)
    from celery.app.task import Task

    def lost(*args: object, **kwargs: object) -> None:
        raise _lost()

    monkeypatch.setattr(Task, "apply_async", lost)
    browser = Client(raise_request_exception=False)
    browser.force_login(user)
    started = time.monotonic()

    answer = browser.post("/ledger/lisboa/desk/", {"format": "csv", "from": "2026-01-01",
                                                   "to": "2026-01-02"})

    assert time.monotonic() - started < 10
    assert (answer.status_code, answer["Retry-After"]) == (503, "5")
    assert b"Try again in a few seconds" in answer.content


def test_the_result_stores_reconnection_given_up_is_the_same_503_and_no_other_runtime_error(
        ) -> None:
    """A sender subscribes to its task's result before publishing: Redis lost, Celery's result
    consumer gives up (by the same policy, ``CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS``) with a
    RuntimeError caused by the connection's error: the API's 503 as for the broker. A
    RuntimeError of anything else stays a 500."""
    from django.conf import settings
    from redis.exceptions import ConnectionError as RedisConnectionError

    from edge.api.errors import domain_error_of

    assert (settings.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS["retry_policy"]
            == settings.CELERY_TASK_PUBLISH_RETRY_POLICY)
    try:
        try:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")
        except RedisConnectionError as lost:
            raise RuntimeError("Retry limit exceeded while trying to reconnect to the Celery "
                               "result store backend.") from lost
    except RuntimeError as given_up:
        answer = exception_handler(given_up, {})  # type: ignore[arg-type]
    assert answer is not None
    assert (answer.status_code, answer["Retry-After"]) == (503, "5")
    assert answer.data["error"]["code"] == "unavailable"
    assert domain_error_of(RuntimeError("something else")) is None
