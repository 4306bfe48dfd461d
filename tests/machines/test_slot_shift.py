"""The slot cashier's shift: a blind opening count, the window's movements while it is open
(boxes counted in, tickets and hand pays paid out), a blind closing count, its differences
explained and approved by a cage supervisor before it closes, posted to the over/short.
Figures worked by hand in the comments."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

import eventstore
from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Casino
from machines.models import SlotShift, SlotWindow
from machines.services.handpays import hand_pay_pay, hand_pay_record
from machines.services.shifts import (
    slot_shift_close,
    slot_shift_count,
    slot_shift_open,
    slot_shift_variance_explain,
)
from machines.services.tickets import ticket_issue, ticket_redeem
from reporting.machine_reconciliation import machine_lines

from .conftest import balance, box_in_and_ticket_paid, floor, money, person


def test_a_slot_cashiers_shift_from_its_blind_opening_to_its_close(make_machine) -> None:
    make_machine("M001", limit="1200.00")
    now = timezone.now()
    # the window was never counted: its first opening is cash brought in from outside,
    # 2 × 500.00 + 10 × 50.00 = 1,500.00, to the opening counts (2789)
    with pytest.raises(InvalidCommand):  # a note the euro has not
        slot_shift_open(casino="lisboa", window="SLOT1", notes={"30.00": 1},
                        metadata=person("ana"))
    assert not SlotShift.objects.exists()
    first = slot_shift_open(casino="lisboa", window="SLOT1",
                            notes={"500.00": 2, "50.00": 10}, metadata=person("ana"))
    assert (first.opening, first.book, first.opening_variance) == ("1500.00", "0.00", "1500.00")
    assert balance("opening_counts") == Decimal("1500.00")
    assert balance("slot_cash", "SLOT1") == Decimal("-1500.00")  # a debit: cash held
    with pytest.raises(Conflict):  # one shift at a time at a window
        slot_shift_open(casino="lisboa", window="SLOT1", notes={"50.00": 1},
                        metadata=person("rui"))
    with pytest.raises(Conflict):  # counted before it closes
        slot_shift_close(casino="lisboa", shift_id=first.shift_id, metadata=person("ana"))

    # the movements: a box of 2 × 20.00 = 40.00 in; a ticket of 15.00 and a hand pay of
    # 1,250.00 (a supervisor witnessing, above 1,000.00) out
    box_in_and_ticket_paid(now)
    hand_pay_record(casino="lisboa", machine="M001", handpay_id="H1", kind="jackpot",
                    amount=money("1250.00"), machine_event="EV-1", metadata=floor())
    hand_pay_pay(casino="lisboa", handpay_id="H1", window="SLOT1", slip="S-1",
                 witnessed_by="sofia", metadata=person("ana"))
    shift = SlotShift.objects.get(shift_id=first.shift_id)
    assert (shift.boxes_in, shift.tickets_paid, shift.hand_pays_paid) == (
        Decimal("40.00"), Decimal("15.00"), Decimal("1250.00"))

    # expected 1,500.00 + 40.00 − 15.00 − 1,250.00 = 275.00; counted blind 5 × 50.00 +
    # 1 × 20.00 = 270.00: 5.00 short
    counted = slot_shift_count(casino="lisboa", shift_id=first.shift_id,
                               notes={"50.00": 5, "20.00": 1}, metadata=person("ana"))
    assert (counted.expected, counted.counted, counted.variance) == ("275.00", "270.00", "-5.00")
    with pytest.raises(Conflict) as unexplained:
        slot_shift_close(casino="lisboa", shift_id=first.shift_id, metadata=person("ana"))
    assert unexplained.value.code == "variance_not_approved"
    # approved by a second person, a cage supervisor: not the counter, not another cashier
    for who in ("ana", "rui"):
        with pytest.raises(NotAllowed):
            slot_shift_variance_explain(casino="lisboa", shift_id=first.shift_id,
                                        explanation="a 5.00 note paid twice",
                                        approved_by=who, metadata=person("ana"))
    with pytest.raises(InvalidCommand):
        slot_shift_variance_explain(casino="lisboa", shift_id=first.shift_id,
                                    explanation=" ", approved_by="sofia",
                                    metadata=person("ana"))
    slot_shift_variance_explain(casino="lisboa", shift_id=first.shift_id,
                                explanation="a 5.00 note paid twice", approved_by="sofia",
                                metadata=person("ana"))
    closed = slot_shift_close(casino="lisboa", shift_id=first.shift_id, metadata=person("ana"))
    assert closed.status == "closed"
    # the 5.00 short: over/short debited, the window's cash down to the 270.00 counted
    assert balance("slot_cash_over_short", "SLOT1") == Decimal("-5.00")
    assert balance("slot_cash", "SLOT1") == Decimal("-270.00")
    assert SlotWindow.objects.get(window="SLOT1").cash == Decimal("270.00")

    # a ticket of 10.00 paid between shifts: the book is 260.00; the next cashier counts
    # 5 × 50.00 = 250.00 blind: 10.00 short at the opening, to explain before closing
    ticket_issue(casino="lisboa", validation="T2", machine="M001", amount=money("10.00"),
                 issued_at=now.isoformat(), metadata=floor())
    ticket_redeem(casino="lisboa", validation="T2", place="cage", window="SLOT1",
                  metadata=person("rui"))
    second = slot_shift_open(casino="lisboa", window="SLOT1", notes={"50.00": 5},
                             metadata=person("rui"))
    assert (second.opening, second.book, second.opening_variance) == (
        "250.00", "260.00", "-10.00")
    assert balance("slot_cash_over_short", "SLOT1") == Decimal("-15.00")
    counted = slot_shift_count(casino="lisboa", shift_id=second.shift_id,
                               notes={"50.00": 5}, metadata=person("rui"))
    assert (counted.expected, counted.variance) == ("250.00", "0.00")
    with pytest.raises(Conflict):  # the opening's 10.00 is not explained
        slot_shift_close(casino="lisboa", shift_id=second.shift_id, metadata=person("rui"))
    slot_shift_variance_explain(casino="lisboa", shift_id=second.shift_id,
                                explanation="ticket T2 paid without a shift open",
                                approved_by="sofia", metadata=person("rui"))
    slot_shift_close(casino="lisboa", shift_id=second.shift_id, metadata=person("rui"))
    assert balance("slot_cash", "SLOT1") == Decimal("-250.00")
    assert balance("opening_counts") == Decimal("1500.00")
    # the reconciliation: each shift's closing count against the window's cash in the ledger
    # up to its close (270.00, then 250.00)
    place = Casino.objects.get(code="lisboa")
    lines = [(x.platform, x.ledger, x.ok) for x in machine_lines(place, place.gaming_day(now))
             if str(x.what) == "closing count against the ledger"]
    assert lines == [(Decimal("270.00"), Decimal("270.00"), True),
                     (Decimal("250.00"), Decimal("250.00"), True)]
    assert eventstore.check(["machines", "ledger"]) == []
