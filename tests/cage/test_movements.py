"""The other movements: adjustments, drop boxes, refused slips, chips out of service, the
minimum-cash alert, recounts, the gaming day; and a rebuild of all of it equals the live tables."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

import eventstore
from cage import selectors
from cage import services as cage
from cage.models import Adjustment, AdjustmentStatus, Shift
from casino.models import Casino
from eventstore.models import StoredEvent
from jackpots.services import jackpot_prize_pay

from .conftest import CASINO, CHIP_SET, Hit, Pit, after_the_day, ana, bruno, carla, duarte, whole

D = Decimal


def expected(shift_id: str) -> dict[tuple[str, Decimal], int]:
    shift = Shift.objects.get(id=shift_id)
    return {(f.kind, f.denomination): f.expected for f in selectors.shift_figures(shift)}


@pytest.mark.django_db
def test_an_adjustment_moves_nothing_until_a_second_person_approves(window: str) -> None:
    before = expected(window)
    asked = cage.adjustment_request(shift_id=window, direction="in", cash={"10.00": 2},
                                    chips={CHIP_SET: {"1.00": 5}},
                                    reason="found in the coin tray", metadata=ana())
    assert expected(window) == before
    assert asked.amount == "25.00"
    cage.adjustment_approve(adjustment_id=asked.adjustment_id, note="checked on camera",
                            metadata=carla())
    after = expected(window)
    assert after[("cash", D("10.00"))] == before[("cash", D("10.00"))] + 2
    assert after[("chips", D("1.00"))] == before[("chips", D("1.00"))] + 5
    adjustment = Adjustment.objects.get(id=asked.adjustment_id)
    assert (adjustment.status, adjustment.requested_by, adjustment.decided_by) == (
        AdjustmentStatus.APPROVED, "ana", "carla")

    out = cage.adjustment_request(shift_id=window, direction="out", cash={"20.00": 1},
                                  reason="counterfeit note withdrawn", metadata=ana())
    cage.adjustment_reject(adjustment_id=out.adjustment_id, note="keep it for the police",
                           metadata=duarte())
    assert expected(window) == after


@pytest.mark.django_db
def test_a_pending_adjustment_blocks_the_count(window: str) -> None:
    cage.adjustment_request(shift_id=window, direction="in", cash={"10.00": 1}, reason="x",
                            metadata=ana())
    with pytest.raises(Exception, match="waiting for approval"):
        cage.shift_count(shift_id=window, **whole(), metadata=ana())


@pytest.mark.django_db
def test_a_drop_box_brings_its_cash_into_the_cage(window: str, pit: Pit) -> None:
    pit.close_and_count({"500.00": 1, "100.00": 8, "50.00": 1})  # the count room: 1,350.00
    before = expected(window)
    cage.drop_box_receive(shift_id=window, session_id=pit.session_id, table="r1",
                          drop_box="DB-7", amount=Decimal("1350.00"),
                          cash={"500.00": 1, "100.00": 8, "50.00": 1}, metadata=ana())
    after = expected(window)
    assert after[("cash", D("500.00"))] == before.get(("cash", D("500.00")), 0) + 1
    assert after[("cash", D("100.00"))] == before[("cash", D("100.00"))] + 8
    event = StoredEvent.objects.get(event_type="DropBoxReceived")
    assert (event.data["session_id"], event.data["table"], event.data["amount"]) == (
        pit.session_id, "r1", "1350.00")


@pytest.mark.django_db
def test_a_refused_slip_moves_nothing_and_the_pit_sees_it_refused_with_the_reason(
        window: str, pit: Pit) -> None:
    from casino.errors import Conflict
    from games.selectors import slip_get

    slip = pit.fill({"100.00": 3})
    before = expected(window)
    cage.slip_refuse(shift_id=window, kind="fill", slip=slip,
                     reason="the slip names table r2 but came from r1", metadata=ana())
    assert expected(window) == before
    refused = slip_get(casino=CASINO, kind="fill", number=slip)
    assert (refused.status, refused.refusal_reason) == (
        "refused", "the slip names table r2 but came from r1")
    with pytest.raises(Conflict, match="the cage acts only on a requested slip"):
        cage.fill_issue(shift_id=window, slip=slip, metadata=ana())
    pit.void("fill", slip)  # the pit voids what the cage refused
    assert slip_get(casino=CASINO, kind="fill", number=slip).status == "voided"


@pytest.mark.django_db
def test_chips_taken_out_of_service_leave_the_vault_and_the_stock(vault: str) -> None:
    before = selectors.chips_in_circulation(casino=CASINO).pieces("in_service")
    cage.chips_take_out_of_service(shift_id=vault, chip_set=CHIP_SET, chips={"5.00": 10},
                                   reason="chipped edges, destroyed", metadata=carla())
    after = selectors.chips_in_circulation(casino=CASINO).pieces("in_service")
    assert after[D("5.00")] == before[D("5.00")] - 10


@pytest.mark.django_db
def test_the_minimum_cash_alert_is_recorded_when_cash_falls_below_and_when_it_recovers(
        vault: str) -> None:
    main = cage.shift_open(cage="main", cash={"500.00": 30}, metadata=bruno()).shift_id
    assert [v.cage.code for v in selectors.minimum_cash_alerts(casino=CASINO)] == ["main"]
    alert = StoredEvent.objects.get(stream=f"shift/{main}",
                                    event_type="CageCashFellBelowMinimum")
    assert (alert.data["cash_value"], alert.data["minimum_cash"]) == ("15000.00", "20000.00")
    cage.transfer_send(shift_id=vault, to_cage="main", cash={"100.00": 60}, metadata=carla())
    assert selectors.minimum_cash_alerts(casino=CASINO) == []
    assert StoredEvent.objects.filter(stream=f"shift/{main}",
                                      event_type="CageCashRestoredAboveMinimum").count() == 1
    cage.transfer_send(shift_id=main, to_cage="vault", cash={"100.00": 11}, metadata=bruno())
    assert StoredEvent.objects.filter(stream=f"shift/{main}",
                                      event_type="CageCashFellBelowMinimum").count() == 2


@pytest.mark.django_db
def test_a_recount_replaces_the_count_and_is_numbered(window: str) -> None:
    cage.transfer_send(shift_id=window, to_cage="vault",
                       cash={"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50},
                       chips={CHIP_SET: {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200}},
                       metadata=ana())
    first = cage.shift_count(shift_id=window, **whole({"20.00": 1}), metadata=ana())
    assert (first.count_number, first.balanced) == (1, False)
    second = cage.shift_count(shift_id=window, **whole(), metadata=ana())
    assert (second.count_number, second.balanced) == (2, True)
    cage.shift_close(shift_id=window, metadata=ana())


@pytest.mark.django_db
def test_the_gaming_day_task_records_the_chips_once(window: str) -> None:
    from cage.tasks import gaming_day_chips_record_task

    day = Shift.objects.get(id=window).gaming_day
    with after_the_day(day):
        first = gaming_day_chips_record_task.delay(CASINO, day.isoformat()).get()
        second = gaming_day_chips_record_task.delay(CASINO, day.isoformat()).get()
    assert first["recorded"] is True
    assert second["recorded"] is False  # a sealed day is a no-op
    assert (second["value"], second["in_circulation"]) == (first["value"],
                                                           first["in_circulation"])
    assert StoredEvent.objects.filter(event_type="ChipsInCirculationRecorded").count() == 1
    recorded = StoredEvent.objects.get(event_type="ChipsInCirculationRecorded")
    assert recorded.metadata["actor"] == "system:gaming_day_chips_record"
    assert recorded.data["table_trays_known"] is True


def test_the_gaming_day_closes_at_the_casinos_local_hour() -> None:
    lisboa = Casino(code="x", time_zone="Europe/Lisbon", gaming_day_closes_at=6)
    macau = Casino(code="y", time_zone="Asia/Macau", gaming_day_closes_at=7)
    at = dt.datetime(2024, 7, 1, 4, 30, tzinfo=dt.UTC)  # 05:30 in Lisbon, 12:30 in Macau
    assert lisboa.gaming_day(at) == dt.date(2024, 6, 30)
    assert macau.gaming_day(at) == dt.date(2024, 7, 1)
    assert lisboa.gaming_day(at + dt.timedelta(hours=1)) == dt.date(2024, 7, 1)


@pytest.mark.django_db(transaction=True)
def test_rebuilding_every_cage_movement_from_events_equals_the_live_tables(
        window: str, pit: Pit, hit: Hit) -> None:
    cage.shift_open(cage="main", cash={"500.00": 50}, metadata=bruno())
    cage.chips_sell(shift_id=window, amount=Decimal("90.00"), chips={"25.00": 2, "5.00": 8},
                    cash={"100.00": 1}, change={"10.00": 1}, metadata=ana())
    cage.chips_redeem(shift_id=window, amount=Decimal("70.00"), chips={"25.00": 2, "5.00": 4},
                      cash={"50.00": 1, "20.00": 1}, metadata=ana())
    cage.fill_issue(shift_id=window, slip=pit.fill({"25.00": 8}), metadata=ana())
    cage.credit_receive(shift_id=window, slip=pit.credit({"5.00": 10}), metadata=ana())
    cage.slip_refuse(shift_id=window, kind="fill", slip=pit.fill({"1.00": 5}),
                     reason="wrong figures", metadata=ana())
    jackpot_prize_pay(prize_id=hit.prize_id, shift_id=window, amount=Decimal("150.00"),
                      cash={"100.00": 1}, chip_set=CHIP_SET, chips={"25.00": 2}, metadata=ana())
    pit.close_and_count({"20.00": 2})  # the count room: 40.00
    cage.drop_box_receive(shift_id=window, session_id=pit.session_id, table="r1",
                          amount=Decimal("40.00"), cash={"20.00": 2}, metadata=ana())
    asked = cage.adjustment_request(shift_id=window, direction="out", cash={"10.00": 1},
                                    reason="counterfeit", metadata=ana())
    cage.adjustment_approve(adjustment_id=asked.adjustment_id, metadata=carla())
    vault = str(Shift.objects.get(cage="vault").id)
    cage.chips_take_out_of_service(shift_id=vault, chip_set=CHIP_SET, chips={"1.00": 3},
                                   reason="worn", metadata=carla())
    cage.shift_count(shift_id=window, **whole({"100.00": 1}), metadata=ana())
    cage.variance_explain(shift_id=window, explanation="test", metadata=ana())
    cage.variance_approve(shift_id=window, metadata=carla())
    cage.shift_close(shift_id=window, metadata=ana())
    with after_the_day(Shift.objects.get(id=window).gaming_day):
        cage.gaming_day_chips_record(gaming_day=Shift.objects.get(id=window).gaming_day,
                                     metadata=carla())
    cage.cage_minimum_cash_change(code="main", minimum_cash=Decimal("25000.00"),
                                  reason="new regulation", metadata=carla())

    assert eventstore.check(["cage"]) == []
    assert eventstore.check() == []
