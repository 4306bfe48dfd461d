"""The gaming-day close (``reporting.closes``, ``manage.py close_day``, the Celery tasks): a day
closes whole, or is refused saying exactly what is missing; a supervisor's approved exception
lets a known difference through; closing twice changes nothing (issue 14, items 1 to 3)."""

from __future__ import annotations

import datetime as dt
import io
import json
import zoneinfo
from decimal import Decimal as D

import pytest
from django.core.management import call_command
from django.test import Client

import eventstore
from cage import services as cage
from cage.models import Shift
from casino.errors import Conflict
from casino.money import CASH_DENOMINATIONS, fmt
from casino.services.approvals import approval_grant, approval_request
from eventstore.models import StoredEvent
from ledger.models import DayClose, Period
from reporting.closes import gaming_day_close, line_key
from reporting.reconciliation import reconcile
from reporting.tasks import gaming_day_close_due_task, gaming_day_close_task

from .conftest import CASINO, Clock, Floor, act, cashier, make_floor, notes, supervisor, system

LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")
DAY = dt.date(2026, 3, 10)


def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=LISBON)


def close_shift(shift_id: str, counter: object, approver: object) -> None:
    """Count blind what the shift should hold (every denomination typed) and close it."""
    from cage.selectors import expected_count

    cash, chips = expected_count(Shift.objects.get(id=shift_id))
    cage.shift_count(shift_id=shift_id, cash=cash, chips=chips, metadata=counter)  # type: ignore[arg-type]
    cage.shift_close(shift_id=shift_id, metadata=counter)  # type: ignore[arg-type]


@pytest.fixture
def day(db: None, clock: Clock) -> Floor:
    """10 March: chips sold, a table played and closed on its count, its box counted."""
    clock.set(at(DAY, 20))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    floor.open_table("r1")
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)  # the house wins 50
    # the tray: 2,600.00 - 200.00 sold (8 x 25.00) + 50.00 won (2 x 25.00 back) = 2,450.00,
    # counted in the chips it holds: 10 x 100.00 + 34 x 25.00 + 100 x 5.00 + 100 x 1.00
    floor.close_table("r1", {"100.00": 10, "25.00": 34, "5.00": 100, "1.00": 100}, "200.00")
    return floor


def finish(floor: Floor, session: str) -> None:
    """The cage receives the box and both shifts close."""
    cage.drop_box_receive(shift_id=floor.window, session_id=session, cash=notes("200.00"),
                          metadata=cashier())
    close_shift(floor.window, cashier(), supervisor())
    close_shift(floor.vault, supervisor(), supervisor())


def session_of(floor: Floor) -> str:
    from games.models import TableSession

    return str(TableSession.objects.get(table="r1").session_id)


def test_a_day_closes_whole_and_closing_again_changes_nothing(day: Floor, clock: Clock) -> None:
    finish(day, session_of(day))
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    done = gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert (done.closed, done.already_closed) == (True, False)
    # 300 sold at the window + 200 at the table - 50 lost: 450.00 in players' hands
    assert done.totals == {"drop": "200.00", "win": "50.00", "gaming_tax_base": "50.00",
                              "chips_in_circulation": "450.00", "jackpot_liability": "0.00"}
    close = DayClose.objects.get(day=DAY)
    assert [(r["table"], r["win"], r["drop"]) for r in close.results] == [("r1", "50.00",
                                                                         "200.00")]
    assert Period.objects.filter(casino_id=CASINO, day=DAY).exists()
    # sealed: the close report's digest and the day's totals, signed with the casino's key
    from casino.models import GamingDaySeal
    from reporting.close_report import close_report, report_digest

    seal = GamingDaySeal.objects.get(casino_id=CASINO, gaming_day=DAY)
    assert seal.report_digest == close.report_digest == done.report_digest == report_digest(
        close_report(casino=CASINO, gaming_day=DAY))
    assert seal.signature == done.seal.signature
    events = StoredEvent.objects.count()
    again = gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert again.already_closed is True
    assert again.totals == done.totals
    assert StoredEvent.objects.count() == events
    assert eventstore.check(["day_closes", "ledger", "seals"]) == []


def test_a_day_not_over_is_refused(day: Floor, clock: Clock) -> None:
    with pytest.raises(Conflict) as refused:
        gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert refused.value.code == "day_not_over"


def test_what_is_still_open_is_listed_and_nothing_is_recorded(day: Floor, clock: Clock) -> None:
    day.open_table("r2")
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    events = StoredEvent.objects.count()
    with pytest.raises(Conflict) as refused:
        gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert refused.value.code == "still_open"
    assert refused.value.extra["open"][0].startswith("table r2 (session ")
    assert any(item.startswith("cage w1 (shift ") for item in refused.value.extra["open"])
    assert any(item.startswith("cage vault (shift ") for item in refused.value.extra["open"])
    assert StoredEvent.objects.count() == events  # not even the chips in circulation


