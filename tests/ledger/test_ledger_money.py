"""The ledger's pages write money one way (issue 36, item 7): every figure through the money
filter (``edge.web.money``), in the casino's currency, the page's language's way, and every
percentage with its unit."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from .conftest import CASINO, Floor
from .test_close_report import a_small_day, people  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

NUM = re.compile(r'<t[dh] class="num">([^<]*)</t[dh]>')


def cells(body: str) -> list[str]:
    """The figures of the page's number columns (not their headings)."""
    return [c for c in NUM.findall(body) if re.search(r"\d", c)]


def test_results_in_euros_and_percent_both_languages(
        floor: Floor, people: dict[str, User], client: object) -> None:  # noqa: F811
    day = a_small_day(floor)
    client.force_login(people["conta"])  # type: ignore[attr-defined]
    url = f"/ledger/{CASINO}/results/?from={day}&to={day}&by=table"
    english = client.get(url).content.decode()  # type: ignore[attr-defined]
    # r2: drop 300.00, win 2,715 − 2,600 − 500 + 300 = −85.00, hold −85 ÷ 300 = −28.33 %;
    # r1: win 100.00 on a drop of 200.00, hold 50.00 %
    assert "<td class=\"num\">€300.00</td>" in english
    assert "-€85.00" in english
    assert "-28.33%" in english
    assert "50.00%" in english
    portuguese = client.get(url, headers={"accept-language": "pt-pt"}).content.decode()  # type: ignore[attr-defined]
    assert "300,00\u00a0€" in portuguese
    assert "-85,00\u00a0€" in portuguese
    assert "-28,33\u00a0%" in portuguese
    for body in (english, portuguese):
        for cell in cells(body):  # no bare figure: each has its unit
            assert "€" in cell or "%" in cell, cell


@pytest.mark.parametrize("page", ["trial-balance/", "revenue/", "gaming-tax/", "", "desk/"])
def test_every_figure_of_the_ledger_pages_has_its_unit(
        floor: Floor, people: dict[str, User], client: object, page: str) -> None:  # noqa: F811
    day = a_small_day(floor)
    client.force_login(people["conta"])  # type: ignore[attr-defined]
    body = client.get(f"/ledger/{CASINO}/{page}?from={day}&to={day}").content.decode()  # type: ignore[attr-defined]
    figures = cells(body)
    if page == "trial-balance/":
        # the chips sold at w1 for 300.00 in notes: cash in, the debits' total at least that
        assert "€300.00" in figures
    for cell in figures:
        assert "€" in cell or "%" in cell, cell
