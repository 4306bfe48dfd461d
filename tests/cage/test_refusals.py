
"""Refusals change nothing: each one leaves the event store exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest

from cage import services as cage
from casino.errors import Conflict, DomainError, InvalidCommand, NotAllowed, NotFound
from casino.money import parse_amount
from eventstore.models import StoredEvent

from .conftest import CHIP_SET, Pit, act, ana, bruno, carla, duarte, whole

pytestmark = pytest.mark.django_db


@dataclass
class Day:
    window: str
    vault: str
    pit: Pit


@pytest.fixture
def day(window: str, vault: str, pit: Pit) -> Day:
    return Day(window=window, vault=vault, pit=pit)


def _vault_counted_short(d: Day) -> str:
    """The vault counted by Carla with a 500.00 note missing, and explained."""
    from cage.selectors import shift_figures, shift_get

    figures = shift_figures(shift_get(casino="lisboa", shift_id=d.vault))
    cash = {str(f.denomination): f.expected for f in figures if f.kind == "cash"}
    chips = {CHIP_SET: {str(f.denomination): f.expected for f in figures if f.kind == "chips"}}
    cash["500.00"] -= 1
    cage.shift_count(shift_id=d.vault, **whole(cash, chips), metadata=carla())
    cage.variance_explain(shift_id=d.vault, explanation="miscounted bundle", metadata=carla())
    return d.vault


def _issued_fill(d: Day) -> str:
    slip = d.pit.fill({"100.00": 1})
    cage.fill_issue(shift_id=d.window, slip=slip, metadata=ana())
    return slip


def _voided_fill(d: Day) -> str:
    slip = d.pit.fill({"100.00": 1})
    d.pit.void("fill", slip)
    return slip


def _closed_window(d: Day) -> None:
    w2 = cage.shift_open(cage="w2", cash={}, metadata=bruno()).shift_id
    cage.shift_count(shift_id=w2, **whole(), metadata=bruno())
    cage.shift_close(shift_id=w2, metadata=bruno())


def _window_closed_on_a_count(d: Day) -> None:
    cage.shift_count(shift_id=d.window, **whole(), metadata=ana())
    cage.variance_explain(shift_id=d.window, explanation="all sent back", metadata=ana())
    cage.variance_approve(shift_id=d.window, metadata=duarte())
    cage.shift_close(shift_id=d.window, metadata=ana())


def _nothing(d: Day) -> None:
    return None


Setup = Callable[[Day], Any]
Refuse = Callable[[Day, Any], Any]

# name: (set-up, the refused command, the error, its code)
REFUSALS: dict[str, tuple[Setup, Refuse, type[DomainError], str | None]] = {
    "redeeming more chips than the window holds in cash": (
        _nothing,
        lambda d, _: cage.chips_redeem(shift_id=d.window, amount=Decimal("5000.00"),
                                       chips={"100.00": 50}, cash={"100.00": 50},
                                       metadata=ana()),
        Conflict, "not_enough"),
    "a transfer to a closed window": (
        _closed_window,
        lambda d, _: cage.transfer_send(shift_id=d.vault, to_cage="w2", cash={"100.00": 1},
                                        metadata=carla()),
        Conflict, "target_not_open"),
    "a transfer to a cage never opened": (
        _nothing,
        lambda d, _: cage.transfer_send(shift_id=d.window, to_cage="main",
                                        cash={"100.00": 1}, metadata=ana()),
        Conflict, "target_not_open"),
    "a transfer from one window straight to another": (
        lambda d: cage.shift_open(cage="w2", cash={}, metadata=bruno()),
        lambda d, _: cage.transfer_send(shift_id=d.window, to_cage="w2", cash={"100.00": 1},
                                        metadata=ana()),
        NotAllowed, "transfer_not_allowed"),
    "a fill from a window that does not hold those chips": (
        lambda d: d.pit.fill({"100.00": 51}),
        lambda d, slip: cage.fill_issue(shift_id=d.window, slip=slip, metadata=ana()),
        Conflict, "not_enough"),
    "a fill whose chips do not match the slip": (
        lambda d: d.pit.fill({"100.00": 2}),
        lambda d, slip: cage.fill_issue(shift_id=d.window, slip=slip,
                                        chips={"100.00": 1, "25.00": 4}, metadata=ana()),
        InvalidCommand, "slip_mismatch"),
    "a fill issued twice": (
        _issued_fill,
        lambda d, slip: cage.fill_issue(shift_id=d.window, slip=slip, metadata=ana()),
        Conflict, "slip_not_requested"),
    "a fill the pit voided": (
        _voided_fill,
        lambda d, slip: cage.fill_issue(shift_id=d.window, slip=slip, metadata=ana()),
        Conflict, "slip_not_requested"),
    "a fill slip that does not exist": (
        _nothing,
        lambda d, _: cage.fill_issue(shift_id=d.window, slip="F-9999", metadata=ana()),
        NotFound, None),
    "a fill from the vault": (
        lambda d: d.pit.fill({"100.00": 1}),
        lambda d, slip: cage.fill_issue(shift_id=d.vault, slip=slip, metadata=carla()),
        InvalidCommand, None),
    "a negative amount": (
        _nothing,
        lambda d, _: cage.chips_sell(shift_id=d.window, amount=parse_amount("-25.00"), chips={"25.00": 1},
                                     cash={"20.00": 1, "5.00": 1}, metadata=ana()),
        InvalidCommand, None),
    "a three-decimal amount": (
        _nothing,
        lambda d, _: cage.drop_box_receive(shift_id=d.window, session_id=d.pit.session_id,
                                           table="r1", amount=parse_amount("100.005", allow_zero=True),
                                           cash={"100.00": 1}, metadata=ana()),
        InvalidCommand, None),
    "a float amount": (
        _nothing,
        lambda d, _: cage.chips_redeem(shift_id=d.window, amount=parse_amount(100.5), chips={"100.00": 1},
                                       cash={"100.00": 1}, metadata=ana()),
        InvalidCommand, None),
    "an unknown cash denomination": (
        _nothing,
        lambda d, _: cage.chips_sell(shift_id=d.window, amount=Decimal("3.00"), chips={"1.00": 3},
                                     cash={"3.00": 1}, metadata=ana()),
        InvalidCommand, None),
    "a chip denomination the set does not have": (
        _nothing,
        lambda d, _: cage.chips_sell(shift_id=d.window, amount=Decimal("50.00"), chips={"50.00": 1},
                                     cash={"50.00": 1}, metadata=ana()),
        InvalidCommand, None),
    "a negative number of pieces": (
        _nothing,
        lambda d, _: cage.shift_count(shift_id=d.window, cash={"100.00": -1}, metadata=ana()),
        InvalidCommand, None),
    "cash that does not add up to the amount": (
        _nothing,
        lambda d, _: cage.chips_sell(shift_id=d.window, amount=Decimal("100.00"), chips={"100.00": 1},
                                     cash={"50.00": 1}, metadata=ana()),
        InvalidCommand, None),
    "a supervisor approving their own variance": (
        _vault_counted_short,
        lambda d, shift: cage.variance_approve(shift_id=shift, metadata=carla()),
        NotAllowed, "four_eyes"),
    "a cashier approving a variance": (
        _vault_counted_short,
        lambda d, shift: cage.variance_approve(shift_id=shift, metadata=ana()),
        NotAllowed, None),
    "closing before the variance is approved": (
        _vault_counted_short,
        lambda d, shift: cage.shift_close(shift_id=shift, metadata=carla()),
        Conflict, "variance_not_approved"),
    "an adjustment approved by whoever asked for it": (
        lambda d: cage.adjustment_request(shift_id=d.window, direction="in",
                                          cash={"10.00": 1}, reason="note found under a tray",
                                          metadata=carla()).adjustment_id,
        lambda d, adjustment: cage.adjustment_approve(adjustment_id=adjustment,
                                                      metadata=carla()),
        NotAllowed, "four_eyes"),
    "an adjustment without a reason": (
        _nothing,
        lambda d, _: cage.adjustment_request(shift_id=d.window, direction="in",
                                             cash={"10.00": 1}, reason="  ", metadata=ana()),
        InvalidCommand, None),
    "an adjustment taking out what the window does not hold": (
        _nothing,
        lambda d, _: cage.adjustment_request(shift_id=d.window, direction="out",
                                             cash={"500.00": 1}, reason="?", metadata=ana()),
        Conflict, "not_enough"),
    "a movement on a shift being counted": (
        lambda d: cage.shift_count(shift_id=d.window, **whole(), metadata=ana()),
        lambda d, _: cage.chips_sell(shift_id=d.window, amount=Decimal("5.00"), chips={"5.00": 1},
                                     cash={"5.00": 1}, metadata=ana()),
        Conflict, "shift_not_open"),
    "a second shift at a window already open": (
        _nothing,
        lambda d, _: cage.shift_open(cage="w1", cash={}, metadata=bruno()),
        Conflict, "shift_open_already"),
    "a blind count where a closing count exists": (
        _window_closed_on_a_count,
        lambda d, _: cage.shift_open(cage="w1", cash={"100.00": 1}, metadata=bruno()),
        InvalidCommand, None),
    "accepting a count that is not the last one": (
        _window_closed_on_a_count,
        lambda d, _: cage.shift_open(cage="w1", accept_previous=d.vault, metadata=bruno()),
        Conflict, None),
    "chips put into service by a cashier": (
        _nothing,
        lambda d, _: cage.chips_put_into_service(shift_id=d.vault, chips={"1.00": 1},
                                                 reference="x", metadata=ana()),
        NotAllowed, None),
    "chips put into service at a window": (
        _nothing,
        lambda d, _: cage.chips_put_into_service(shift_id=d.window, chips={"1.00": 1},
                                                 reference="x", metadata=carla()),
        InvalidCommand, None),
    "a cashier opening the vault": (
        lambda d: (cage.transfer_send(shift_id=d.vault, to_cage="w1",
                                      cash={"500.00": 40, "100.00": 280, "50.00": 180,
                                            "20.00": 450, "10.00": 450},
                                      chips={CHIP_SET: {"100.00": 450, "25.00": 700,
                                                        "5.00": 1800, "1.00": 1800}},
                                      metadata=carla()),
                   cage.shift_count(shift_id=d.vault, **whole(), metadata=carla()),
                   cage.shift_close(shift_id=d.vault, metadata=carla())),
        lambda d, _: cage.shift_open(cage="vault", metadata=ana()),
        NotAllowed, None),
    "a pit boss selling chips at the cage": (
        _nothing,
        lambda d, _: cage.chips_sell(shift_id=d.window, amount=Decimal("5.00"), chips={"5.00": 1},
                                     cash={"5.00": 1}, metadata=act("paulo", "pit_boss")),
        NotAllowed, None),
    "a shift of another casino": (
        _nothing,
        lambda d, _: cage.shift_close(
            shift_id=d.window,
            metadata=act("ana", "cashier").__class__(actor="ana", role="cashier",
                                                      casino="macau")),
        NotFound, None),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_a_refusal_records_nothing(day: Day, name: str) -> None:
    setup, refuse, error, code = REFUSALS[name]
    context = setup(day)
    before = StoredEvent.objects.count()
    with pytest.raises(error) as refused:
        refuse(day, context)
    assert StoredEvent.objects.count() == before
    if code is not None:
        assert refused.value.code == code
    assert refused.value.message