def test_a_difference_needs_an_approved_exception(day: Floor, clock: Clock) -> None:
    session = session_of(day)
    finish(day, session)
    # a late slip asked for and left waiting: the day's reconciliation is not clean
    approval_request(kind="late_slip", subject="credit/C-9001", reason="not_recorded",
                     explanation="the credit slip was found after the close",
                     details={"session_id": session, "chips": {"25.00": 2}},
                     metadata=act("paulo", "pit_boss"))
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    with pytest.raises(Conflict) as refused:
        gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert refused.value.code == "not_reconciled"
    assert "pending late_slip credit/C-9001 (awaiting approval)" in refused.value.message
    [key] = refused.value.extra["lines"]
    assert not DayClose.objects.exists()

    asked = approval_request(kind="close_exception", subject=key, reason="pending_elsewhere",
                             explanation="the slip is decided on the next day",
                             metadata=act("conta", "accountant"))
    approval_grant(approval_id=asked.approval_id, metadata=act("carla", "cage_supervisor"))
    done = gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    assert done.closed is True
    assert done.exceptions == [asked.approval_id]
    line = next(line for line in reconcile(casino=CASINO, gaming_day=DAY).failures)
    assert line_key(DAY, line) == key


def test_the_close_day_command_and_the_task(day: Floor, clock: Clock) -> None:
    finish(day, session_of(day))
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    refused = gaming_day_close_task.apply(args=[CASINO, "2026-03-12"]).get()
    assert (refused["closed"], refused["code"]) == (False, "day_not_over")
    out = io.StringIO()
    call_command("close_day", "--casino", CASINO, "--day", str(DAY), stdout=out)
    assert json.loads(out.getvalue())["closed"] is True
    again = gaming_day_close_task.apply(args=[CASINO, str(DAY)]).get()
    assert again["already_closed"] is True


@pytest.mark.parametrize(("moment", "due"), [
    # Lisbon closes at 06:00 on its wall clock: 06:00 UTC in winter, 05:00 UTC in summer
    (dt.datetime(2026, 3, 28, 6, 3, tzinfo=dt.UTC), "2026-03-27"),  # the last winter day
    (dt.datetime(2026, 3, 29, 5, 3, tzinfo=dt.UTC), "2026-03-28"),  # after the clocks go on
    (dt.datetime(2026, 3, 29, 6, 3, tzinfo=dt.UTC), None),  # an hour late: not due
    (dt.datetime(2026, 10, 24, 5, 3, tzinfo=dt.UTC), "2026-10-23"),  # a summer day
    (dt.datetime(2026, 10, 25, 5, 3, tzinfo=dt.UTC), None),  # 05:03 on the wall clock again
    (dt.datetime(2026, 10, 25, 6, 3, tzinfo=dt.UTC), "2026-10-24"),  # after the clocks go back
])
def test_the_schedule_fires_at_lisbons_closing_hour_across_daylight_saving(
        db: None, moment: dt.datetime, due: str | None) -> None:
    make_floor()
    fired = gaming_day_close_due_task.apply(kwargs={"now": moment.isoformat()}).get()
    assert fired == ([{"casino": CASINO, "gaming_day": due}] if due else [])


def test_macau_closes_at_its_own_hour_without_daylight_saving(db: None) -> None:
    make_floor("macau", currency="MOP", time_zone="Asia/Macau")
    # Macau closes at 06:00 too in this fixture: 22:00 UTC the evening before, all year
    for moment, due in ((dt.datetime(2026, 3, 28, 22, 4, tzinfo=dt.UTC), "2026-03-28"),
                        (dt.datetime(2026, 7, 1, 22, 4, tzinfo=dt.UTC), "2026-07-01"),
                        (dt.datetime(2026, 7, 1, 21, 4, tzinfo=dt.UTC), None)):
        fired = gaming_day_close_due_task.apply(kwargs={"now": moment.isoformat()}).get()
        assert fired == ([{"casino": "macau", "gaming_day": due}] if due else [])


