"""The slot cashier's count: the cash at a window counted by note, witnessed by a cage
supervisor, held by the reconciliation against the window's cash in the ledger (1146.W)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from casino.errors import InvalidCommand, NotAllowed
from casino.models import Casino
from machines.models import SlotCashCount
from machines.services.cash import slot_cash_count
from reporting.machine_reconciliation import machine_lines

from .conftest import box_in_and_ticket_paid, person


def test_the_slot_cashiers_count_reconciles_with_its_cash(make_machine) -> None:
    make_machine("M001")
    now = timezone.now()
    casino = Casino.objects.get(code="lisboa")
    # 2 × 20.00 = 40.00 into the window from the box; a ticket of 15.00 paid out of it: 25.00
    box_in_and_ticket_paid(now)
    # the witness: not herself, not another cashier; a note the euro has not: refused
    with pytest.raises(NotAllowed):
        slot_cash_count(casino="lisboa", count_id="C1", window="SLOT1", notes={"20.00": 1},
                        witnessed_by="ana", metadata=person("ana"))
    with pytest.raises(NotAllowed):
        slot_cash_count(casino="lisboa", count_id="C1", window="SLOT1", notes={"20.00": 1},
                        witnessed_by="rui", metadata=person("ana"))
    with pytest.raises(InvalidCommand):
        slot_cash_count(casino="lisboa", count_id="C1", window="SLOT1", notes={"30.00": 1},
                        witnessed_by="sofia", metadata=person("ana"))
    assert not SlotCashCount.objects.exists()
    # 1 × 20.00 + 1 × 5.00 = 25.00: as the ledger says
    done = slot_cash_count(casino="lisboa", count_id="C1", window="SLOT1",
                           notes={"20.00": 1, "5.00": 1}, witnessed_by="sofia",
                           metadata=person("ana"))
    assert done.counted == "25.00"
    # a second count finds 20.00 only: 5.00 short, a line of the day
    slot_cash_count(casino="lisboa", count_id="C2", window="SLOT1", notes={"20.00": 1},
                    witnessed_by="sofia", metadata=person("ana"))
    lines = {str(x.subject): x for x in machine_lines(casino, casino.gaming_day(now))
             if str(x.what) == "cash counted against the ledger"}
    first, second = lines["slot cashier SLOT1, count C1"], lines["slot cashier SLOT1, count C2"]
    assert (first.platform, first.ledger, first.ok) == (Decimal("25.00"), Decimal("25.00"), True)
    assert (second.platform, second.ledger, second.difference) == (
        Decimal("20.00"), Decimal("25.00"), Decimal("-5.00"))
