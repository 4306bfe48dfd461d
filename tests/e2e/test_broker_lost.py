"""A lost broker in the browser (issue 35, finding 8 and its test "a lost-broker close in the
browser answering the 503 page"): the accountant closes yesterday while the task queue is out
of reach; Chromium gets the 503 page with Retry-After within the publish policy's bounded wait,
never a 500, and nothing is closed. The app is pointed at a port nothing listens on
(``tests/casino/test_broker_lost.py``'s ``dead_broker``): the policy's real wait, a real
connection refused, the real web error handler, through the live server."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ledger.models import DayClose
from tests.casino.test_broker_lost import dead_broker  # noqa: F401 - the fixture


@pytest.fixture
def lost_redis() -> Iterator[None]:
    """Redis gone as production has it: the broker and the result store (one Redis,
    ``CELERY_RESULT_BACKEND`` defaults to the broker's URL) both at a port nothing listens on,
    and every thread's result store new, as in a web worker that has sent nothing yet (a
    fresh one subscribed to the task's result first and retried that for 19 s, then a 500)."""
    from config.celery import app

    conf = app.conf
    before = (conf.broker_url, conf.broker_write_url, conf.result_backend,
              conf.task_always_eager, app._local, app._backend_cache, app.backend_cls)
    dead = "redis://127.0.0.1:1/0"
    conf.broker_url = conf.broker_write_url = conf.result_backend = dead
    app.backend_cls = dead  # what the app's result store is made of, before its settings
    conf.task_always_eager = False
    # the result store made again, to the dead one (a thread-safe one is the app's, another
    # each thread's)
    app._local, app._backend_cache = threading.local(), None
    app._pool = None
    app.amqp._producer_pool = None
    try:
        yield
    finally:
        (conf.broker_url, conf.broker_write_url, conf.result_backend, conf.task_always_eager,
         app._local, app._backend_cache, app.backend_cls) = before
        app._pool = None
        app.amqp._producer_pool = None


def test_a_close_sent_while_the_broker_is_lost_is_the_503_page_in_chromium(
        demo: None, dead_broker: None, settings: Any,  # noqa: F811
        person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    settings.DEBUG = False  # the error pages as in production (the demo's seed wanted DEBUG)
    accountant = person("contabilista")
    accountant.goto("/ledger/lisboa/close/")
    started = time.monotonic()

    with accountant.expect_response(lambda answer: answer.request.method == "POST") as posted:
        accountant.get_by_role("button", name="Close the gaming day").click()

    answer = posted.value
    waited = time.monotonic() - started
    assert (answer.status, answer.headers.get("retry-after")) == (503, "5")
    assert answer.headers["content-type"].startswith("text/html")
    accountant.get_by_text("Try again in a few seconds").wait_for()
    assert "Internal Server Error" not in accountant.content()
    # the policy: two retries a second apart, each connection refused at once (about 2 s)
    assert waited < 10, waited
    assert not DayClose.objects.exists()
    shot(accountant, "broker-lost-503")


def test_a_close_sent_while_redis_broker_and_result_store_is_lost_is_the_503_page(
        demo: None, lost_redis: None, settings: Any,
        person: Callable[[str], Any]) -> None:
    settings.DEBUG = False
    accountant = person("contabilista")
    accountant.goto("/ledger/lisboa/close/")
    accountant.set_default_timeout(60_000)  # to see the answer, however late
    started = time.monotonic()

    with accountant.expect_response(lambda answer: answer.request.method == "POST") as posted:
        accountant.get_by_role("button", name="Close the gaming day").click()

    answer = posted.value
    waited = time.monotonic() - started
    assert (answer.status, answer.headers.get("retry-after"), round(waited)) == (503, "5", 2)
    accountant.get_by_text("Try again in a few seconds").wait_for()
    assert not DayClose.objects.exists()
