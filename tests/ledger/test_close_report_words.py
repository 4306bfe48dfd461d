"""The close report's PDF in words (issue 36, item 7): a game by its name and where a table's
house edges came from in a phrase, never a code (``french_roulette``, ``engine``); and
"provisional" on every page of a day not closed yet."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from reporting.close_report_files import close_report_pdf

from .conftest import Floor
from .test_close_report import report_of

pytestmark = pytest.mark.django_db


def test_the_pdf_says_words_and_provisional_on_an_open_day(floor: Floor) -> None:
    report = report_of(floor)
    pdf = close_report_pdf(report, provisional=True)
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
                    .split())
    assert "PROVISIONAL: the gaming day is not closed" in text
    assert "French roulette" in text
    assert "french_roulette" not in text
    assert "the games' mathematics" in text
    assert "engine" not in text.split()
    closed = " ".join(PdfReader(io.BytesIO(close_report_pdf(report))).pages[0].extract_text()
                      .split())
    assert "PROVISIONAL" not in closed