def test_the_close_page_shows_the_steps_and_closes_the_day(
        day: Floor, clock: Clock, client: object,
        django_capture_on_commit_callbacks: object) -> None:
    """The button sends the close to the workers once the request commits (here they run in
    this process: the broker's path is ``test_day_close_worker``); the page shows the steps."""
    from unittest import mock

    from django.contrib.auth.models import User

    from casino.models import Membership, Role

    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    user = User.objects.create_user(username="carla2", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.CAGE_SUPERVISOR)
    client.force_login(user)  # type: ignore[attr-defined]
    url = f"/ledger/{CASINO}/close/?day={DAY}"
    body = client.get(url).content.decode()  # type: ignore[attr-defined]
    assert "✗</td><td>every table session and cage shift closed" in body
    in_process = mock.patch.object(
        gaming_day_close_task, "apply_async",
        side_effect=lambda args, task_id: gaming_day_close_task.apply(args, task_id=task_id))
    with in_process, django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        sent = client.post(url, {"day": str(DAY)})  # type: ignore[attr-defined]
    assert sent.status_code == 302
    assert not DayClose.objects.exists()  # refused: the steps say what is missing
    body = client.get(url).content.decode()  # type: ignore[attr-defined]
    assert "✗</td><td>every table session and cage shift closed</td><td>cage vault (shift" in body

    finish(day, session_of(day))
    with in_process, django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        client.post(url, {"day": str(DAY)})  # type: ignore[attr-defined]
    assert DayClose.objects.get(day=DAY).closed_by == "carla2"
    body = client.get(url).content.decode()  # type: ignore[attr-defined]
    assert "✓</td><td>the ledger period closed" in body

    cashier_user = User.objects.create_user(username="ana2", password="x")
    Membership.objects.create(user=cashier_user, casino_id=CASINO, role=Role.CASHIER)
    client.force_login(cashier_user)  # type: ignore[attr-defined]
    assert client.get(url).status_code == 403  # type: ignore[attr-defined]


def test_the_session_and_shift_close_tasks_are_idempotent_by_state(db: None,
                                                                    clock: Clock) -> None:
    from cage.tasks import shift_close_task
    from games.tasks import table_session_close_task

    from .conftest import TABLE_FLOAT, pit_boss

    clock.set(at(DAY, 20))
    floor = make_floor()
    session = floor.open_table("r1")
    closed = table_session_close_task.apply(
        args=[session, TABLE_FLOAT, pit_boss().as_dict()]).get()
    assert (closed["closed"], closed["already_closed"]) == (True, False)
    again = table_session_close_task.apply(
        args=[session, TABLE_FLOAT, pit_boss().as_dict()]).get()
    assert again == {"session_id": session, "closed": True, "already_closed": True,
                     "closing_amount": "2600.00"}

    # the window counted short: its close is refused until the variance is approved
    floor.stock_window({"100.00": 2}, {"25.00": 4})
    cash = {fmt(d): 0 for d in CASH_DENOMINATIONS["EUR"]}
    chips = {"main": {fmt(D(d)): 0 for d in ("100.00", "25.00", "5.00", "1.00")}}
    cash["100.00"] = 2  # the four 25.00 chips are missing
    cage.shift_count(shift_id=floor.window, cash=cash, chips=chips, metadata=cashier())
    refused = shift_close_task.apply(args=[floor.window, cashier().as_dict()]).get()
    assert refused["closed"] is False
    assert "needs an explanation and a cage supervisor's approval" in refused["message"]
    cage.variance_explain(shift_id=floor.window, explanation="four chips went to the table "
                          "without a slip", metadata=cashier())
    cage.variance_approve(shift_id=floor.window, metadata=supervisor())
    done = shift_close_task.apply(args=[floor.window, cashier().as_dict()]).get()
    assert (done["closed"], done["already_closed"]) == (True, False)
    assert shift_close_task.apply(args=[floor.window, cashier().as_dict()]).get() == {
        "shift_id": floor.window, "closed": True, "already_closed": True}


def test_an_unexplained_variance_and_a_box_not_received_are_named(day: Floor,
                                                                  clock: Clock) -> None:
    """Each refusal says exactly what is missing; an approved exception lets it through."""
    session = session_of(day)
    close_shift(day.window, cashier(), supervisor())  # the box never reaches the cage
    close_shift(day.vault, supervisor(), supervisor())
    day.open_table("r1")  # the next session counts 1.00 less than the last close
    day.close_table("r1", {"100.00": 10, "25.00": 34, "5.00": 100, "1.00": 99}, "0.00")
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    with pytest.raises(Conflict) as refused:
        gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    message = refused.value.message
    assert f"drop r1 {session[:8]} (counted, received at the cage): not received at the cage " \
           "yet" in message
    assert "table variance of session" in message
    assert "-1.00: awaiting approval" in message
    assert len(refused.value.extra["lines"]) == 2
    assert not DayClose.objects.exists()


