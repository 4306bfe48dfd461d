"""A lost broker in the browser (issue 35, finding 8 and its test "a lost-broker close in the
browser answering the 503 page"): the accountant closes yesterday while the task queue is out
of reach; Chromium gets the 503 page with Retry-After within the publish policy's bounded wait,
never a 500, and nothing is closed. The app is pointed at a port nothing listens on
(``tests/casino/test_broker_lost.py``'s ``dead_broker``): the policy's real wait, a real
connection refused, the real web error handler, through the live server."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ledger.models import DayClose
from tests.casino.test_broker_lost import dead_broker  # noqa: F401 - the fixture


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
