"""``reconcile``: every figure of a gaming day against the ledger, with its difference; exit
status 1 when anything differs or is unexplained (issue 13, item 8)."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from decimal import Decimal as D

import pytest
from django.core.management import call_command

from cage import services as cage
from cage.events import JackpotPaid
from cage.models import Shift
from eventstore import store
from games.models import TableSession
from reporting.reconciliation import reconcile

from .conftest import CASINO, Floor, cashier, notes


def a_day(floor: Floor) -> str:
    """Chips sold, a table played, a credit received, closed on its count, its box received."""
    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    session = floor.open_table("r1")
    floor.buy_in("r1", "200.00")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)  # the house wins 50
    floor.credit("r1", {"100.00": 2})
    # tray: 2,600 - 200 sold + 50 won - 200 credited = 2,250.00
    floor.close_table("r1", {"100.00": 8, "25.00": 40, "5.00": 90, "1.00": 0}, "200.00")
    return session


def receive(floor: Floor, session: str, amount: str) -> None:
    cage.drop_box_receive(shift_id=floor.window, session_id=session, table="r1",
                          cash=notes(amount), amount=Decimal(amount), metadata=cashier())


def day_of(floor: Floor) -> str:
    return str(Shift.objects.get(id=floor.window).gaming_day)


def run(day: str, *more: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("reconcile", "--casino", CASINO, "--day", day, *more, stdout=out)
    except SystemExit as stop:
        return int(stop.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_a_day_that_reconciles(floor: Floor) -> None:
    session = a_day(floor)
    receive(floor, session, "200.00")
    status, text = run(day_of(floor))
    assert status == 0, text
    assert "everything reconciles" in text
    report = reconcile(casino=CASINO, gaming_day=TableSession.objects.get(
        session_id=session).gaming_day)
    chips = next(line for line in report.lines if line.area == "chips")
    assert chips.platform == chips.ledger == D("450.00")  # 300 sold + 200 at the table - 50
    table = next(line for line in report.lines if line.area == "table")
    assert table.platform == table.ledger == D("50.00")
    status, text = run(day_of(floor), "--format", "json")
    data = json.loads(text)
    assert data["ok"] is True
    assert {line["area"] for line in data["lines"]} >= {"chips", "cage", "table", "drop"}


def test_a_box_received_short_is_a_difference(floor: Floor) -> None:
    session = a_day(floor)
    receive(floor, session, "150.00")
    status, text = run(day_of(floor))
    assert status == 1
    drop = next(line for line in reconcile(
        casino=CASINO, gaming_day=Shift.objects.get(id=floor.window).gaming_day).lines
        if line.area == "drop")
    assert (drop.platform, drop.ledger, drop.difference) == (D("200.00"), D("150.00"),
                                                             D("50.00"))
    assert "XX  drop" in text


def test_a_box_never_received_is_unexplained(floor: Floor) -> None:
    a_day(floor)
    status, text = run(day_of(floor))
    assert status == 1
    assert "not received at the cage yet" in text


def test_a_payout_against_a_pool_that_does_not_exist_shows(floor: Floor) -> None:
    session = a_day(floor)
    receive(floor, session, "200.00")
    # a payout recorded without a hit (as the platform once allowed): pool "x", round "y"
    shift = Shift.objects.get(id=floor.window)
    store.append(shift.stream, [JackpotPaid(
        payout_id="p1", shift_id=str(shift.id), window=shift.cage, pool_id="x", round_id="y",
        winner="someone", amount=D("100.00"), cash={"100.00": 1}, chip_set="", chips={})],
        expected_version=shift.version, metadata=cashier())
    status, _ = run(day_of(floor))
    assert status == 1
    line = next(line for line in reconcile(casino=CASINO, gaming_day=shift.gaming_day).lines
                if line.subject == "x")
    assert "no such pool" in line.what
    # 2783.x: 100.00 paid that no prize owed (a debit balance: the ledger says -100.00 owed)
    assert (line.platform, line.ledger, line.difference) == (D("0.00"), D("-100.00"),
                                                             D("100.00"))


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_an_unknown_casino_is_a_clear_error(db: None, fmt: str) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("reconcile", "--casino", "nowhere", "--day", "2026-01-01", "--format", fmt)


def test_the_accountants_page(floor: Floor, client: object) -> None:
    from django.contrib.auth.models import User

    from casino.models import Membership, Role

    session = a_day(floor)
    receive(floor, session, "150.00")
    user = User.objects.create_user(username="conta", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.ACCOUNTANT)
    client.force_login(user)  # type: ignore[attr-defined]
    page = client.get(f"/ledger/{CASINO}/reconciliation/?from={day_of(floor)}")  # type: ignore[attr-defined]
    body = page.content.decode()
    assert page.status_code == 200
    assert "1 line differs or is unexplained." in body
    assert "150.00" in body
    assert "200.00" in body


def test_through_the_api(floor: Floor) -> None:
    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    from casino.models import Membership, Role

    session = a_day(floor)
    receive(floor, session, "200.00")
    user = User.objects.create_user(username="igj", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.REGULATOR)
    api = APIClient()
    api.force_authenticate(user)
    data = api.get(f"/api/v1/ledger/{CASINO}/reconciliation/{day_of(floor)}/").json()
    assert data["ok"] is True
    assert api.get(f"/api/v1/ledger/{CASINO}/reconciliation/yesterday/").status_code == 400


def test_a_table_variance_is_unexplained_until_approved(floor: Floor) -> None:
    from casino.services.approvals import approval_grant, approval_request

    from .conftest import act

    floor.sell({"100.00": 2, "25.00": 4}, {"100.00": 3})
    session = floor.open_table("r1")
    # the tray should hold 2,600.00; it counts 2,599.00: a variance of -1.00
    floor.close_table("r1", {"100.00": 10, "25.00": 40, "5.00": 100, "1.00": 99}, "0.00")
    status, text = run(day_of(floor))
    assert status == 1
    assert "-1.00: awaiting approval" in text
    asked = approval_request(kind="table_variance", subject=session, reason="miscount",
                             explanation="a 1.00 chip fell under the table",
                             metadata=act("paulo", "pit_boss"))
    assert run(day_of(floor))[0] == 1  # asked for, not yet approved
    approval_grant(approval_id=asked.approval_id, metadata=act("rita", "pit_boss"))
    status, text = run(day_of(floor))
    assert status == 0, text


def test_a_late_slip_awaiting_approval_is_unexplained(floor: Floor) -> None:
    from casino.services.approvals import approval_request

    from .conftest import act

    session = a_day(floor)
    receive(floor, session, "200.00")
    assert run(day_of(floor))[0] == 0
    approval_request(kind="late_slip", subject="credit/C-9001", reason=_late_reason(),
                     explanation="the credit slip was found after the close",
                     details={"session_id": session, "chips": {"25.00": 2}},
                     metadata=act("paulo", "pit_boss"))
    status, text = run(day_of(floor))
    assert status == 1
    assert "late_slip credit/C-9001" in text


def _late_reason() -> str:
    from casino.services.approvals import procedure_of

    return procedure_of("late_slip").kind.reasons[0].code


@pytest.mark.django_db(transaction=True)
def test_a_sale_committed_while_it_reads_does_not_split_a_cage_from_its_accounts(
        floor: Floor, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the read of the cages and that of their accounts, another connection sells
    300.00 of chips at w1 for 300.00 in notes and commits: the report, read at one instant,
    sets each cage against its accounts as they stood together."""
    import threading

    from django.db import connection

    from cage import selectors as cage_selectors

    read_cages = cage_selectors.cage_list

    def meanwhile(*, casino: str) -> object:
        views = read_cages(casino=casino)

        def sell() -> None:
            try:
                floor.sell({"100.00": 3}, {"100.00": 3})
            finally:
                connection.close()

        other = threading.Thread(target=sell)
        other.start()
        other.join()
        return views

    day = Shift.objects.get(id=floor.window).gaming_day
    monkeypatch.setattr(cage_selectors, "cage_list", meanwhile)
    seen = reconcile(casino=CASINO, gaming_day=day)
    monkeypatch.setattr(cage_selectors, "cage_list", read_cages)

    def cage_lines(report: object) -> dict[tuple[str, str], tuple[D | None, D | None]]:
        return {(line.subject, line.what): (line.platform, line.ledger)
                for line in report.lines if line.area == "cage"}  # type: ignore[attr-defined]

    # w1 was stocked with 2,000 + 1,000 + 1,000 + 500 = 4,500.00 in notes; nothing sold yet
    assert cage_lines(seen)[("w1", "cash now")] == (D("4500.00"), D("4500.00"))
    assert all(line.ok for line in seen.lines if line.area in ("cage", "chips")), [
        line for line in seen.lines if not line.ok]
    # the sale was committed: read now, both sides have its 300.00
    now = cage_lines(reconcile(casino=CASINO, gaming_day=day))
    assert now[("w1", "cash now")] == (D("4800.00"), D("4800.00"))