def test_nothing_of_a_sealed_day_changes(day: Floor, clock: Clock, client: Client) -> None:
    """Item 5: after the seal, a late slip on a session of the sealed day is booked in the next
    open day, referring to what it corrects; the sealed day's figures stay as signed (a closed
    session's rounds are corrected no more, sealed or not)."""
    from casino.models import GamingDaySeal
    from games.models import CarriedCorrection, GamingDayResult, Round, TableSession
    from games.services import rounds
    from reporting.close_report import close_report, report_digest
    from reporting.seals import seal_check

    session = session_of(day)
    finish(day, session)
    clock.set(at(DAY + dt.timedelta(days=1), 6, 5))
    gaming_day_close(casino=CASINO, gaming_day=DAY, metadata=system())
    signed = GamingDaySeal.objects.get(casino_id=CASINO, gaming_day=DAY)
    before = (TableSession.objects.get(session_id=session).credits_amount,
              GamingDayResult.objects.get(gaming_day=DAY, table="r1").table_win)
    assert before == (D("0.00"), D("50.00"))

    # 11 March, 10:00: a credit slip of the 10th's session found (2 x 25.00 left the table)
    clock.set(at(DAY + dt.timedelta(days=1), 10))
    asked = approval_request(kind="late_slip", subject="credit/C-9002", reason="not_recorded",
                             explanation="found after the close",
                             details={"session_id": session, "chips": {"25.00": 2}},
                             metadata=act("paulo", "pit_boss"))
    assert f"gaming day {DAY} is sealed" in asked.summary
    assert f"booked in gaming day {DAY + dt.timedelta(days=1)}" in asked.summary
    approval_grant(approval_id=asked.approval_id, metadata=act("carla", "cage_supervisor"))

    late = StoredEvent.objects.filter(event_type="CreditRequested").order_by("position").last()
    assert late is not None
    assert (late.data["gaming_day"], late.data["booked_day"]) == ("2026-03-10", "2026-03-11")
    # the sealed day as signed: its session, its results, its report, its seal
    assert (TableSession.objects.get(session_id=session).credits_amount,
            GamingDayResult.objects.get(gaming_day=DAY, table="r1").table_win) == before
    assert report_digest(close_report(casino=CASINO, gaming_day=DAY)) == signed.report_digest
    assert [c.problem for c in seal_check(casino=CASINO)] == [""]
    assert reconcile(casino=CASINO, gaming_day=DAY).failures == []
    # the 11th takes it: table r1's win is the credit (+50.00), listed with what it corrects
    booked = GamingDayResult.objects.get(gaming_day=DAY + dt.timedelta(days=1), table="r1")
    assert (booked.sessions, booked.table_win, booked.carried_win) == (0, D("50.00"),
                                                                       D("50.00"))
    [carried] = CarriedCorrection.objects.all()
    assert (carried.corrects_day, str(carried.session_id), carried.kind, carried.slip,
            carried.win_change, carried.approval_id) == (DAY, session, "credit", "C-9002",
                                                         D("50.00"), asked.approval_id)
    next_day = reconcile(casino=CASINO, gaming_day=DAY + dt.timedelta(days=1))
    [win] = [line for line in next_day.lines if line.area == "table" and line.what == "table win"]
    assert (win.platform, win.ledger) == (D("50.00"), D("50.00"))
    report = close_report(casino=CASINO, gaming_day=DAY + dt.timedelta(days=1))
    assert [(c.corrects_day, c.slip, c.win_change) for c in report.corrections] == [
        (DAY, "C-9002", D("50.00"))]
    assert [e.approval for e in report.exceptions] == [asked.approval_id]
    assert close_report(casino=CASINO, gaming_day=DAY).exceptions == ()
    assert eventstore.check(["drop_boxes", "table_sessions", "gaming_days", "ledger"]) == []
    from django.contrib.auth.models import User

    from casino.models import Membership

    accountant = User.objects.create_user(username="conta-web", password="x")
    Membership.objects.create(user=accountant, casino_id=CASINO, role="accountant")
    client.force_login(accountant)
    page = client.get(f"/ledger/{CASINO}/close-report/?day={DAY}").content.decode()
    assert "this is the report its seal signed" in page
    booked = client.get(f"/ledger/{CASINO}/close-report/?day={DAY + dt.timedelta(days=1)}")
    assert "C-9002" in booked.content.decode()

    events = StoredEvent.objects.count()
    spun = Round.objects.get(session_id=session)
    with pytest.raises(Conflict) as correction:
        rounds.round_correct(round_id=str(spun.round_id), outcome={"number": 1},
                             reason="misread", metadata=act("rita", "pit_boss"))
    assert correction.value.code == "session_closed"
    assert StoredEvent.objects.count() == events
