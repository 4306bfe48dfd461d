"""The cage's screens: the shift screen, the blind count, the variance, the reports (page, CSV)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client

from cage import services as cage
from cage.models import Shift, ShiftStatus
from cage.reports import CSV_HEADER
from casino.models import Approval, Casino, Membership, Role
from casino.money import CASH_DENOMINATIONS, fmt
from eventstore.models import StoredEvent
from games.models import DropBox
from games.services import drop_record, table_session_close
from tests.games.conftest import close_and_count

from .conftest import CASINO, CHIP_DENOMINATIONS, CHIP_SET, TABLE, Pit, act, ana, carla, paulo

pytestmark = pytest.mark.django_db


def browser(username: str, *roles: str) -> Client:
    user = User.objects.create_user(username=username, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    client = Client()
    client.force_login(user)
    return client


def count_boxes(typed: dict[str, str] | None = None) -> dict[str, str]:
    """The count form's boxes, each typed (0 unless ``typed`` says otherwise): a closing count
    has a figure for every denomination."""
    boxes = {f"cash-{fmt(d)}": "0" for d in CASH_DENOMINATIONS["EUR"]}
    boxes |= {f"chip-{CHIP_SET}-{d}": "0" for d in CHIP_DENOMINATIONS}
    return boxes | (typed or {})


@pytest.fixture
def ana_web(casino: Casino) -> Client:
    return browser("ana", Role.CASHIER)


@pytest.fixture
def carla_web(casino: Casino) -> Client:
    return browser("carla", Role.CAGE_SUPERVISOR)


def test_the_overview_shows_the_minimum_cash_alert(window: str, ana_web: Client) -> None:
    page = ana_web.get(f"/cage/{CASINO}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Cash below the minimum" in html  # the main cage holds nothing, its minimum is 20,000
    assert f"/cage/{CASINO}/shifts/{window}/" in html


def test_a_cashier_opens_a_window_and_records_a_sale_on_the_shift_screen(
        vault: str, ana_web: Client) -> None:
    opened = ana_web.post(f"/cage/{CASINO}/", {"cage": "w2", "blind": "1",
                                               "cash-100.00": "5", "idempotency_key": "k1"})
    shift = Shift.objects.get(cage="w2")
    assert opened.status_code == 302
    assert opened["Location"] == f"/cage/{CASINO}/shifts/{shift.id}/"
    sold = ana_web.post(f"/cage/{CASINO}/shifts/{shift.id}/", {
        "action": "sell", "amount": "100.00", "cash-100.00": "1",
        "idempotency_key": "k2"})
    assert sold.status_code == 400  # refused: the page again, the form as typed
    html = sold.content.decode()
    assert "chips: nothing to move" in html  # the window holds no chips yet
    assert 'name="cash-100.00" value="1"' in html
    assert 'autocomplete="off" value="100.00"' in html  # the amount as typed
    cage.transfer_send(shift_id=vault, to_cage="w2", chips={"main": {"25.00": 8}},
                       metadata=carla())
    sold = ana_web.post(f"/cage/{CASINO}/shifts/{shift.id}/", {
        "action": "sell", "amount": "100.00", "chips-main-25.00": "4", "cash-100.00": "1",
        "idempotency_key": "k3"}, follow=True)
    html = sold.content.decode()
    assert "chips sold" in html
    assert "Chips sold" in html
    # the cashier's own screen does not say what the window should hold
    assert "What the shift should hold" not in html
    # a double submit (same form, same key) records nothing twice
    ana_web.post(f"/cage/{CASINO}/shifts/{shift.id}/", {
        "action": "sell", "amount": "100.00", "chips-main-25.00": "4", "cash-100.00": "1",
        "idempotency_key": "k3"})
    assert StoredEvent.objects.filter(event_type="ChipsSold").count() == 1


def test_the_blind_count_form_shows_no_expected_figure(window: str, ana_web: Client,
                                                       carla_web: Client) -> None:
    page = ana_web.get(f"/cage/{CASINO}/shifts/{window}/count/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Expected" not in html
    assert "expected" not in html.replace(
        "should hold are shown only after the count", "")
    inputs = re.findall(r"<input[^>]*type=\"number\"[^>]*>", html)
    assert inputs, "one box per denomination"
    assert all("value=" not in i for i in inputs)
    assert "figures" not in page.context
    # the supervisor's view of the open shift does show them
    assert "What the shift should hold" in carla_web.get(
        f"/cage/{CASINO}/shifts/{window}/").content.decode()


@pytest.fixture
def in_process() -> Iterator[None]:
    """The close goes to the workers once the request commits (the test is transactional, so
    it commits as in production): here they run in this process (the broker's path is the
    worker test's)."""
    from cage.tasks import shift_close_task

    def apply(args: tuple[Any, ...], task_id: str) -> Any:
        return shift_close_task.apply(args, task_id=task_id)

    with mock.patch.object(shift_close_task, "apply_async", side_effect=apply):
        yield


@pytest.mark.django_db(transaction=True)
def test_count_variance_approval_close_and_the_reports(window: str, pit: Pit, ana_web: Client,
                                                       carla_web: Client,
                                                       in_process: None) -> None:
    # Ana sends everything back to the vault, then counts a 10.00 note that is not hers
    cage.transfer_send(shift_id=window, to_cage="vault",
                       cash={"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50},
                       chips={"main": {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200}},
                       metadata=ana())
    counted = ana_web.post(f"/cage/{CASINO}/shifts/{window}/count/",
                           count_boxes({"cash-10.00": "1"}) | {"idempotency_key": "c1"},
                           follow=True)
    html = counted.content.decode()
    assert counted.redirect_chain[-1][0] == f"/cage/{CASINO}/shifts/{window}/variance/"
    assert "10.00" in html
    assert "Approve the variance" not in html

    refused = ana_web.post(f"/cage/{CASINO}/shifts/{window}/variance/",
                           {"action": "close", "idempotency_key": "c2"}, follow=True)
    assert "before closing" in refused.content.decode()
    ana_web.post(f"/cage/{CASINO}/shifts/{window}/variance/",
                 {"action": "explain", "explanation": "a player's tip left on the counter",
                  "idempotency_key": "c3"})
    approve_page = carla_web.get(f"/cage/{CASINO}/shifts/{window}/variance/").content.decode()
    assert "Approve the variance" in approve_page
    carla_web.post(f"/cage/{CASINO}/shifts/{window}/variance/",
                   {"action": "approve", "note": "", "idempotency_key": "c4"})
    ana_web.post(f"/cage/{CASINO}/shifts/{window}/variance/",
                 {"action": "close", "idempotency_key": "c5"})
    shift = Shift.objects.get(id=window)
    assert shift.status == ShiftStatus.CLOSED

    page = ana_web.get(f"/cage/{CASINO}/shifts/{window}/reconciliation/")
    assert page.status_code == 200
    assert "Cage reconciliation" in page.content.decode()
    response = ana_web.get(f"/cage/{CASINO}/shifts/{window}/reconciliation.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert tuple(rows[0]) == CSV_HEADER
    by_denomination = {(r[6], r[8]): dict(zip(CSV_HEADER, r, strict=True)) for r in rows[1:]}
    ten = by_denomination[("cash", "10.00")]
    assert (ten["opening"], ten["receipts"], ten["payments"], ten["expected"], ten["counted"],
            ten["variance"], ten["variance_value"]) == ("0", "50", "50", "0", "1", "1", "10.00")

    day = shift.gaming_day.isoformat()
    day_page = carla_web.get(f"/cage/{CASINO}/days/{day}/reconciliation/")
    assert day_page.status_code == 200
    assert "Casino total" in day_page.content.decode()
    day_csv = carla_web.get(f"/cage/{CASINO}/days/{day}/reconciliation.csv").content.decode()
    assert "TOTAL" in day_csv
    # a cashier does not read the whole day's figures
    assert ana_web.get(f"/cage/{CASINO}/days/{day}/reconciliation/").status_code == 403


def test_chips_in_circulation_page_and_bad_urls(window: str, ana_web: Client,
                                                carla_web: Client) -> None:
    page = carla_web.get(f"/cage/{CASINO}/chips-in-circulation/")
    assert page.status_code == 200
    assert "Chips in circulation" in page.content.decode()
    assert ana_web.get(f"/cage/{CASINO}/shifts/00000000-0000-4000-8000-000000000000/"
                       ).status_code == 404
    assert browser("paulo", Role.PIT_BOSS).get(f"/cage/{CASINO}/").status_code == 403
    assert Client().get(f"/cage/{CASINO}/").status_code == 302  # to the login page


def test_the_count_room_page_counts_a_box_with_two_counters_and_sends_a_variance_for_approval(
        window: str, pit: Pit, ana_web: Client, identified_patron: Any) -> None:
    """Finding 2 on the screens: Rita and Sofia count the box note by note; Ana receives it on
    her shift screen 100.00 short; the count room asks for the variance's approval."""
    drop_record(session_id=pit.session_id, amount="3500", patron=identified_patron(CASINO),
                metadata=paulo())
    table_session_close(session_id=pit.session_id, closing={}, metadata=paulo())
    rita, sofia = browser("rita", Role.CASHIER), browser("sofia", Role.CAGE_SUPERVISOR)
    page = rita.get(f"/cage/{CASINO}/count-room/")
    assert page.status_code == 200
    assert "to count" in page.content.decode()
    rita.post(f"/cage/{CASINO}/count-room/", {"action": "count", "session_id": pit.session_id,
                                              "cash-500.00": "7", "idempotency_key": "c1"})
    refused = rita.post(f"/cage/{CASINO}/count-room/", {
        "action": "confirm", "session_id": pit.session_id, "cash-500.00": "7",
        "idempotency_key": "c2"}, follow=True)
    assert "a second counter counts the box" in refused.content.decode()
    sofia.post(f"/cage/{CASINO}/count-room/", {"action": "confirm", "session_id": pit.session_id,
                                               "cash-500.00": "7", "idempotency_key": "c3"})
    assert DropBox.objects.get(session_id=pit.session_id).confirmed_by == "sofia"
    shift_page = ana_web.get(f"/cage/{CASINO}/shifts/{window}/?m=drop").content.decode()
    assert f'<option value="{pit.session_id}">table r1' in shift_page
    ana_web.post(f"/cage/{CASINO}/shifts/{window}/", {
        "action": "drop", "session_id": pit.session_id, "cash-500.00": "6", "cash-200.00": "2",
        "idempotency_key": "d1"})
    assert DropBox.objects.get(session_id=pit.session_id).variance_value == -100
    room = ana_web.get(f"/cage/{CASINO}/count-room/").content.decode()
    assert "Ask for approval" in room
    ana_web.post(f"/cage/{CASINO}/count-room/", {
        "action": "ask_variance", "session_id": pit.session_id, "reason": "note_missing",
        "explanation": "a 500 note is missing", "idempotency_key": "v1"})
    asked = Approval.objects.get(kind="drop_variance")
    assert (asked.requested_by, asked.reason, asked.status) == ("ana", "note_missing",
                                                                "requested")
    assert "awaiting approval" in ana_web.get(f"/cage/{CASINO}/count-room/").content.decode()


def test_the_shift_screen_asks_for_a_late_fill_a_pit_boss_approves(window: str, pit: Pit,
                                                                   ana_web: Client) -> None:
    """A fill for a session that has closed (docs/approvals.md, late_fill): refused at the
    counter, asked for from the shift screen, issued from that shift once a pit boss approves."""
    from casino.models import Approval
    from casino.services.approvals import approval_grant
    from games.models import TableSession

    number = pit.fill({"5.00": 2})
    close_and_count(pit.session_id, {}, act("paulo", Role.PIT_BOSS))
    screen = f"/cage/{CASINO}/shifts/{window}/?m=fill"
    assert "The session has closed: a pit boss approves this fill." in ana_web.get(
        screen).content.decode()
    refused = ana_web.post(screen, {"action": "fill", "slip": number, "idempotency_key": "f1"})
    assert "a late fill moves the closed session&#x27;s win" in refused.content.decode()
    assert "a pit boss&#x27;s approval" in refused.content.decode()
    ana_web.cookies["django_language"] = "pt-pt"  # the same refusal in Portuguese
    recusado = ana_web.post(screen, {"action": "fill", "slip": number, "idempotency_key": "f1"})
    html = recusado.content.decode()
    assert (f"a partida da mesa {TABLE} fechou antes de o talão de reforço {number} ser "
            "entregue: um reforço tardio altera o ganho da partida fechada") in html
    assert "a late fill moves" not in html
    ana_web.cookies["django_language"] = "en"
    asked = ana_web.post(screen, {"action": "ask_late_fill", "slip": number,
                                  "reason": "runner_delay", "explanation": "carried at the close",
                                  "idempotency_key": "f2"}, follow=True)
    assert "late fill asked for" in asked.content.decode()
    approval = Approval.objects.get(kind="late_fill")
    assert approval.details["shift_id"] == window
    approval_grant(approval_id=str(approval.id), metadata=act("rui", Role.PIT_BOSS))
    session = TableSession.objects.get(session_id=pit.session_id)
    assert (session.fills_amount, session.late_amount) == (Decimal("10.00"), Decimal("-10.00"))


def test_the_shift_screen_pages_its_movements_newest_first_with_the_whole_shifts_totals(
        window: str, ana_web: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17: the screen lists a page of movements (the newest first), never the whole
    shift; the totals under it are the whole shift's, whatever the page."""
    from cage import selectors

    monkeypatch.setattr(selectors, "ENTRIES_PER_PAGE", 2)
    for n in range(3):  # three sales of 100.00: a 100 chip for a 100 note
        cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chip_set=CHIP_SET,
                        chips={"100.00": 1}, cash={"100.00": 1}, metadata=ana(f"sale{n}"))
    cage.chips_redeem(shift_id=window, amount=Decimal("50.00"), chip_set=CHIP_SET,
                      chips={"25.00": 2}, cash={"50.00": 1}, metadata=ana("redeem"))
    # in: the vault's transfer, cash 20×100 + 20×50 + 50×20 + 50×10 = 4,500 and chips
    # 50×100 + 100×25 + 200×5 + 200×1 = 8,700, so 13,200; three sales 300 in (notes) and 300
    # out (chips); the redemption 50 in (chips) and 50 out (a note)
    totals = "€13,550.00", "€350.00"
    url = f"/cage/{CASINO}/shifts/{window}/"
    first = ana_web.get(url).content.decode()
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td>", first)
    assert [what for _n, what in rows] == ["Chips redeemed", "Chips sold"]  # the newest two
    newest = int(rows[0][0])
    assert int(rows[1][0]) == newest - 1
    assert all(t in first for t in totals)
    assert 'href="?page=2" rel="next"' in first
    assert 'rel="prev"' not in first
    second = ana_web.get(url + "?page=2").content.decode()
    assert [int(n) for n, _w in re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td>", second)] == [
        newest - 2, newest - 3]
    assert all(t in second for t in totals)  # the whole shift's, not the page's
    assert 'href="?page=1" rel="prev"' in second
    last = ana_web.get(url + "?page=999").content.decode()  # past the last: the last
    assert "<td>1</td><td>Shift opened</td>" in last
    assert ana_web.get(url + "?page=x").status_code == 200
