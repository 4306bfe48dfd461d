"""A hand pay against the machine's event, four eyes and identification; a progressive pool fed
by its machines' coin in, hit and reset; the count room's two counters and a variance."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound
from compliance.services import patron_register
from machines.models import HandPay, MachineBox, SlotProgressive
from machines.services.counts import (
    machine_box_confirm,
    machine_box_count,
    machine_box_variance_explain,
)
from machines.services.handpays import (
    hand_pay_pay,
    hand_pay_record,
    slot_progressive_create,
    slot_progressive_hit,
)
from machines.services.readings import meter_readings_record

from .conftest import admin, balance, floor, meters, money, person

MARIA = {
    "name": "Maria Antónia Ferreira", "document_type": "id_card",
    "document_number": "12345678 9 ZZ1", "document_country": "PT",
    "date_of_birth": "1971-04-02", "nationality": "PT",
    "address": "Rua das Flores 12, 1200-195 Lisboa", "pep": False,
    "document_image": "scans/2026/12/cc-0001.jpg",
}


def test_a_hand_pay_is_paid_at_the_cage_with_four_eyes_and_identification(
        make_machine) -> None:
    make_machine("M001", limit="1200.00")
    with pytest.raises(InvalidCommand) as within:
        hand_pay_record(casino="lisboa", machine="M001", handpay_id="H0", kind="jackpot",
                        amount=money("1000.00"), machine_event="EV-0", metadata=floor())
    assert within.value.code == "within_machine_limit"
    hand_pay_record(casino="lisboa", machine="M001", handpay_id="H1", kind="jackpot",
                    amount=money("2500.00"), machine_event="EV-17", metadata=floor())
    # recorded: the jackpot is the machine's cost (revenue −2,500.00), owed until paid
    assert balance("machine_revenue", "M001") == Decimal("-2500.00")
    assert balance("hand_pays_payable") == Decimal("2500.00")
    # 2,500.00 > 1,000.00: a second person; ana cannot witness herself
    with pytest.raises(NotAllowed):
        hand_pay_pay(casino="lisboa", handpay_id="H1", window="C1", slip="S-1",
                     metadata=person("ana"))
    with pytest.raises(NotAllowed):
        hand_pay_pay(casino="lisboa", handpay_id="H1", window="C1", slip="S-1",
                     witnessed_by="ana", metadata=person("ana"))
    # 2,500.00 ≥ 2,000.00 (Lei 83/2017, art. 76.º): the patron identified and verified
    with pytest.raises(Conflict) as aml:
        hand_pay_pay(casino="lisboa", handpay_id="H1", window="C1", slip="S-1",
                     witnessed_by="sofia", metadata=person("ana"))
    assert aml.value.code == "identification_required"
    # a reference the compliance registry does not know is refused, nothing recorded
    with pytest.raises(NotFound) as unknown_patron:
        hand_pay_pay(casino="lisboa", handpay_id="H1", window="C1", slip="S-1",
                     witnessed_by="sofia", patron="7a1d2c44-0000-4000-8000-000000000000",
                     metadata=person("ana"))
    assert unknown_patron.value.code == "unknown_patron"
    unverified = str(patron_register(metadata=person("ana"), window="C1", **{
        **MARIA, "document_number": "87654321 0 ZZ2", "document_image": ""}).patron_id)
    with pytest.raises(Conflict) as not_verified:
        hand_pay_pay(casino="lisboa", handpay_id="H1", window="C1", slip="S-1",
                     witnessed_by="sofia", patron=unverified, metadata=person("ana"))
    assert not_verified.value.code == "verification_required"
    maria = str(patron_register(metadata=person("ana"), window="C1", verified=True,
                                **MARIA).patron_id)
    paid = hand_pay_pay(casino="lisboa", handpay_id="H1", window="C1", slip="S-1",
                        witnessed_by="sofia", patron=maria, metadata=person("ana"))
    assert paid.status == "paid"
    assert balance("hand_pays_payable") == Decimal("0.00")
    assert balance("slot_cash", "C1") == Decimal("2500.00")  # paid out of the cage
    with pytest.raises(Conflict):
        hand_pay_pay(casino="lisboa", handpay_id="H1", window="C1", slip="S-2",
                     witnessed_by="sofia", patron=maria, metadata=person("ana"))
    with pytest.raises(NotFound) as unknown:
        hand_pay_pay(casino="lisboa", handpay_id="H404", window="C1", slip="S-3",
                     metadata=person("ana"))
    assert unknown.value.code == "unknown_hand_pay"
    row = HandPay.objects.get(handpay_id="H1")
    assert (row.witnessed_by, row.paid_by, row.machine_event) == ("sofia", "ana", "EV-17")
    assert row.patron == maria  # the registry's reference, no name


def test_a_progressive_pool_fed_by_coin_in_hit_and_reset(casino: str, make_machine) -> None:
    slot_progressive_create(casino="lisboa", pool="sevens", name="Sevens link",
                            machines=["M001", "M002"], rate="1.5", start=money("1000.00"),
                            approval_reference="SRIJ-P-7", metadata=admin())
    make_machine("M001", pool="sevens")
    make_machine("M002", pool="sevens")
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "a", "read_at": "2026-12-07T10:00:00Z",
         "meters": meters(coin_in="2000.00", coin_out="1700.00", games_played=2000)},
        {"machine": "M002", "reading_id": "b", "read_at": "2026-12-07T10:00:00Z",
         "meters": meters(coin_in="1000.00", coin_out="900.00", games_played=1000)},
    ], source="sds", metadata=floor())
    # 1.5 % of 2,000 = 30.00 and of 1,000 = 15.00: the pool 1,000 + 45 = 1,045.00
    pool = SlotProgressive.objects.get(pool="sevens")
    assert pool.amount == Decimal("1045.00")
    assert balance("slot_progressive", "sevens") == Decimal("1045.00")
    # revenue of M001: 2,000 − 1,700 − 30 = 270.00
    assert balance("machine_revenue", "M001") == Decimal("270.00")
    hit = slot_progressive_hit(casino="lisboa", pool="sevens", machine="M002",
                               handpay_id="HP1", machine_event="EV-PROG-1", metadata=floor())
    assert hit.amount == "1000.00"  # reset to start
    pool.refresh_from_db()
    assert (pool.amount, pool.won, pool.hits, pool.funded) == (
        Decimal("1000.00"), Decimal("1045.00"), 1, Decimal("2000.00"))
    # the pool's liability: 1,045 − 1,045 (to the hand pay) + 1,000 (the reset) = 1,000.00
    assert balance("slot_progressive", "sevens") == Decimal("1000.00")
    assert balance("hand_pays_payable") == Decimal("1045.00")
    assert HandPay.objects.get(handpay_id="HP1").kind == "progressive"


def test_the_count_room_counts_twice_and_a_variance_is_explained(make_machine) -> None:
    make_machine("M001")
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "a", "read_at": "2026-12-07T10:00:00Z",
         "meters": meters(coin_in="100.00", bills_in="300.00", games_played=50,
                          bills={"20.00": 10, "50.00": 2})}], source="sds", metadata=floor())
    with pytest.raises(InvalidCommand):  # no 30.00 note in euros
        machine_box_count(casino="lisboa", machine="M001", drop_id="D1",
                          notes={"30.00": 1}, window="C1", metadata=person("ana"))
    # counted 9 × 20 + 2 × 50 = 280.00 against 300.00 metered: −20.00
    counted = machine_box_count(casino="lisboa", machine="M001", drop_id="D1",
                                notes={"20.00": 9, "50.00": 2}, window="C1",
                                metadata=person("ana"))
    assert (counted.counted, counted.metered, counted.variance) == ("280.00", "300.00",
                                                                    "-20.00")
    with pytest.raises(NotAllowed):  # the first counter cannot confirm
        machine_box_confirm(casino="lisboa", drop_id="D1", metadata=person("ana"))
    machine_box_confirm(casino="lisboa", drop_id="D1", metadata=person("rui"))
    # the cage has 280.00; the box is empty; 20.00 missing is a difference (a debit)
    assert balance("slot_cash", "C1") == Decimal("-280.00")
    assert balance("machine_box", "M001") == Decimal("0.00")
    assert balance("machine_drop_difference", "M001") == Decimal("-20.00")
    with pytest.raises(NotAllowed):
        machine_box_variance_explain(casino="lisboa", drop_id="D1", explanation="jammed note",
                                     approved_by="rui", metadata=person("rui"))
    machine_box_variance_explain(casino="lisboa", drop_id="D1",
                                 explanation="a note jammed in the validator",
                                 approved_by="sofia", metadata=person("rui"))
    box = MachineBox.objects.get(drop_id="D1")
    assert (box.status, box.counted_by, box.confirmed_by, box.approved_by) == (
        "confirmed", "ana", "rui", "sofia")
