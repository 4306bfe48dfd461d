"""The slot floor's reconciliation lines on one machine's whole day: meters, a ticket printed
and another taken, a hand pay, a box counted twice: every line agrees; then a difference shows."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from casino.models import Casino
from machines.services.counts import machine_box_confirm, machine_box_count
from machines.services.handpays import hand_pay_pay, hand_pay_record
from machines.services.readings import meter_readings_record
from machines.services.tickets import ticket_issue, ticket_redeem
from reporting.machine_reconciliation import machine_lines

from .conftest import floor, meters, money, person


def test_a_machines_whole_day_reconciles_and_a_missing_hand_pay_shows(make_machine) -> None:
    make_machine("M001")
    make_machine("M002")
    now = timezone.now()
    casino = Casino.objects.get(code="lisboa")
    day = casino.gaming_day(now)
    # a player puts 100.00 in notes into M001, plays 400 in, wins 330 out, cashes out a ticket
    # of 30.00 and locks up a jackpot of 1,500.00 (paid by hand), then M002 takes the ticket
    ticket_issue(casino="lisboa", validation="T1", machine="M001", amount=money("30.00"),
                 issued_at=now.isoformat(), metadata=floor())
    ticket_redeem(casino="lisboa", validation="T1", place="machine", machine="M002",
                  metadata=floor())
    hand_pay_record(casino="lisboa", machine="M001", handpay_id="H1", kind="jackpot",
                    amount=money("1500.00"), machine_event="EV-1", metadata=floor())
    hand_pay_pay(casino="lisboa", handpay_id="H1", window="SLOT1", slip="S1",
                 witnessed_by="sofia", metadata=person("ana"))
    read_at = (now + dt.timedelta(seconds=1)).isoformat()
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "a", "read_at": read_at,
         "meters": meters(coin_in="400.00", coin_out="330.00", jackpots="1500.00",
                          bills_in="100.00", tickets_out="30.00", games_played=400,
                          bills={"50.00": 2})},
        {"machine": "M002", "reading_id": "b", "read_at": read_at,
         "meters": meters(coin_in="30.00", coin_out="0.00", tickets_in="30.00",
                          games_played=30)},
    ], source="sds", metadata=floor())
    machine_box_count(casino="lisboa", machine="M001", drop_id="D1", notes={"50.00": 2},
                      window="SLOT1", metadata=person("ana"))
    machine_box_confirm(casino="lisboa", drop_id="D1", metadata=person("rui"))
    lines = machine_lines(casino, day)
    bad = [(str(x.subject), str(x.what), x.platform, x.ledger) for x in lines if not x.ok]
    assert bad == []
    by = {(str(x.subject), str(x.what)): x for x in lines}
    # M001 play: 400 − 330 − 0 contributions − 1,500 jackpot = −1,430.00 (its win by meters)
    assert by[("M001", "play by meters, less jackpots")].platform == Decimal("-1430.00")
    assert by[("M001", "hand pays by meters")].ledger == Decimal("1500.00")
    assert by[("tickets", "tickets out by meters")].platform == Decimal("30.00")
    assert by[("tickets", "tickets outstanding")].platform == Decimal("0.00")
    assert by[("boxes", "bills metered, not yet dropped")].platform == Decimal("0.00")
    # a cancelled credit the meters saw but nobody recorded as a hand pay: the line differs
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M002", "reading_id": "c",
         "read_at": (now + dt.timedelta(seconds=2)).isoformat(),
         "meters": meters(coin_in="30.00", coin_out="0.00", tickets_in="30.00",
                          cancelled_credits="12.00", games_played=30)}],
        source="sds", metadata=floor())
    lines = machine_lines(casino, day)
    bad = [(str(x.subject), str(x.what), x.difference) for x in lines if not x.ok]
    assert bad == [("M002", "hand pays by meters", Decimal("12.00"))]


def test_a_pools_contribution_meters_reconcile_against_its_liability(make_machine) -> None:
    from machines.services.handpays import slot_progressive_create

    from .conftest import admin

    slot_progressive_create(casino="lisboa", pool="sevens", name="Sevens link",
                            machines=["M001", "M002"], rate="1.5", start=money("1000.00"),
                            approval_reference="SRIJ-P-7", metadata=admin())
    make_machine("M001", pool="sevens")
    make_machine("M002", pool="sevens")
    now = timezone.now()
    casino = Casino.objects.get(code="lisboa")
    read_at = (now + dt.timedelta(seconds=1)).isoformat()
    # M001: 1,000.00 in at 1.5 % gives 15.00; M002: 200.00 in gives 3.00, but its own meter
    # says 2.00: the pool's line is 15.00 + 2.00 = 17.00 metered against 18.00 credited
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "a", "read_at": read_at,
         "meters": meters(coin_in="1000.00", coin_out="900.00", games_played=1000,
                          progressive_contributions="15.00")},
        {"machine": "M002", "reading_id": "b", "read_at": read_at,
         "meters": meters(coin_in="200.00", coin_out="100.00", games_played=200,
                          progressive_contributions="2.00")},
    ], source="sds", metadata=floor())
    by = {(str(x.subject), str(x.what)): x for x in machine_lines(casino, casino.gaming_day(now))}
    line = by[("sevens", "progressive contributions by meters")]
    assert (line.platform, line.ledger, line.difference) == (
        Decimal("17.00"), Decimal("18.00"), Decimal("-1.00"))
    assert not line.ok
