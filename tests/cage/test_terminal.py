"""The cage terminal for a queue (issue 36, item 4): one movement at a time, chosen by its
button; after a movement the same one comes back with its receipt (a PDF for an 80 mm roll);
the shift's movements found by kind or by what was typed; the patron found and registered
inside the sale's form (htmx), the sale's boxes untouched.

The window is the cage tests' (``tests/cage/conftest.py``): stocked from the vault."""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pytest
from django.test import Client
from pypdf import PdfReader

from cage import services as cage
from casino.models import Casino, Role

from .conftest import CASINO, CHIP_SET, ana
from .test_web import browser

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana_web(casino: Casino) -> Client:
    return browser("ana", Role.CASHIER)


def test_a_sale_comes_back_to_the_sale_with_its_receipt_for_an_80_mm_roll(
        window: str, ana_web: Client) -> None:
    screen = f"/cage/{CASINO}/shifts/{window}/"
    page = ana_web.get(screen).content.decode()
    # one movement's form at a time: the sale's, no redemption's, no jackpot's
    assert 'value="sell"' in page
    assert 'name="action" value="redeem"' not in page
    # 90.00 of chips (3 x 25 + 3 x 5) for a 100 note, a 10 note back
    answer = ana_web.post(screen, {
        "action": "sell", "m": "sell", "amount": "90.00", "idempotency_key": "s1",
        f"chips-{CHIP_SET}-25.00": "3", f"chips-{CHIP_SET}-5.00": "3",
        "cash-100.00": "1", "change-10.00": "1"})
    assert answer.status_code == 302
    assert re.fullmatch(rf"{screen}\?m=sell&receipt=\d+", answer["Location"])
    after = ana_web.get(answer["Location"]).content.decode()
    link = re.search(r'href="([^"]+receipts/\d+\.pdf)"', after)
    assert link is not None
    pdf = ana_web.get(link.group(1))
    assert pdf["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(pdf.content))
    # 80 mm = 80 / 25.4 x 72 = 226.77 points wide
    assert round(float(reader.pages[0].mediabox.width), 1) == 226.8
    text = reader.pages[0].extract_text()
    assert "Chips sold" in text
    assert "3 × 25.00\n75.00" in text  # pieces and their value
    assert "Amount\n€90.00" in text
    # in: the 100 note; out: 90.00 of chips and the 10.00 note of change
    assert "In\n€100.00" in text
    assert "Out\n€100.00" in text
    assert "Change given\n1 × 10.00" in text


def test_a_movement_without_a_receipt_is_a_404(window: str, ana_web: Client) -> None:
    # version 1 of the shift is its opening: not a movement with a receipt
    assert ana_web.get(f"/cage/{CASINO}/shifts/{window}/receipts/1.pdf").status_code == 404


def test_the_movements_are_found_by_kind_and_by_what_was_typed(window: str,
                                                               ana_web: Client) -> None:
    for n, amount in enumerate(("100.00", "25.00")):
        cage.chips_sell(shift_id=window, amount=Decimal(amount), chip_set=CHIP_SET,
                        chips={amount: 1}, cash={"100.00": 1} if n == 0 else {"20.00": 1,
                                                                              "5.00": 1},
                        metadata=ana(f"s{n}"))
    cage.chips_redeem(shift_id=window, amount=Decimal("50.00"), chip_set=CHIP_SET,
                      chips={"25.00": 2}, cash={"50.00": 1}, metadata=ana("r"))
    screen = f"/cage/{CASINO}/shifts/{window}/"
    sales = ana_web.get(screen, {"kind": "sale"}).content.decode()
    rows = re.findall(r"<tr><td>\d+</td><td>([^<]+)</td>", sales)
    assert rows == ["Chips sold", "Chips sold"]
    assert "2 movements found" in sales
    # the totals are those found: in 100.00 + 25.00 = 125.00, out the same in chips
    assert 'data-total="in">€125.00<' in sales
    by_amount = ana_web.get(screen, {"q": "50.00"}).content.decode()
    assert re.findall(r"<tr><td>\d+</td><td>([^<]+)</td>", by_amount) == ["Chips redeemed"]


def test_the_patron_is_found_and_registered_inside_the_sale_form(
        window: str, ana_web: Client, identified_patron: object) -> None:
    inline = f"/compliance/{CASINO}/patrons/inline/"
    missing = ana_web.post(inline, {"action": "find", "form": "sell",
                                    "document_type": "passport",
                                    "document_number": "P1234567",
                                    "document_country": "PT"}).content.decode()
    assert "register them here" in missing
    assert 'value="P1234567"' in missing  # the document as typed, kept
    registered = ana_web.post(inline, {
        "action": "register", "form": "sell", "idempotency_key": "reg1",
        "document_type": "passport", "document_number": "P1234567", "document_country": "PT",
        "name": "Rosa Teste", "date_of_birth": "1970-05-05", "nationality": "PT",
        "address": "Rua 2, Porto", "document_image": "scans/p1234567.jpg",
        "verified": "1"}).content.decode()
    assert "Rosa Teste" in registered, registered
    patron = re.search(r'name="patron" value="([0-9a-f-]{36})"', registered)
    assert patron is not None, registered
    found = ana_web.post(inline, {"action": "find", "form": "sell",
                                  "document_type": "passport", "document_number": "P1234567",
                                  "document_country": "PT"}).content.decode()
    assert f'name="patron" value="{patron.group(1)}"' in found
    assert 'id="sell-patron"' in found  # only the patron's part is drawn again
    refused = ana_web.post(inline, {"action": "register", "form": "sell",
                                    "idempotency_key": "reg2", "document_type": "passport",
                                    "document_number": "P7654321", "document_country": "PT",
                                    "name": "", "date_of_birth": "1970-05-05"})
    assert refused.status_code == 200
    assert 'role="alert"' in refused.content.decode()
