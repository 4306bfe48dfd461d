"""A property of the slot floor, lean: random spins of random machines, tickets printed and
taken, and readings at random moments: the win by meters is the simulated win, the ticket
liability in the ledger is tickets out less in, the reconciliation's lines are whole, and the
projections rebuilt from the events equal the live ones."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eventstore
from casino.models import Casino
from machines import meters as m
from machines.models import MachineDay
from machines.services.readings import meter_readings_record
from machines.services.tickets import ticket_issue, ticket_redeem
from reporting.machine_reconciliation import machine_lines

from .conftest import PAYTABLE, balance, floor, meters, money

CENT = Decimal("0.01")


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), spins=st.integers(1, 60), reads=st.integers(1, 3),
       tickets=st.integers(0, 3))
def test_metered_win_is_the_simulated_win_and_the_books_agree(
        make_machine, seed: int, spins: int, reads: int, tickets: int) -> None:
    from machines.models import Machine, SlotTicket

    # each example plays two new machines of its own on the test's one floor
    first = Machine.objects.count() + 1
    numbers = [make_machine(f"M{first:03d}"), make_machine(f"M{first + 1:03d}")]
    rng = random.Random(seed)
    table = m.parse_paytable(PAYTABLE)
    start = {n: m.from_data(Machine.objects.get(number=n).meters) for n in numbers}
    now = timezone.now()
    played = {n: [Decimal("0.00"), Decimal("0.00"), 0] for n in start}  # in, out, games
    for step in range(reads):
        for number in start:
            for _ in range(spins):
                bet = Decimal("0.10") * rng.randint(1, 5)
                played[number][0] += bet
                played[number][1] += bet * m.spin(table, rng)
                played[number][2] += 1
        meter_readings_record(casino="lisboa", readings=[
            {"machine": n, "reading_id": f"{step}",
             "read_at": (now + dt.timedelta(seconds=step + 1)).isoformat(),
             "meters": meters(coin_in=str(start[n].coin_in + played[n][0]),
                              coin_out=str(start[n].coin_out + played[n][1]),
                              games_played=start[n].games_played + played[n][2])}
            for n in start], source="sds", metadata=floor())
    out = Decimal("0.00")
    for t in range(tickets):
        amount = Decimal(rng.randint(1, 5000)) * CENT
        ticket_issue(casino="lisboa", validation=f"T{first}-{t}", machine=numbers[0],
                     amount=money(str(amount)), issued_at=now.isoformat(), metadata=floor())
        out += amount
        if rng.random() < 0.5:
            ticket_redeem(casino="lisboa", validation=f"T{first}-{t}", place="cage",
                          window="SLOT1", metadata=floor())
            out -= amount
    day = Casino.objects.get(code="lisboa").gaming_day(now + dt.timedelta(seconds=1))
    for number in start:
        simulated = played[number][0] - played[number][1]
        row = MachineDay.objects.get(machine=number, gaming_day=day)
        assert row.win == simulated
        assert row.games_played == played[number][2]
    # the ledger's tickets outstanding: printed less redeemed, over every example so far
    outstanding = sum((t.amount for t in SlotTicket.objects.filter(status="outstanding")),
                      Decimal("0.00"))
    assert balance("ticket_liability") == outstanding
    # and this example's own: tickets out less tickets in
    assert sum((t.amount for t in SlotTicket.objects.filter(
        status="outstanding", validation__startswith=f"T{first}-")), Decimal("0.00")) == out
    lines = [x for x in machine_lines(Casino.objects.get(code="lisboa"), day)
             if str(x.subject) not in ("tickets",) or str(x.what) == "tickets outstanding"]
    assert [x for x in lines if not x.ok and "by meters" not in str(x.what)] == []
    assert eventstore.check(["machines"]) == []
