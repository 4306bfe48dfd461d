"""The accountant reads a month's gaming-tax return in the browser: its taxes, the parameters
in force with their legal sources, and a change with its author (docs/gaming-tax.md)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from casino.context import person_metadata
from casino.models import Role
from ledger.taxes import tax_parameter_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_accountant_reads_the_return_and_the_changes_of_its_rules(
        demo: None, person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    tax_parameter_set(code="pt.contrapartida_minimum", value="1200000.00",
                      effective_from=dt.date(2026, 1, 1),
                      legal_source="concession contract, clause 7 (addendum 2)",
                      metadata=person_metadata(username="contabilista", role=Role.ACCOUNTANT,
                                               casino="lisboa"))
    accountant = person("contabilista")
    accountant.goto("/ledger/lisboa/gaming-tax/?month=2026-02")
    shot(accountant, "gaming-tax-return")
    assert accountant.get_by_role("heading", name="Gaming-tax return · Casino Lisboa (demo) · "
                                  "2026-02 (EUR, PT)").is_visible()
    taxes = accountant.locator("table.tax-lines")
    # no day closed: the minimum's twelfth, 1,200,000.00 ÷ 12
    assert taxes.get_by_role("row").filter(has_text="pt-contrapartida").get_by_text(
        "100000.00").first.is_visible()
    history = accountant.locator("table.history").get_by_role("row").filter(
        has_text="pt.contrapartida_minimum")
    assert history.get_by_text("contabilista").is_visible()
    assert history.get_by_text("concession contract, clause 7 (addendum 2)").is_visible()
    assert accountant.locator("table.parameters").get_by_text(
        "Decreto-Lei n.º 422/89", exact=False).first.is_visible()
    with accountant.expect_download() as download:
        accountant.get_by_role("link", name="CSV").click()
    assert download.value.suggested_filename == "gaming-tax-lisboa-2026-02.csv"
