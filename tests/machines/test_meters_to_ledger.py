"""One machine's day from its meters to the ledger, a RAM clear, and the readings refused."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.errors import DomainError, InvalidCommand, NotAllowed
from machines.models import Machine, MachineDay, MeterReading
from machines.services.machines import machine_add
from machines.services.readings import meter_readings_record, meter_reset_record

from .conftest import PAYTABLE, PAYTABLE_RETURN, admin, balance, floor, meters, money, person


def _read(machine: str, reading_id: str, at: str, **values: object) -> dict[str, object]:
    return {"machine": machine, "reading_id": reading_id, "read_at": at,
            "meters": meters(**values)}


def test_a_machine_is_added_with_its_pay_tables_return(make_machine) -> None:
    make_machine("M001")
    machine = Machine.objects.get(number="M001")
    assert machine.certified_return == PAYTABLE_RETURN
    assert machine.config_version == 1


def test_a_pay_table_below_the_legal_minimum_is_refused(casino: str) -> None:
    # (700·1) / 1000 = 70 % < 80 % (the minimum parameter)
    with pytest.raises(InvalidCommand) as refused:
        machine_add(casino=casino, machine="M009", bank="B1", position="P9", manufacturer="IGT",
                    model="S", serial="S9", game="G", paytable=[{"weight": 300, "pays": 0},
                                                                 {"weight": 700, "pays": 1}],
                    denomination=money("0.10"), hand_pay_limit=money("100.00"),
                    approved_on="2026-01-01", approval_reference="R", metadata=admin())
    assert refused.value.code == "return_below_minimum"
    assert not Machine.objects.exists()


def test_one_machines_day_from_its_meters_to_the_ledger(make_machine) -> None:
    make_machine("M001")
    first = _read("M001", "r1", "2026-12-07T10:00:00Z", coin_in="100.00", coin_out="80.00",
                  bills_in="120.00", games_played=100, bills={"20.00": 6})
    second = _read("M001", "r2", "2026-12-07T11:00:00Z", coin_in="350.00", coin_out="260.00",
                   bills_in="320.00", games_played=350, bills={"20.00": 6, "50.00": 4})
    answer = meter_readings_record(casino="lisboa", readings=[first, second], source="sds",
                                   metadata=floor())
    assert (answer.recorded, answer.duplicates, answer.refused) == (2, 0, 0)
    # r1: 100 − 80 = 20.00; r2: (350 − 100) − (260 − 80) = 250 − 180 = 70.00
    assert [r.win for r in answer.results] == ["20.00", "70.00"]
    day = MachineDay.objects.get(machine="M001")
    assert (day.coin_in, day.coin_out, day.win, day.games_played) == (
        Decimal("350.00"), Decimal("260.00"), Decimal("90.00"), 350)
    # ledger: revenue 350 − 260 = 90.00; box 320.00 (a debit: −320 as "owed");
    # credits on the machine: 320 in − 90 played away = 230.00 owed to the player
    assert balance("machine_revenue", "M001") == Decimal("90.00")
    assert balance("machine_box", "M001") == Decimal("-320.00")
    assert balance("machine_credits") == Decimal("230.00")
    assert Machine.objects.get(number="M001").box_metered == Decimal("320.00")


def test_the_same_batch_twice_records_nothing_twice(make_machine) -> None:
    make_machine("M001")
    batch = [_read("M001", "r1", "2026-12-07T10:00:00Z", coin_in="10.00", games_played=10)]
    meter_readings_record(casino="lisboa", readings=batch, source="sds", metadata=floor())
    again = meter_readings_record(casino="lisboa", readings=batch, source="sds",
                                  metadata=floor())
    assert (again.recorded, again.duplicates) == (0, 1)
    assert MeterReading.objects.count() == 1
    assert balance("machine_revenue", "M001") == Decimal("10.00")


def test_bad_readings_are_answered_each_with_its_reason_and_the_good_applied(
        make_machine) -> None:
    make_machine("M001")
    make_machine("M002")
    meter_readings_record(casino="lisboa", readings=[
        _read("M001", "r1", "2026-12-07T10:00:00Z", coin_in="50.00", games_played=5)],
        source="sds", metadata=floor())
    answer = meter_readings_record(casino="lisboa", readings=[
        _read("M404", "x1", "2026-12-07T11:00:00Z"),  # unknown machine
        _read("M001", "r2", "2026-12-07T11:00:00Z", coin_in="40.00", games_played=6),  # back
        _read("M001", "r3", "2026-12-07T09:00:00Z", coin_in="60.00", games_played=6),  # older
        _read("M002", "s1", "2026-12-07T11:00:00Z", coin_in="5.00", games_played=1,
              bills_in="5.00", bills={"7.00": 1}),  # no such note
        _read("M002", "s2", "2026-12-07T11:00:00Z", coin_in="5.00", games_played=1),  # good
    ], source="sds", metadata=floor())
    codes = [(r.reading_id, r.status, r.code) for r in answer.results]
    assert codes == [("x1", "refused", "unknown_machine"),
                     ("r2", "refused", "meter_went_back"),
                     ("r3", "refused", "reading_out_of_order"),
                     ("s1", "refused", "unknown_denomination"),
                     ("s2", "recorded", "")]
    assert "coin_in went back from 50.00 to 40.00" in answer.results[1].reason
    assert MeterReading.objects.count() == 2  # r1 and s2


def test_a_ram_clear_needs_a_second_person_and_keeps_before_and_after(make_machine) -> None:
    make_machine("M001")
    meter_readings_record(casino="lisboa", readings=[
        _read("M001", "r1", "2026-12-07T10:00:00Z", coin_in="500.00", coin_out="400.00",
              games_played=500)], source="hand", metadata=person("paulo"))
    with pytest.raises(NotAllowed):
        meter_reset_record(casino="lisboa", machine="M001", kind="ram_clear", reading_id="c1",
                           read_at="2026-12-07T12:00:00Z",
                           before=meters(coin_in="600.00", coin_out="480.00", games_played=600),
                           after=meters(), witnessed_by="paulo", reason="board replaced",
                           metadata=person("paulo"))
    answer = meter_reset_record(
        casino="lisboa", machine="M001", kind="ram_clear", reading_id="c1",
        read_at="2026-12-07T12:00:00Z",
        before=meters(coin_in="600.00", coin_out="480.00", games_played=600),
        after=meters(), witnessed_by="sofia", reason="board replaced", metadata=person("paulo"))
    # before the clear: (600 − 500) − (480 − 400) = 100 − 80 = 20.00
    assert answer.win == "20.00"
    # after it the meters start from zero: a reading of 30 in, 25 out is 5.00 more
    after = meter_readings_record(casino="lisboa", readings=[
        _read("M001", "r2", "2026-12-07T13:00:00Z", coin_in="30.00", coin_out="25.00",
              games_played=30)], source="sds", metadata=floor())
    assert after.results[0].win == "5.00"
    # the day: 100 + 20 + 5 = 125.00
    assert MachineDay.objects.get(machine="M001").win == Decimal("125.00")
    assert balance("machine_revenue", "M001") == Decimal("125.00")
    clear = MeterReading.objects.get(reading_id="c1")
    assert (clear.kind, clear.witnessed_by, clear.meters["coin_in"]) == (
        "ram_clear", "sofia", "600.00")


def test_a_bulk_that_is_not_a_list_is_refused_with_nothing_recorded(make_machine) -> None:
    make_machine("M001")
    with pytest.raises(DomainError):
        meter_readings_record(casino="lisboa", readings="nope", source="sds",  # type: ignore[arg-type]
                              metadata=floor())
    assert PAYTABLE  # the fixture's table is the one added
    assert not MeterReading.objects.exists()
