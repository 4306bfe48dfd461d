"""The demo's slot floor: a day of twelve machines spun by the simulator; the win by meters is
the simulated win, and every reconciliation line of the slot floor is whole; a second day on
the same floor too."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum
from django.utils import timezone

import eventstore
from casino.models import Casino
from demo.machines import play_floor
from machines.models import HandPay, MachineDay, SlotShift, SlotTicket
from reporting.machine_reconciliation import machine_lines

from .conftest import balance


def test_a_demo_day_of_the_floor_reconciles(casino: str) -> None:
    first = play_floor("lisboa", seed=7, machines=12)
    place = Casino.objects.get(code="lisboa")
    day = place.gaming_day(timezone.now())
    metered = MachineDay.objects.filter(gaming_day=day).aggregate(win=Sum("win"))["win"]
    assert metered == first["simulated_win"]
    second = play_floor("lisboa", seed=7, machines=12)
    metered = MachineDay.objects.filter(gaming_day=day).aggregate(win=Sum("win"))["win"]
    assert metered == first["simulated_win"] + second["simulated_win"]
    bad = [(str(x.subject), str(x.what), x.platform, x.ledger) for x in machine_lines(place, day)
           if not x.ok]
    assert bad == []
    # two jackpots and two progressive hits, all paid (under the four-eyes threshold)
    assert HandPay.objects.filter(status="paid").count() == 4
    outstanding = sum((t.amount for t in SlotTicket.objects.filter(status="outstanding")),
                      Decimal("0.00"))
    assert balance("ticket_liability") == outstanding
    # the slot cashier opened and closed a shift each time: the first on the float brought in
    # (5,000.00, the opening counts), the second on what the first closed on; the drawer as
    # the ledger has it
    shifts = list(SlotShift.objects.order_by("opened_at"))
    assert [s.status for s in shifts] == ["closed", "closed"]
    assert (shifts[0].first, shifts[0].opening) == (True, Decimal("5000.00"))
    assert (shifts[1].first, shifts[1].opening, shifts[1].opening_variance) == (
        False, shifts[0].counted, Decimal("0.00"))
    assert balance("opening_counts") == Decimal("5000.00")
    assert balance("slot_cash", "SLOT") == -shifts[1].counted
    assert eventstore.check(["machines", "ledger"]) == []
