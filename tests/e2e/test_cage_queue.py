"""A cashier serves a queue of ten movements at the cage terminal, in Chromium, each with its
receipt (issue 36, item 4): sales (one refused at its field and corrected, one to a patron
registered inside the form), redemptions, a fill and a credit from the pit's queue, a jackpot
payout, a transfer to the vault and an adjustment. The first sale is timed from the first key
to the receipt, and the terminal's weight is measured (``docs/benchmarks.md``).

The setting is the cage tests' (``tests/cage/conftest.py``): window 1 open and stocked from the
vault, roulette table r1 whose pit boss asks for the slips, a blackjack pool's hit owed."""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from pypdf import PdfReader

from casino.models import Membership, Role
from eventstore.models import StoredEvent
from ledger.reports import account_balance
from tests.cage.conftest import (  # noqa: F401 - fixtures
    CASINO,
    Hit,
    Pit,
    cages,
    casino,
    hit,
    pit,
    vault,
    window,
)

from .conftest import grid, log_in_on, type_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECEIPT_WIDTH = 226.8  # 80 mm in points: 80 / 25.4 x 72
TYPIST_MS = 150  # a practised cashier's key: 400 a minute


@pytest.fixture
def ana_at(casino: Any) -> None:  # noqa: F811
    user = User.objects.create_user(username="ana", password="demo-ana")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.CASHIER)


def choose(page: Any, key: str) -> None:
    """Esc leaves the box that has the cursor; the letter chooses the movement."""
    page.keyboard.press("Escape")
    with page.expect_navigation():
        page.keyboard.press(key)


def receipt(page: Any, what: str) -> None:
    """The movement was recorded and its receipt, a PDF for an 80 mm roll, prints it."""
    last = page.get_by_role("region", name="Last movement")
    assert what in last.inner_text()
    href = last.get_by_role("link", name="Print the receipt (PDF)").get_attribute("href")
    pdf = page.request.get(href)
    assert pdf.headers["content-type"] == "application/pdf"
    sheet = PdfReader(io.BytesIO(pdf.body())).pages[0]
    assert round(float(sheet.mediabox.width), 1) == RECEIPT_WIDTH
    assert what in sheet.extract_text()


