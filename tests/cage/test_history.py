"""The history page of a shift (issue 17): each event in words (who, in which role, what, when,
and what it carried, amounts in the casino's currency), and a count that is blind kept from a
reader who may not see it, as on the shift's own screens."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal

import pytest

from cage import services as cage
from casino.models import Role
from edge.web.labels import EVENTS, FIELDS
from eventstore.events import registered_event_types
from shell.web.history import NOT_SHOWN

from .conftest import CASINO, CHIP_SET, ana, carla
from .test_blind_count import held
from .test_web import browser

pytestmark = pytest.mark.django_db


def test_every_field_of_every_labelled_event_is_shown_or_left_out_with_a_reason() -> None:
    classes = registered_event_types()
    missing = {f"{name}.{f.name}" for name, cls in classes.items() if name in EVENTS
               for f in dataclasses.fields(cls) if f.name not in FIELDS and f.name not in NOT_SHOWN}
    assert not missing
    assert not set(FIELDS) & set(NOT_SHOWN)  # one or the other, never both
    assert all(reason for reason in NOT_SHOWN.values())


def _cells(html: str) -> list[str]:
    """Each row of the history as its text (the tags dropped, spaces made one)."""
    rows = re.findall(r"<tr>(.*?)</tr>", html, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_a_shifts_history_says_each_movement_in_words(window: str) -> None:
    # a sale of 130.00: a 100, a 25 and a 5 chip for a 100 and a 50 note, a 20 back
    cage.chips_sell(shift_id=window, amount=Decimal("130.00"), chip_set=CHIP_SET,
                    chips={"100.00": 1, "25.00": 1, "5.00": 1}, cash={"100.00": 1, "50.00": 1},
                    change={"20.00": 1}, metadata=ana("sale"))
    page = browser("carla", Role.CAGE_SUPERVISOR).get(f"/history/{CASINO}/shift/{window}/")
    assert page.status_code == 200
    rows = _cells(page.content.decode())
    sale = next(r for r in rows if "Chips sold" in r)
    assert "ana (Cashier)" in sale
    assert "Amount: €130.00" in sale
    assert "Chips: 1 × 100.00 · 1 × 25.00 · 1 × 5.00" in sale  # the largest first
    assert "Cash: 1 × 100.00 · 1 × 50.00" in sale
    assert "Change given: 1 × 20.00" in sale
    assert "Chip set: main" in sale
    assert "Payment: Cash" in sale  # the code "cash" said as a word
    assert "transaction" not in sale.lower()  # its id is the page's business, not a reader's
    received = next(r for r in rows if "Transfer received" in r)
    assert "From: vault" in received
    assert "Amount: €13,200.00" in received  # cash 4,500.00 and chips 8,700.00 from the vault
    assert "carla (Cage supervisor)" in received
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", sale)  # when


def test_a_blind_count_is_kept_from_another_cashier_and_shown_to_a_supervisor(
        window: str) -> None:
    # Ana counts one 20 short (49 of 50): a variance of -20.00 waiting for approval
    cage.shift_count(shift_id=window, **held(dict({"100.00": 20, "50.00": 20, "20.00": 49,
                                                   "10.00": 50})), metadata=ana())
    url = f"/history/{CASINO}/shift/{window}/"
    bruno = _cells(browser("bruno", Role.CASHIER).get(url).content.decode())
    counted = next(r for r in bruno if "Shift counted" in r)
    assert "The count is blind" in counted
    assert "× 20.00" not in counted  # the count's pieces (a time such as 17:49 holds a 49)
    assert "Variance" not in counted
    assert "€-20.00" not in " ".join(bruno)
    opened = next(r for r in bruno if "Shift opened" in r)
    assert "The count is blind" in opened  # its contents, with the movements, give the answer
    supervisor = _cells(browser("carla2", Role.CAGE_SUPERVISOR).get(url).content.decode())
    counted = next(r for r in supervisor if "Shift counted" in r)
    assert "49 × 20.00" in counted
    assert "Variance in cash: -1 × 20.00" in counted
    assert "Variance value: -€20.00" in counted or "Variance value: €-20.00" in counted
    # once approved, the count is the shift's history for every cashier (docs/cage.md)
    cage.variance_explain(shift_id=window, explanation="a note paid twice", metadata=ana())
    cage.variance_approve(shift_id=window, metadata=carla())
    again = _cells(browser("bruno2", Role.CASHIER).get(url).content.decode())
    assert "49 × 20.00" in next(r for r in again if "Shift counted" in r)
    assert "Explanation: a note paid twice" in next(r for r in again if "Variance explained" in r)
