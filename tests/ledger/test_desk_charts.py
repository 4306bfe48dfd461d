"""The desk's charts as images a PDF keeps (issue 36, item 9): the same bars as the desk's SVG,
drawn into a PDF with the period, the game by its name and each figure in the casino's
currency."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from .conftest import CASINO, Floor
from .test_desk import _day_with_results, accountant

pytestmark = pytest.mark.django_db


def test_the_desk_s_charts_print_as_a_pdf(floor: Floor) -> None:
    today = _day_with_results(floor)
    client = accountant()
    assert f'href="/ledger/{CASINO}/desk/charts.pdf"' in client.get(
        f"/ledger/{CASINO}/desk/").content.decode()
    pdf = client.get(f"/ledger/{CASINO}/desk/charts.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert today in text
    assert "Win by game" in text
    assert "French roulette" in text  # a word, never french_roulette
    assert "-€330.00" in text  # +350 - 20 by hand (tests/ledger/test_desk.py)
