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
