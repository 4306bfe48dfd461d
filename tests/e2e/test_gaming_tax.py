"""The accountant reads a month's gaming-tax return in the browser: its taxes, the parameters
in force with their legal sources, and a change with its author (docs/gaming-tax.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ledger.models import TaxParameterChange

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_accountant_changes_a_parameter_and_reads_the_return(
        demo: None, person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    accountant = person("contabilista")
    accountant.goto("/ledger/lisboa/gaming-tax/?month=2026-02")
    assert accountant.get_by_role("heading", name="Gaming-tax return · Casino Lisboa (demo) · "
                                  "2026-02 (EUR, PT)").is_visible()
    change = accountant.get_by_role("form", name="Change a parameter")
    change.get_by_label("Parameter").select_option("pt.contrapartida_minimum")
    change.get_by_label("Value", exact=True).fill("1200000.00")
    change.get_by_label("In force from").fill("2026-01-01")
    change.get_by_label("Legal source").fill("")
    change.get_by_role("button", name="Record the change").click()
    # no source: refused, nothing recorded
    assert accountant.get_by_role("alert").get_by_text("cite the legal source",
                                                       exact=False).is_visible()
    assert TaxParameterChange.objects.count() == 0
    change = accountant.get_by_role("form", name="Change a parameter")
    change.get_by_label("Parameter").select_option("pt.contrapartida_minimum")
    change.get_by_label("Value", exact=True).fill("1200000.00")
    change.get_by_label("In force from").fill("2026-01-01")
    change.get_by_label("Legal source").fill("concession contract, clause 7 (addendum 2)")
    change.get_by_role("button", name="Record the change").click()
    assert accountant.get_by_text("The change is recorded.").is_visible()
    shot(accountant, "gaming-tax-return")
    # no day closed: the contrapartida's minimum accrues a twelfth, 1,200,000.00 ÷ 12
    assert accountant.locator("table.tax-lines").get_by_role("row").filter(
        has_text="Annual contrapartida of the concession").get_by_text(
        "€100,000.00").first.is_visible()  # the money filter (issue 36)
    # each parameter by its name, never its code
    history = accountant.locator("table.history").get_by_role("row").filter(
        has_text="Annual contrapartida's contractual minimum")
    assert history.get_by_text("contabilista").is_visible()
    assert history.get_by_text("concession contract, clause 7 (addendum 2)").is_visible()
    assert accountant.locator("table.parameters").get_by_text(
        "Decreto-Lei n.º 422/89", exact=False).first.is_visible()
    with accountant.expect_download() as download:
        accountant.get_by_role("link", name="CSV").click()
    assert download.value.suggested_filename == "gaming-tax-lisboa-2026-02.csv"
