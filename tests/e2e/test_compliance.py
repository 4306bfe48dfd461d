
"""A redemption of 2,500.00 refused until the patron is identified, from the cage's screen and
its patron picker; the compliance officers' report drafted, reviewed and sent from the alert,
out of the cashier's sight (docs/patrons.md)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from cage.services import cage_configure, chips_sell
from casino.context import person_metadata
from casino.models import Role
from compliance.services import patron_register

from .conftest import type_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def window(demo: None) -> str:
    cage_configure(code="w1", name="Window 1", kind="window", minimum_cash=Decimal("0.00"),
                   metadata=person_metadata(username="gestor", role=Role.ADMINISTRATOR,
                                            casino="lisboa"))
    return "w1"



def find_patron(form: Any, number: str) -> None:
    """The patron found by the passport shown, inside the cage form (htmx)."""
    form.get_by_text("find or register them here").click()
    finder = form.get_by_role("group", name="Find the patron")
    finder.get_by_label("Document").select_option("passport")
    finder.get_by_label("Number").fill(number)
    finder.get_by_label("Country").fill("PT")
    finder.get_by_role("button", name="Find").click()
    form.get_by_role("status", name="Patron").wait_for()

def test_the_cashier_identifies_the_patron_and_the_officers_report_the_alert(
        window: str, person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    cashier = person("caixa")
    cashier.goto("/cage/lisboa/")
    row = cashier.get_by_role("row").filter(has_text="Window 1")
    type_in(row, "Cash", {"100.00": 30})
    type_in(row, "Value chips", {"100.00": 30})
    row.get_by_role("button", name="Open on a blind count").click()
    cashier.wait_for_url("**/shifts/*/")
    shift_url = cashier.url

    cashier.get_by_role("link", name="Redemption").click()
    redeem = cashier.get_by_role("group", name="Redeem chips")
    redeem.get_by_label("Amount").fill("2500.00")
    type_in(redeem, "Chips received", {"100.00": 25})
    type_in(redeem, "Cash paid", {"100.00": 25})
    redeem.get_by_role("button", name="Redeem").click()
    cashier.get_by_text("needs the patron identified and verified first").wait_for()

    # the patron found by the document shown, and registered, inside the redemption's form:
    # the amounts typed stay (the refused form came back as typed)
    redeem = cashier.get_by_role("group", name="Redeem chips")
    redeem.get_by_text("find or register them here").click()
    finder = redeem.get_by_role("group", name="Find the patron")
    finder.get_by_label("Number").fill("11223344")
    finder.get_by_label("Country").fill("PT")
    finder.get_by_role("button", name="Find").click()
    form = redeem.get_by_role("group", name="Register the patron")
    form.get_by_label("Name").fill("Maria Ferreira")
    form.get_by_label("Date of birth").fill("1975-05-05")
    form.get_by_label("Nationality").fill("PT")
    form.get_by_label("Address").fill("Rua Nova 1, Lisboa")
    form.get_by_label("Document image (scan reference)").fill("scans/cc-1122.jpg")
    shot(cashier, "compliance-pick-caixa")
    form.get_by_role("button", name="Register").click()
    assert "Maria Ferreira" in redeem.get_by_role("status", name="Patron").inner_text()
    assert redeem.get_by_label("Amount").input_value() == "2500.00"
    redeem.get_by_role("button", name="Redeem").click()
    cashier.get_by_role("status").filter(has_text="chips redeemed").wait_for()

    # a second patron buys 3 x 800.00 (through the service): the linked alert
    shift_id = shift_url.rstrip("/").rsplit("/", 1)[-1]
    caixa = person_metadata(username="caixa", role=Role.CASHIER, casino="lisboa")
    other = patron_register(metadata=caixa, verified=True, name="Rui Costa",
                            document_type="passport", document_number="P998877",
                            document_country="PT", date_of_birth="1980-02-02",
                            nationality="PT", address="Rua Velha 2", pep=False,
                            document_image="scans/p-9988.jpg").patron_id
    for _ in range(3):
        chips_sell(shift_id=shift_id, amount=Decimal("800.00"), chips={"100.00": 8},
                   cash={"100.00": 8}, patron=other, metadata=caixa)

    officer = person("conformidade")
    officer.get_by_role("link", name="Compliance").first.click()
    alert = officer.get_by_role("row").filter(has_text="Linked movements reached the threshold")
    assert "2400.00" in alert.inner_text()
    assert "Rui Costa" in alert.inner_text()  # by name and number, never a UUID (issue 36)
    assert str(other) not in alert.inner_text()
    shot(officer, "compliance-alerts")
    alert.get_by_role("checkbox").check()
    officer.locator("textarea[name='narrative']").fill("Three buys of 800.00 in one night")
    officer.get_by_role("button", name="Draft the report").click()
    assert officer.get_by_text("suspicious-transaction report drafted").is_visible()
    assert officer.get_by_text("A second compliance officer reviews it.").is_visible()
    report_url = officer.url

    second = person("conformidade2")
    second.goto(report_url)
    second.get_by_role("button", name="Reviewed: it may be sent").click()
    assert second.locator("#report-status").inner_text() == "Reviewed"
    officer.reload()
    officer.get_by_label("The authority's reference").fill("UIF/2026/0042")
    officer.get_by_role("button", name="Record as sent").click()
    assert officer.locator("#report-status").inner_text() == "Sent"
    shot(officer, "compliance-report-sent")

    # the linking period, from the compliance navigation (issue 34): three gaming days
    officer.get_by_role("link", name="Linking period").click()
    officer.get_by_label("Gaming days").fill("3")
    officer.get_by_label("Why it changes").fill("the casino's policy of 2026")
    officer.get_by_role("button", name="Set the linking period").click()
    officer.get_by_text("linking period set").wait_for()
    assert officer.locator("#in-force-days").inner_text() == "3 gaming days"
    assert "conformidade" in officer.locator("#versions").inner_text()

    # the cashier sees neither the report nor the alerts
    assert cashier.goto(report_url).status == 403
    assert cashier.goto("/compliance/lisboa/alerts/").status == 403


def test_the_cashier_pays_a_redemption_by_casino_cheque(
        window: str, person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    cashier = person("caixa")
    cashier.goto("/cage/lisboa/")
    row = cashier.get_by_role("row").filter(has_text="Window 1")
    type_in(row, "Cash", {"100.00": 30})
    type_in(row, "Value chips", {"100.00": 30})
    row.get_by_role("button", name="Open on a blind count").click()
    cashier.wait_for_url("**/shifts/*/")
    caixa = person_metadata(username="caixa", role=Role.CASHIER, casino="lisboa")
    patron = patron_register(metadata=caixa, verified=True, name="Rui Costa",
                             document_type="passport", document_number="P998877",
                             document_country="PT", date_of_birth="1980-02-02",
                             nationality="PT", address="Rua Velha 2", pep=False,
                             document_image="scans/p-9988.jpg").patron_id

    # 1,500.00 bought by card, at the screen: no cash into the drawer
    sell = cashier.get_by_role("group", name="Sell chips")
    sell.get_by_label("Amount").fill("1500.00")
    type_in(sell, "Chips given", {"100.00": 15})
    find_patron(sell, "P998877")
    sell.get_by_label("Payment").select_option("card")
    sell.get_by_role("button", name="Sell").click()
    cashier.get_by_role("status").filter(has_text="chips sold").wait_for()

    # 1,600.00 by cheque is more than the 1,500.00 bought by card: refused, saying why
    cashier.get_by_role("link", name="Redemption").click()
    redeem = cashier.get_by_role("group", name="Redeem chips")
    redeem.get_by_label("Amount").fill("1600.00")
    type_in(redeem, "Chips received", {"100.00": 16})
    find_patron(redeem, "P998877")
    redeem.get_by_label("Payment").select_option("casino_cheque")
    redeem.get_by_label("Cheque number").fill("004711")
    redeem.get_by_role("button", name="Redeem").click()
    cashier.get_by_text("(1500.00 left)").wait_for()

    redeem = cashier.get_by_role("group", name="Redeem chips")
    assert "Rui Costa" in redeem.get_by_role("status", name="Patron").inner_text()  # kept
    redeem.get_by_label("Amount").fill("1500.00")
    type_in(redeem, "Chips received", {"100.00": 15})
    redeem.get_by_label("Payment").select_option("casino_cheque")
    redeem.get_by_label("Cheque number").fill("004711")
    redeem.get_by_role("button", name="Redeem").click()
    cashier.get_by_role("status").filter(has_text="chips redeemed").wait_for()
    shot(cashier, "cage-casino-cheque")
    from cage.models import CasinoCheque
    cheque = CasinoCheque.objects.get()
    assert (cheque.number, str(cheque.amount), str(cheque.patron_id)) == (
        "004711", "1500.00", str(patron))