def test_a_cashier_serves_a_queue_of_ten_movements_each_with_its_receipt(
        window: str, pit: Pit, hit: Hit, ana_at: None,  # noqa: F811
        new_page: Callable[[], Any], shot: Callable[[Any, str], None]) -> None:
    ana = new_page()
    log_in_on(ana, "ana", "demo-ana")
    ana.wait_for_url("**/")
    terminal = f"/cage/{CASINO}/shifts/{window}/"
    loaded: list[int] = []

    def weigh(response: Any) -> None:  # what the terminal's page brings over the wire
        if response.request.method == "GET" and response.status == 200:
            loaded.append(len(response.body()))
    fill = pit.fill({"25.00": 4})  # 100.00
    credit = pit.credit({"5.00": 6})  # 30.00

    # 1. a sale, timed from the first key to its receipt: 40.00 of chips for a 50 note, 10 back
    ana.on("response", weigh)
    ana.goto(terminal)
    ana.wait_for_load_state("networkidle")
    ana.remove_listener("response", weigh)
    page_bytes, height = sum(loaded), ana.evaluate("document.body.scrollHeight")
    boxes = ana.locator("main input:not([type=hidden]), main select").count()
    # the sale is the terminal's first movement, its amount box has the cursor: the first key
    # is the amount's. Typed at a practised cashier's pace, a key every 150 ms (400 a minute),
    # a box reached by a click.
    started = time.perf_counter()
    ana.keyboard.type("40.00", delay=TYPIST_MS)
    sale = ana.get_by_role("group", name="Sell chips")
    for name, denomination, pieces in (("Chips given", "25.00", "1"), ("Chips given", "5.00", "3"),
                                       ("Cash received", "50.00", "1"),
                                       ("Change given", "10.00", "1")):
        box = grid(sale, name).get_by_label(denomination, exact=True)
        box.click()
        box.press_sequentially(pieces, delay=TYPIST_MS)
    assert sale.get_by_label("Change due").inner_text() == "10.00"
    sale.get_by_role("button", name="Sell").click()
    receipt(ana, "Chips sold")
    seconds = time.perf_counter() - started
    shot(ana, "cage-terminal-queue")

    # 2. a sale refused at its field (the change forgotten), corrected, nothing scrolled for
    sale = ana.get_by_role("group", name="Sell chips")
    sale.get_by_label("Amount").fill("90.00")
    type_in(sale, "Chips given", {"25.00": 2, "5.00": 8})
    type_in(sale, "Cash received", {"100.00": 1})
    sale.get_by_role("button", name="Sell").click()
    sale = ana.get_by_role("group", name="Sell chips")
    alert = sale.get_by_role("alert").first
    assert "the cash received less the change" in alert.inner_text()
    assert alert.is_visible()
    assert ana.evaluate("window.scrollY + window.innerHeight") >= alert.bounding_box()["y"]
    type_in(sale, "Change given", {"10.00": 1})
    sale.get_by_role("button", name="Sell").click()
    receipt(ana, "Chips sold")

    # 3. a sale to a patron registered inside the form: the amount typed first stays
    sale = ana.get_by_role("group", name="Sell chips")
    sale.get_by_label("Amount").fill("25.00")
    type_in(sale, "Chips given", {"25.00": 1})
    type_in(sale, "Cash received", {"20.00": 1, "5.00": 1})
    sale.get_by_text("find or register them here").click()
    finder = sale.get_by_role("group", name="Find the patron")
    finder.get_by_label("Document").select_option("passport")
    finder.get_by_label("Number").fill("P0000042")
    finder.get_by_label("Country").fill("PT")
    finder.get_by_role("button", name="Find").click()
    registering = sale.get_by_role("group", name="Register the patron")
    registering.get_by_label("Name").fill("Rosa Teste")
    registering.get_by_label("Date of birth").fill("1970-05-05")
    registering.get_by_label("Nationality").fill("PT")
    registering.get_by_label("Address").fill("Rua 2, Porto")
    registering.get_by_label("Document image (scan reference)").fill("scans/p42.jpg")
    registering.get_by_role("button", name="Register").click()
    assert "Rosa Teste" in sale.get_by_role("status", name="Patron").inner_text()
    assert sale.get_by_label("Amount").input_value() == "25.00"
    sale.get_by_role("button", name="Sell").click()
    receipt(ana, "Chips sold")
    assert StoredEvent.objects.filter(event_type="PatronRegistered").count() == 1

    # 4. a redemption, chosen by its key: 50.00 of chips for a 50 note
    choose(ana, "r")
    redeem = ana.get_by_role("group", name="Redeem chips")
    redeem.get_by_label("Amount").fill("50.00")
    type_in(redeem, "Chips received", {"25.00": 2})
    type_in(redeem, "Cash paid", {"50.00": 1})
    redeem.get_by_role("button", name="Redeem").click()
    receipt(ana, "Chips redeemed")

    # 5. and 6. the pit's fill and credit, each chosen by its key
    choose(ana, "f")
    ana.get_by_role("button", name=f"Issue fill {fill}").click()
    receipt(ana, "Fill issued")
    choose(ana, "c")
    ana.get_by_role("button", name=f"Receive credit {credit}").click()
    receipt(ana, "Credit received")

    # 7. a jackpot payout: 120.00 of what the hit owes, a 100 note and four 5 chips
    choose(ana, "p")
    jackpot = ana.get_by_role("group", name="Pay a jackpot")
    jackpot.get_by_label("Amount").fill("120.00")
    type_in(jackpot, "Cash paid", {"100.00": 1})
    type_in(jackpot, "Chips paid", {"5.00": 4})
    jackpot.get_by_role("button", name="Pay").click()
    receipt(ana, "Jackpot paid")

    # 8. a transfer of ten 10 notes to the vault
    choose(ana, "t")
    transfer = ana.get_by_role("group", name="Transfer")
    transfer.locator("select[name=to_cage]").select_option(label="Vault")
    type_in(transfer, "Cash sent", {"10.00": 10})
    transfer.get_by_role("button", name="Send").click()
    receipt(ana, "Transfer sent")

    # 9. an adjustment asked for (a supervisor approves it): a 1 chip found
    choose(ana, "a")
    adjust = ana.get_by_role("group", name="Adjustment")
    adjust.get_by_label("Reason").fill("a 1 chip found under the counter")
    type_in(adjust, "Chips", {"1.00": 1})
    adjust.get_by_role("button", name="Ask").click()
    receipt(ana, "Adjustment")

    # 10. a redemption of 30.00 for a 20 and a 10
    choose(ana, "r")
    redeem = ana.get_by_role("group", name="Redeem chips")
    redeem.get_by_label("Amount").fill("30.00")
    type_in(redeem, "Chips received", {"5.00": 6})
    type_in(redeem, "Cash paid", {"20.00": 1, "10.00": 1})
    redeem.get_by_role("button", name="Redeem").click()
    receipt(ana, "Chips redeemed")

    # the shift's sales found among its movements
    ana.get_by_label("Kind").select_option(label="Sales")
    ana.get_by_role("button", name="Find").click()
    assert "3 movements found" in ana.locator("main").inner_text()

    # worked out by hand, the window's cash (4,500.00 from the vault): +50 -10 (sale 1),
    # +100 -10 (sale 2), +25 (sale 3), -50 (redemption), -100 (jackpot), -100 (transfer),
    # -30 (redemption) = 4,375.00
    assert account_balance(casino=CASINO, code="1110.w1") == Decimal("4375.00")
    report = os.environ.get("E2E_MEASURE", "")
    if report:
        with open(report, "a") as out:
            out.write(f"sale_seconds={seconds:.2f} page_bytes={page_bytes} boxes={boxes} "
                      f"height_px={height}\n")
    assert seconds < 10
