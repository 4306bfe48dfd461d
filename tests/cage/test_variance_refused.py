"""A cage supervisor refuses a variance as well as approving it (issue 36, item 4): the
explanation is set aside, the cashier sees why on the variance page and explains or counts
again; the close stays refused until a count is approved; the one who counted never refuses.

The window holds 20 x 20.00 notes among the rest (``tests/cage/conftest.py``, ``window``)."""

from __future__ import annotations

import pytest
from django.test import Client

from cage import services as cage
from cage.models import Shift
from casino.errors import Conflict, NotAllowed
from casino.models import Role

from .conftest import CASINO, ana, carla
from .test_blind_count import CASH, browser, held

pytestmark = pytest.mark.django_db


def short_and_explained(window: str) -> None:
    # one 20.00 note short: 50 - 1 = 49 counted, a variance of -20.00
    cage.shift_count(shift_id=window, **held(dict(CASH, **{"20.00": 49})), metadata=ana())
    cage.variance_explain(shift_id=window, explanation="a note given twice", metadata=ana())


def test_a_refused_variance_sets_the_explanation_aside_and_the_close_stays_refused(
        window: str) -> None:
    short_and_explained(window)
    answer = cage.variance_refuse(shift_id=window, note="count the 20s again",
                                  metadata=carla())
    assert answer.count_number == 1
    shift = Shift.objects.get(id=window)
    assert (shift.explanation, shift.approved_count) == ("", None)
    with pytest.raises(Conflict):
        cage.shift_close(shift_id=window, metadata=ana())
    # explained again, it can be approved: the refusal ended nothing
    cage.variance_explain(shift_id=window, explanation="found: the note was in the till",
                          metadata=ana())
    cage.variance_approve(shift_id=window, metadata=carla())
    assert Shift.objects.get(id=window).approved_count == 1


def test_the_one_who_counted_never_refuses_and_a_refusal_says_why(window: str) -> None:
    short_and_explained(window)
    with pytest.raises(NotAllowed):
        cage.variance_refuse(shift_id=window, note="mine", metadata=ana(key="x"))
    with pytest.raises(Exception, match="note"):
        cage.variance_refuse(shift_id=window, note="  ", metadata=carla())


def test_the_supervisor_refuses_on_the_variance_page_and_the_cashier_reads_why(
        window: str) -> None:
    short_and_explained(window)
    page = f"/cage/{CASINO}/shifts/{window}/variance/"
    supervisor: Client = browser("carla", Role.CAGE_SUPERVISOR)
    assert "Refuse the variance" in supervisor.get(page).content.decode()
    answer = supervisor.post(page, {"action": "refuse", "note": "count the 20s again",
                                    "idempotency_key": "refuse-1"}, follow=True)
    assert "variance refused" in answer.content.decode()
    cashier = browser("ana", Role.CASHIER).get(page).content.decode()
    assert "The explanation was refused by carla: count the 20s again" in cashier
    assert "Record the explanation" in cashier


def test_the_api_refuses_a_variance_with_a_note_and_says_why_a_blank_one_is_refused(
        window: str) -> None:
    from .test_blind_count import client_for

    short_and_explained(window)
    url = f"/api/v1/cage/{CASINO}/shifts/{window}/variance/refusal/"
    supervisor = client_for("carla", Role.CAGE_SUPERVISOR)
    blank = supervisor.post(url, {"note": " "}, format="json")
    assert blank.status_code == 400
    assert Shift.objects.get(id=window).explanation == "a note given twice"  # nothing recorded
    done = supervisor.post(url, {"note": "count the 20s again"}, format="json",
                           HTTP_IDEMPOTENCY_KEY="refuse-api-1")
    assert done.status_code == 201
    assert done.json()["count_number"] == 1
    assert Shift.objects.get(id=window).explanation == ""
