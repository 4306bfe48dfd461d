"""The shift's close on a real Celery worker with a real broker (issue 17): the variance page
follows the close's progress (htmx polling its fragment every second, as the desk's exports
do): waiting for a worker while none runs, then, once one takes it, the shift closed and the
page drawn again saying so."""

from __future__ import annotations

import re
import signal
import time

import pytest
from django.test import Client

from cage import services as cage
from cage.models import Shift, ShiftStatus
from casino.models import Casino, Role
from tests.worker_process import broker, database_url, start_worker  # noqa: F401 - fixture

from .conftest import CASINO, CHIP_SET, ana
from .test_web import browser, count_boxes

pytestmark = [pytest.mark.broker, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("broker")
def test_the_variance_page_follows_the_close_on_a_worker_until_the_shift_is_closed(
        window: str, casino: Casino) -> None:
    ana_web: Client = browser("ana", Role.CASHIER)
    # everything back to the vault, then a count of nothing: no variance, the close may go
    cage.transfer_send(shift_id=window, to_cage="vault",
                       cash={"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50},
                       chips={CHIP_SET: {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200}},
                       metadata=ana())
    ana_web.post(f"/cage/{CASINO}/shifts/{window}/count/",
                 count_boxes() | {"idempotency_key": "w1"})
    sent = ana_web.post(f"/cage/{CASINO}/shifts/{window}/variance/",
                        {"action": "close", "idempotency_key": "w2"})
    assert sent.status_code == 302
    found = re.fullmatch(rf"/cage/{CASINO}/shifts/{window}/variance/\?closing=([0-9a-f-]{{36}})",
                         sent["Location"])
    assert found, sent["Location"]
    fragment = f"/cage/{CASINO}/shifts/{window}/closing/{found.group(1)}/"

    # no worker yet: the page says the close waits for one, and polls
    page = ana_web.get(sent["Location"]).content.decode()
    assert "waiting for one to take it" in page
    assert f'hx-get="{fragment}"' in page
    assert 'hx-trigger="every 1s"' in page
    assert "htmx" in page  # the script, served from the installed package
    assert 'value="10"' in page  # the progress bar, its first step
    assert Shift.objects.get(id=window).status == ShiftStatus.COUNTED

    worker = start_worker()
    try:
        deadline = time.monotonic() + 90
        while True:
            polled = ana_web.get(fragment, headers={"HX-Request": "true"})
            assert polled.status_code == 200
            if "HX-Redirect" in polled:
                break
            assert 'hx-trigger="every 1s"' in polled.content.decode()  # still polling
            assert time.monotonic() < deadline, "the worker never closed the shift"
            time.sleep(0.5)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=60)
    assert polled["HX-Redirect"] == f"/cage/{CASINO}/shifts/{window}/variance/"
    shift = Shift.objects.get(id=window)
    assert shift.status == ShiftStatus.CLOSED
    assert shift.closed_by == "ana"
    after = ana_web.get(polled["HX-Redirect"]).content.decode()
    assert "shift closed" in after  # the worker's answer, said once the page is drawn again
    assert "hx-get" not in after  # nothing left to follow
    # the fragment asked again (a page left open) says closed and polls no more
    last = ana_web.get(fragment).content.decode()
    assert "The shift is closed." in last
    assert "hx-trigger" not in last
