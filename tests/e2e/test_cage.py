"""A cashier's whole shift at the cage terminal, in Chromium, its figures checked against the
ledger: the handover from the previous cashier's count, a sale with change, a redemption, a fill
and a credit from the pit's queue (and a slip refused, which the pit sees at once), a jackpot
paid against its hit, a drop box from the count room, the blind count one note short, the
variance explained and approved by a supervisor, the close.

The setting is the cage tests' (``tests/cage/conftest.py``): window 1 stocked from the vault,
roulette table r1 whose pit boss asks for the slips, a blackjack pool's hit owed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User

from cage import services as cage
from cage.models import Shift, ShiftStatus
from cage.selectors import expected_count
from cage.tasks import shift_close_task
from casino.models import Membership, Role
from eventstore.models import StoredEvent
from games.models import Slip
from ledger.reports import account_balance
from tests.cage.conftest import (  # noqa: F401 - fixtures
    CASINO,
    Hit,
    Pit,
    act,
    cages,
    carla,
    casino,
    hit,
    pit,
    vault,
)

from .conftest import grid, log_in_on, type_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STOCK_CASH = {"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50}  # 4,500.00
STOCK_CHIPS = {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200}


@pytest.fixture
def handed_over(vault: str) -> str:  # noqa: F811
    """Bruno's shift at window 1, stocked from the vault, counted exactly and closed: the
    count Ana takes over."""
    bruno = act("bruno")
    shift = str(cage.shift_open(cage="w1", cash={}, metadata=bruno).shift_id)
    cage.transfer_send(shift_id=vault, to_cage="w1", cash=STOCK_CASH,
                       chips={"main": STOCK_CHIPS}, metadata=carla())
    cash, chips = expected_count(Shift.objects.get(id=shift))
    cage.shift_count(shift_id=shift, cash=cash, chips=chips, metadata=bruno)
    cage.shift_close(shift_id=shift, metadata=bruno)
    return shift


@pytest.fixture
def people(casino: Any) -> None:  # noqa: F811
    for name, role in (("ana", Role.CASHIER), ("carla", Role.CAGE_SUPERVISOR),
                       ("paulo", Role.PIT_BOSS)):
        user = User.objects.create_user(username=name, password=f"demo-{name}")
        Membership.objects.create(user=user, casino_id=CASINO, role=role)


@pytest.fixture
def in_process() -> Iterator[None]:
    """The close goes to the Celery workers: here they run in this process (the live server's
    thread), as without a broker (the broker's path is the worker test's)."""
    with mock.patch.object(shift_close_task, "delay",
                           side_effect=lambda *a: shift_close_task.apply(a)):
        yield


def done(page: Any, message: str) -> bool:
    """The page says the movement was recorded (its status message)."""
    page.get_by_role("status").filter(has_text=message).wait_for()
    return True


def test_a_cashier_s_whole_shift_at_the_cage_terminal(
        handed_over: str, pit: Pit, hit: Hit, people: None, in_process: None,  # noqa: F811
        new_page: Callable[[], Any], shot: Callable[[Any, str], None]) -> None:
    ana = new_page()
    log_in_on(ana, "ana", "demo-ana")
    # the home says what waits: the pit's slip
    fill = pit.fill({"25.00": 8})  # 200.00
    ana.goto("/")
    assert ana.get_by_text(f"Fill {fill} · table r1 · €200.00").is_visible()
    shot(ana, "home-cashier")

    # the handover: Bruno's closing count, accepted
    ana.goto(f"/cage/{CASINO}/")
    row = ana.get_by_role("row").filter(has_text="Window 1")
    handover = row.inner_text()
    assert "(bruno)" in handover
    assert "€13,200.00" in handover  # 4,500.00 of notes and 8,700.00 of chips
    row.get_by_role("button", name="Open: accept this closing count").click()
    ana.wait_for_url("**/shifts/*/")
    shift = Shift.objects.get(cage="w1", status=ShiftStatus.OPEN)
    assert shift.opened_by == "ana"

    # a sale: 90.00 of chips for a 100.00 note, 10.00 back; the change due as typed
    sale = ana.get_by_role("group", name="Sell chips")
    sale.get_by_label("Amount").fill("90.00")
    type_in(sale, "Chips given", {"25.00": 2, "5.00": 8})
    type_in(sale, "Cash received", {"100.00": 1})
    assert sale.get_by_label("Change due").inner_text() == "10.00"
    # the change is forgotten: refused, every box as typed, the reason beside the field
    sale.get_by_role("button", name="Sell").click()
    sale = ana.get_by_role("group", name="Sell chips")
    assert "the cash received less the change" in sale.get_by_role("alert").first.inner_text()
    assert grid(sale, "Cash received").get_by_label("100.00", exact=True).input_value() == "1"
    assert sale.get_by_label("Amount").input_value() == "90.00"
    type_in(sale, "Change given", {"10.00": 1})
    shot(ana, "cage-terminal-sale")
    sale.get_by_role("button", name="Sell").click()
    assert done(ana, "chips sold")

    # the sale's receipt at hand, for a receipt printer
    assert ana.get_by_role("link", name="Print the receipt (PDF)").is_visible()

    # a redemption, chosen by its key: 70.00 of chips for a 50 and a 20; what is still to pay
    # as the cash is typed
    ana.keyboard.press("Escape")
    ana.keyboard.press("r")
    redeem = ana.get_by_role("group", name="Redeem chips")
    type_in(redeem, "Chips received", {"25.00": 2, "5.00": 4})
    assert redeem.get_by_label("Total of Chips received").first.inner_text() == "70.00"
    assert redeem.get_by_label("Still to pay").inner_text() == "70.00"  # no amount: the chips'
    redeem.get_by_label("Amount").fill("70.00")
    type_in(redeem, "Cash paid", {"50.00": 1})
    assert redeem.get_by_label("Still to pay").inner_text() == "20.00"  # 70 - 50
    type_in(redeem, "Cash paid", {"50.00": 1, "20.00": 2})
    assert redeem.get_by_label("Still to pay").inner_text() == "-20.00"  # 70 - 90: counted over
    type_in(redeem, "Cash paid", {"50.00": 1, "20.00": 1})
    assert redeem.get_by_label("Still to pay").inner_text() == "0.00"
    redeem.get_by_role("button", name="Redeem").dblclick()  # a double click records it once
    assert done(ana, "chips redeemed")
    assert StoredEvent.objects.filter(event_type="ChipsRedeemed").count() == 1

    # the pit's queue: the fill issued, a credit received, a wrong slip refused
    credit = pit.credit({"5.00": 10})  # 50.00
    wrong = pit.fill({"1.00": 5})
    ana.get_by_role("link", name="Fill").click()
    queue = ana.get_by_role("table", name="Slips waiting for the cage")
    queue.get_by_role("button", name=f"Issue fill {fill}").click()
    assert done(ana, "fill issued")
    ana.get_by_role("link", name="Credit").click()
    ana.get_by_role("table", name="Slips waiting for the cage").get_by_role(
        "button", name=f"Receive credit {credit}").click()
    assert done(ana, "credit received")
    ana.get_by_role("link", name="Fill").click()
    refusing = ana.get_by_role("row").filter(has_text=wrong)
    refusing.get_by_label("Why refused").fill("the slip says table r2")
    refusing.get_by_role("button", name="Refuse").click()
    assert done(ana, "slip refused: the pit sees why")
    refused = Slip.objects.get(number=wrong)
    assert (refused.status, refused.refusal_reason) == ("refused", "the slip says table r2")
    paulo = new_page()
    log_in_on(paulo, "paulo", "demo-paulo")
    paulo.goto(f"/pit/sessions/{pit.session_id}/")
    assert paulo.get_by_role("row").filter(has_text=wrong).get_by_text(
        "refused by the cage (w1, ana): the slip says table r2").is_visible()
    pit.void("fill", wrong)
    # the fill's slip, printed
    pdf = ana.request.get(ana.get_by_role("link", name="Print the slip (PDF)").first
                          .get_attribute("href"))
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF")

    # a jackpot paid against its hit: 150.00 of what it owes, a note and two chips
    ana.get_by_role("link", name="Jackpot payout").click()
    jackpot = ana.get_by_role("group", name="Pay a jackpot")
    assert "owes €10,000.80" in jackpot.get_by_label("Hit awaiting payment").inner_text()
    jackpot.get_by_label("Amount").fill("150.00")
    type_in(jackpot, "Cash paid", {"100.00": 1})
    type_in(jackpot, "Chips paid", {"25.00": 2})
    jackpot.get_by_role("button", name="Pay").click()
    assert done(ana, "jackpot paid")

    # the drop box counted in the count room (two 20s), picked and received
    pit.close_and_count({"20.00": 2})
    ana.get_by_role("link", name="Drop box").click()
    drop = ana.get_by_role("group", name="Drop box from the count room")
    assert "table r1" in drop.get_by_label("Box counted by the count room").inner_text()
    type_in(drop, "Notes and coins in the box", {"20.00": 2})
    drop.get_by_role("button", name="Receive").click()
    assert done(ana, "drop box received")
    shot(ana, "cage-terminal")

    # worked out by hand: cash 100: 20 +1 (sale) -1 (jackpot) = 20; 50: 20 -1 = 19;
    # 20: 50 -1 (redeem) +2 (drop) = 51; 10: 50 -1 (change) = 49 -> 4,460.00.
    # chips 25: 100 -2 +2 -8 (fill) -2 (jackpot) = 90; 5: 200 -8 +4 +10 (credit) = 206
    assert account_balance(casino=CASINO, code="1110.w1") == Decimal("4460.00")

    # the blind count, one 10 note short
    ana.get_by_role("link", name="Count and close").click()
    assert "Expected" not in ana.locator("main").inner_text()
    shot(ana, "cage-blind-count")
    typed = {"cash-100.00": 20, "cash-50.00": 19, "cash-20.00": 51, "cash-10.00": 48,
             "chip-main-100.00": 50, "chip-main-25.00": 90, "chip-main-5.00": 206,
             "chip-main-1.00": 200}
    for box in ana.get_by_role("spinbutton").all():
        box.fill(str(typed.get(box.get_attribute("name") or "", 0)))
    ana.get_by_role("button", name="Record the count").click()
    ana.wait_for_url("**/variance/")
    ten = ana.get_by_role("row").filter(has_text="10.00").first
    assert ten.get_by_role("cell").all_inner_texts()[2:5] == ["49", "48", "-1"]
    assert "-€10.00" in ana.get_by_role("row", name="Variance, value").inner_text()
    ana.locator("textarea[name='explanation']").fill("a 10 note given twice as change")
    ana.get_by_role("button", name="Record the explanation").click()

    # the supervisor sees it waiting on her home, approves it at another machine
    carla_page = new_page()
    log_in_on(carla_page, "carla", "demo-carla")
    carla_page.goto("/")
    shot(carla_page, "home-cage-supervisor")
    carla_page.get_by_role("link", name="Variance of the shift at w1 (counted by ana)").click()
    shot(carla_page, "cage-variance-supervisor")
    carla_page.get_by_role("button", name="Approve the variance").click()
    assert carla_page.get_by_text("Approved by carla").is_visible()

    # the close, sent to the workers once the request commits
    ana.reload()
    ana.get_by_role("button", name="Close the shift").click()
    assert done(ana, "shift closed")
    assert Shift.objects.get(id=shift.id).status == ShiftStatus.CLOSED
    # the ledger: the window's cash is what was counted, the 10.00 short posted
    assert account_balance(casino=CASINO, code="1110.w1") == Decimal("4450.00")

    # the history of the shift: who, what, when
    ana.goto(f"/history/{CASINO}/shift/{shift.id}/")
    history = ana.get_by_role("table")
    assert history.get_by_role("cell", name="Chips sold").is_visible()
    assert history.get_by_role("cell", name="Shift closed").is_visible()
    shot(ana, "history-shift")

    # the same terminal in Portuguese: words, amounts the Portuguese way
    ana.goto(f"/cage/{CASINO}/shifts/{shift.id}/")
    with ana.expect_navigation():
        ana.get_by_label("Language").select_option(label="Português")
    shot(ana, "cage-shift-pt")
    movements = ana.get_by_role("table").first
    assert movements.get_by_role("cell", name="Fichas vendidas").is_visible()
    assert movements.get_by_role("cell", name=re.compile(r"^200,00\s€$")).first.is_visible()
