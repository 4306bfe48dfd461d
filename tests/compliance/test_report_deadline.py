"""Issue 34: when a suspicious-transaction report is due (``compliance.deadlines``, docs/patrons.md
§ Suspicious-transaction reports: the deadline). Macau: two working days after the day of the
suspicion, Saturdays, Sundays and the public holidays left out (a parameter, flagged); Portugal:
"de imediato" (Lei n.º 83/2017, art. 43.º, n.º 1), the day of the suspicion. Worked by hand on
the calendar of December 2026 (Thursday 17, Friday 18, Saturday 19, Sunday 20, Monday 21, Tuesday
22: a Macau holiday in the demonstration list, Wednesday 23)."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from rest_framework.test import APIClient

from casino.context import person_metadata
from casino.models import Casino, Membership, Role
from compliance import deadlines, selectors
from compliance.models import AmlAlert
from compliance.services import patron_register, suspicious_report_draft
from eventstore.clock import clock_set
from games.services import sessions

from .test_foreign_table import PIT, WANG, hkd_session  # noqa: F401 - a fixture

DEC = {n: dt.date(2026, 12, n) for n in range(14, 32)}
MO = deadlines.MACAU_HOLIDAYS


def test_macau_two_working_days_without_weekends_and_holidays() -> None:
    # Thursday 17: Friday 18 (1), Monday 21 (2)
    assert deadlines.due_on(DEC[17], 2, MO) == DEC[21]
    # Friday 18: Monday 21 (1), Tuesday 22 a holiday, Wednesday 23 (2)
    assert deadlines.due_on(DEC[18], 2, MO) == DEC[23]
    # without the holiday list: Tuesday 22
    assert deadlines.due_on(DEC[18], 2, ()) == DEC[22]
    # Portugal, "de imediato": the day itself, a Saturday too
    assert deadlines.due_on(DEC[19], deadlines.deadline_for("PT").working_days, ()) == DEC[19]
    assert deadlines.deadline_for("MO").flagged
    assert not deadlines.deadline_for("PT").flagged


def test_the_state_of_a_report_on_a_day() -> None:
    due = DEC[23]
    assert deadlines.state(due, DEC[18], None, MO) == deadlines.OPEN
    # Monday 21: its next working day is Wednesday 23 (22 a holiday): due soon
    assert deadlines.state(due, DEC[21], None, MO) == deadlines.DUE_SOON
    assert deadlines.state(due, DEC[23], None, MO) == deadlines.DUE_SOON
    assert deadlines.state(due, DEC[24], None, MO) == deadlines.OVERDUE
    assert deadlines.state(due, DEC[28], DEC[23], MO) == deadlines.SENT
    assert deadlines.state(due, DEC[28], DEC[24], MO) == deadlines.SENT_LATE


MACAU = zoneinfo.ZoneInfo("Asia/Macau")


def at(day: int) -> Any:
    moment = dt.datetime(2026, 12, day, 14, tzinfo=MACAU)
    return clock_set(lambda: moment)


@pytest.fixture
def thursday(settings: Any) -> Any:
    """The demo's clock at 14:00 in Macau on Thursday 17 December 2026."""
    settings.DEBUG = True
    with at(17):
        yield


def test_a_macau_report_is_due_two_working_days_after_its_alert(
        thursday: None, hkd_session: str) -> None:  # noqa: F811
    wang = str(patron_register(metadata=PIT, place="table", verified=True, **WANG).patron_id)
    # 500,000.00 HKD x 1.03 = MOP 515,000.00 in cash: the large-transaction alert, day 17
    sessions.drop_record(session_id=hkd_session, amount="500000.00", patron=wang, metadata=PIT)
    alert = AmlAlert.objects.get()
    assert alert.gaming_day == DEC[17]
    olga = person_metadata(username="olga", role=Role.COMPLIANCE_OFFICER, casino="macau")
    report = suspicious_report_draft(alert_ids=[str(alert.alert_id)],
                                     narrative="cash buy-in with no play", metadata=olga)
    user = User.objects.create_user(username="olga", password="x")
    Membership.objects.create(user=user, casino_id="macau", role=Role.COMPLIANCE_OFFICER)
    api = APIClient()
    api.force_authenticate(user)
    got = api.get("/api/v1/compliance/macau/reports/").json()[0]
    assert {k: got[k] for k in ("report_id", "suspected_on", "due_on", "due_state",
                                "deadline_flagged")} == {
        "report_id": report.report_id, "suspected_on": "2026-12-17", "due_on": "2026-12-21",
        "due_state": "open", "deadline_flagged": True}
    assert "Regulamento Administrativo n.º 7/2006" in got["deadline_source"]
    web = Client()
    web.force_login(user)
    home = web.get("/waiting/macau/").content.decode()
    assert "Suspicious-transaction reports due" not in home
    with at(21):  # Monday 21, the due day
        assert api.get(f"/api/v1/compliance/macau/reports/{report.report_id}/"
                       ).json()["due_state"] == "due_soon"
        assert "due on 2026-12-21" in web.get("/waiting/macau/").content.decode()
    with at(22):  # Tuesday 22: overdue, on the home and on the list
        assert "overdue since 2026-12-21" in web.get("/waiting/macau/").content.decode()
        page = web.get("/compliance/macau/reports/").content.decode()
        assert 'data-due="overdue"' in page
        detail = web.get(f"/compliance/macau/reports/{report.report_id}/").content.decode()
        assert '<span class="due due-overdue" data-due="overdue">2026-12-21' in detail
        # a deployment's own list of holidays (``COMPLIANCE_PUBLIC_HOLIDAYS``): with Friday 18
        # one, Monday 21 (1), Tuesday 22 (2): due today
        with override_settings(COMPLIANCE_PUBLIC_HOLIDAYS={"MO": ["2026-12-18"]}):
            found = selectors.report_get("macau", report.report_id)
            due = selectors.report_dues(Casino.objects.get(code="macau"), [found])
            assert (due[found.report_id].due_on, due[found.report_id].state) == (
                DEC[22], deadlines.DUE_SOON)
