"""A cashier's shift from the cage's screens, and its variance approved by a supervisor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from casino.cage.services import cage_configure
from casino.context import person_metadata
from casino.models import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def window(demo: None) -> str:
    cage_configure(code="w1", name="Window 1", kind="window", minimum_cash="0.00",
                   metadata=person_metadata(username="gestor", role=Role.ADMINISTRATOR,
                                            casino="lisboa"))
    return "w1"


def test_a_cashier_sells_chips_counts_blind_and_the_supervisor_approves_the_variance(
        window: str, person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    cashier = person("caixa")
    cashier.get_by_role("region", name="Casino Lisboa (demo)").get_by_role(
        "link", name="Cage").click()
    # a window never counted opens on a blind count
    row = cashier.get_by_role("row").filter(has_text="Window 1")
    row.get_by_label("Cash").fill("100.00:20")
    row.get_by_label("Value chips").fill("25.00:40")
    row.get_by_role("button", name="Open on a blind count").click()
    cashier.wait_for_url("**/shifts/*/")
    assert cashier.get_by_text("shift opened at w1").is_visible()

    sale = cashier.get_by_role("group", name="Sell chips")
    sale.get_by_label("Amount").fill("100.00")
    sale.get_by_label("Chips").fill("25.00:4")
    sale.get_by_label("Cash received").fill("100.00:1")
    sale.get_by_role("button", name="Sell").click()
    assert cashier.get_by_text("chips sold").is_visible()
    assert cashier.get_by_role("cell", name="ChipsSold").is_visible()
    shot(cashier, "cage-shift-caixa")

    # the blind count: a box per denomination and not a figure of what should be there
    cashier.get_by_role("link", name="Count and close").click()
    shot(cashier, "cage-count-caixa")
    body = cashier.locator("main").inner_text()
    assert "Expected" not in body
    assert "2100" not in body  # the cash the window should hold
    assert cashier.get_by_role("spinbutton").count() > 10
    assert all(box.input_value() == "" for box in cashier.get_by_role("spinbutton").all())
    for box in cashier.get_by_role("spinbutton").all():  # every box is required: 0 where none
        box.fill("0")
    cashier.locator("input[name='cash-100.00']").fill("20")  # one note short
    cashier.locator("input[name='chip-main-25.00']").fill("36")
    cashier.get_by_role("button", name="Record the count").click()

    # the variance screen: expected, counted and the variance, by denomination
    cashier.wait_for_url("**/variance/")
    line = cashier.get_by_role("row").filter(has_text="100.00").first
    assert line.get_by_role("cell").all_inner_texts()[2:5] == ["21", "20", "-1"]
    assert "-100.00" in cashier.get_by_role("row", name="Variance, value").inner_text()
    cashier.locator("textarea[name='explanation']").fill("a note paid twice at the window")
    cashier.get_by_role("button", name="Record the explanation").click()
    assert cashier.get_by_text("Waiting for a cage supervisor's approval.").is_visible()
    assert cashier.get_by_role("button", name="Approve the variance").count() == 0

    # the supervisor, at another machine, approves; the cashier closes
    supervisor = person("supervisor")
    supervisor.goto(cashier.url)
    shot(supervisor, "cage-variance-supervisor")
    supervisor.get_by_role("button", name="Approve the variance").click()
    assert supervisor.get_by_text("Approved by supervisor").is_visible()
    cashier.reload()
    cashier.get_by_role("button", name="Close the shift").click()
    assert cashier.get_by_text("shift closed").is_visible()
