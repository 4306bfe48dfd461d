"""The cage projection's handlers as plain functions: a typed event and its recorded envelope in,
row changes out (``eventstore.changes``), with the figures worked out by hand (pieces by
denomination, not value). None of the handlers reads, so these need no database.

Then, on the database: what the writer makes of those changes for a line the shift already holds
(receipts and payments in one UPDATE, the CHECK seeing the net), a replay sent an event at a time,
and a day (open, sell, redeem, count, close) rebuilt one casino at a time, equal to live and
leaving another casino's cage rows as they were."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import eventstore
from cage import events as ev
from cage import services as cage
from cage.models import (
    Adjustment,
    AdjustmentStatus,
    Cage,
    CageSlip,
    ChipCirculationDay,
    ChipLiability,
    ChipsInService,
    Shift,
    ShiftEntry,
    ShiftLine,
    ShiftStatus,
    SlipStatus,
)
from cage.projections import CageProjection
from casino.context import person_metadata, system_metadata
from casino.models import Casino, Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore import replay as replaying
from eventstore import store as event_store
from eventstore.changes import Change, Insert, Update, Upsert
from eventstore.events import Event
from eventstore.records import RecordedEvent
from eventstore.writer import Writer, guard

from .conftest import CASINO, CHIP_SET, ana, carla, whole

D = Decimal
AT = dt.datetime(2024, 5, 17, 21, 30, tzinfo=dt.UTC)
SHIFT = "4f6b2a1e-93c5-4d0e-8a57-0c2d9b1e7f30"
ADJUSTMENT = "9d1c7e52-0b3a-4f86-a2e4-5c8f1b6d3a90"
projection = CageProjection()
NEW_LINE = {"opening": 0, "receipts": 0, "payments": 0}


def recorded(event: Event, *, version: int, stream: str = f"shift/{SHIFT}",
             actor: str = "ana") -> RecordedEvent:
    """``event`` as recorded (made-up envelope)."""
    return RecordedEvent(
        position=900, stream=stream, version=version, event_type=event.event_type,
        schema_version=event.schema_version, data=event.to_data(),
        metadata={"actor": actor, "role": "cashier", "casino": CASINO},
        recorded_at=AT, prev_hash="0" * 64, hash="f" * 64)


def changes(event: Event, rec: RecordedEvent) -> list[Change]:
    """What the registered handler of ``event`` returns (as the projection calls it)."""
    method, reads = CageProjection.handlers[type(event)]
    assert not reads, "no cage handler reads"
    return list(getattr(projection, method)(event, rec))


def cash(denomination: str) -> dict[str, Any]:
    return {"shift_id": SHIFT, "kind": "cash", "chip_set": "", "denomination": D(denomination)}


def chips(denomination: str, chip_set: str = CHIP_SET) -> dict[str, Any]:
    return {"shift_id": SHIFT, "kind": "chips", "chip_set": chip_set,
            "denomination": D(denomination)}


def moved(key: dict[str, Any], receipts: int, payments: int) -> list[Change]:
    """A line's movement: the line made sure of, and both figures added to it together."""
    return [Upsert(ShiftLine, key, NEW_LINE, add={"receipts": receipts, "payments": payments})]


def entry(rec: RecordedEvent, reference: str, amount_in: str = "0.00", amount_out: str = "0.00",
          details: dict[str, Any] | None = None) -> list[Change]:
    return [Insert(ShiftEntry, dict(
                shift_id=SHIFT, version=rec.version, event_type=rec.event_type,
                reference=reference, amount_in=D(amount_in), amount_out=D(amount_out),
                actor="ana", recorded_at=AT,
                details=details if details is not None else rec.data)),
            Update(Shift, {"id": SHIFT}, set={"version": rec.version})]


# --- the handlers, without a database ------------------------------------------------------------


def test_a_sale_of_100_in_cash_for_2_chips_of_50_adds_one_receipt_and_two_payments() -> None:
    sold = ev.ChipsSold(transaction_id="t-1", shift_id=SHIFT, window="w1", chip_set=CHIP_SET,
                        chips={"50.00": 2}, cash={"100.00": 1}, change={}, amount=D("100.00"))
    rec = recorded(sold, version=7)
    assert changes(sold, rec) == [
        *moved(cash("100.00"), receipts=1, payments=0),
        *moved(chips("50.00"), receipts=0, payments=2),
        *entry(rec, "t-1", amount_in="100.00", amount_out="100.00"),
    ]


def test_a_sale_with_change_pays_the_change_out_of_the_cash_lines() -> None:
    # 90.00 of chips (2 x 25 + 8 x 5) for a 100 note, a 10 note back: 100 in, 90 + 10 out.
    sold = ev.ChipsSold(transaction_id="t-2", shift_id=SHIFT, window="w1", chip_set=CHIP_SET,
                        chips={"25.00": 2, "5.00": 8}, cash={"100.00": 1},
                        change={"10.00": 1}, amount=D("90.00"))
    rec = recorded(sold, version=8)
    assert changes(sold, rec) == [
        *moved(cash("100.00"), receipts=1, payments=0),
        *moved(cash("10.00"), receipts=0, payments=1),
        *moved(chips("25.00"), receipts=0, payments=2),
        *moved(chips("5.00"), receipts=0, payments=8),
        *entry(rec, "t-2", amount_in="100.00", amount_out="100.00"),
    ]


def test_a_redemption_takes_chips_in_and_pays_cash_out_for_the_same_amount() -> None:
    redeemed = ev.ChipsRedeemed(transaction_id="t-3", shift_id=SHIFT, window="w1",
                                chip_set=CHIP_SET, chips={"25.00": 2, "5.00": 4},
                                cash={"50.00": 1, "20.00": 1}, amount=D("70.00"))
    rec = recorded(redeemed, version=9)
    assert changes(redeemed, rec) == [
        *moved(cash("50.00"), receipts=0, payments=1),
        *moved(cash("20.00"), receipts=0, payments=1),
        *moved(chips("25.00"), receipts=2, payments=0),
        *moved(chips("5.00"), receipts=4, payments=0),
        *entry(rec, "t-3", amount_in="70.00", amount_out="70.00"),
    ]


def test_a_shift_opened_is_its_row_its_opening_lines_the_cages_last_shift_and_an_entry() -> None:
    opened = ev.ShiftOpened(shift_id=SHIFT, casino=CASINO, window="w1", kind="window",
                            gaming_day=dt.date(2024, 5, 17), basis="blind_count",
                            previous_shift_id=None, cash={"100.00": 20, "10.00": 50},
                            chips={CHIP_SET: {"25.00": 100}})
    rec = recorded(opened, version=1)
    # 20 x 100 + 50 x 10 + 100 x 25 = 5,000.00
    assert changes(opened, rec) == [
        Insert(Shift, dict(id=SHIFT, casino_id=CASINO, cage="w1", cage_kind="window",
                           gaming_day=dt.date(2024, 5, 17), status=ShiftStatus.OPEN,
                           basis="blind_count", previous_shift_id=None, opened_by="ana",
                           opened_at=AT, version=1)),
        Insert(ShiftLine, {**cash("100.00"), "opening": 20}),
        Insert(ShiftLine, {**cash("10.00"), "opening": 50}),
        Insert(ShiftLine, {**chips("25.00"), "opening": 100}),
        Update(Cage, {"casino_id": CASINO, "code": "w1"}, set={"last_shift_id": SHIFT}),
        Insert(ShiftEntry, dict(
            shift_id=SHIFT, version=1, event_type="ShiftOpened", reference="blind_count",
            amount_in=D("0.00"), amount_out=D("0.00"), actor="ana", recorded_at=AT,
            details={"basis": "blind_count", "previous_shift_id": None,
                     "opening_value": "5000.00"})),
    ]


def test_a_count_clears_every_lines_count_then_sets_the_lines_counted() -> None:
    counted = ev.ShiftCounted(shift_id=SHIFT, window="w1", count_number=2,
                              cash={"100.00": 19}, chips={CHIP_SET: {"25.00": 100}},
                              variance_cash={"100.00": -1}, variance_chips={},
                              variance_value=D("-100.00"))
    rec = recorded(counted, version=12)
    assert changes(counted, rec) == [
        Update(ShiftLine, {"shift_id": SHIFT}, set={"counted": 0}),
        Upsert(ShiftLine, cash("100.00"), NEW_LINE, set={"counted": 19}),
        Upsert(ShiftLine, chips("25.00"), NEW_LINE, set={"counted": 100}),
        Update(Shift, {"id": SHIFT}, set={
            "version": 12, "status": ShiftStatus.COUNTED, "count_number": 2,
            "counted_by": "ana", "counted_at": AT, "variance_value": D("-100.00"),
            "explanation": "", "explained_by": "", "approved_count": None, "approved_by": ""}),
        *entry(rec, "count 2", details={"count_number": 2, "variance_value": "-100.00"}),
    ]


def test_a_shift_closed_moves_its_status_and_version() -> None:
    closed = ev.ShiftClosed(shift_id=SHIFT, window="w1", count_number=1, cash={"100.00": 19},
                            chips={}, variance_value=D("0.00"))
    rec = recorded(closed, version=14)
    assert changes(closed, rec) == [
        Update(Shift, {"id": SHIFT}, set={"version": 14, "status": ShiftStatus.CLOSED,
                                          "closed_by": "ana", "closed_at": AT}),
        *entry(rec, "closed on count 1", details={"variance_value": "0.00"}),
    ]


def test_a_fill_pays_the_chips_out_and_records_the_slip() -> None:
    fill = ev.FillIssued(slip="F-1001", shift_id=SHIFT, window="w1", session_id="s-1",
                         table="r1", chip_set=CHIP_SET, chips={"25.00": 8}, amount=D("200.00"))
    rec = recorded(fill, version=10)
    assert changes(fill, rec) == [
        *moved(chips("25.00"), receipts=0, payments=8),
        Insert(CageSlip, dict(casino_id=CASINO, kind="fill", number="F-1001", shift_id=SHIFT,
                              status=SlipStatus.ISSUED, session_id="s-1", table="r1",
                              amount=D("200.00"))),
        *entry(rec, "fill F-1001 → r1", amount_out="200.00"),
    ]


def test_an_approved_adjustment_out_pays_out_and_marks_the_adjustment() -> None:
    approved = ev.AdjustmentApproved(adjustment_id=ADJUSTMENT, shift_id=SHIFT, window="w1",
                                     direction="out", cash={"10.00": 1}, chips={},
                                     amount=D("10.00"), note="ok")
    rec = recorded(approved, version=11, actor="carla")
    changed = changes(approved, rec)
    assert changed[:2] == [
        *moved(cash("10.00"), receipts=0, payments=1),
        Update(Adjustment, {"id": ADJUSTMENT}, set={
            "status": AdjustmentStatus.APPROVED, "decided_by": "carla", "note": "ok"}),
    ]
    made = changed[2]
    assert isinstance(made, Insert)
    assert (made.values["amount_in"], made.values["amount_out"]) == (D("0.00"), D("10.00"))
    assert made.values["reference"] == "adjustment out (approved)"


def test_chips_taken_out_of_service_leave_the_vault_and_the_casinos_stock() -> None:
    taken = ev.ChipsTakenOutOfService(shift_id=SHIFT, window="vault", chip_set=CHIP_SET,
                                      chips={"1.00": 3}, amount=D("3.00"), reason="worn")
    rec = recorded(taken, version=5, actor="carla")
    key = {"casino_id": CASINO, "chip_set": CHIP_SET, "denomination": D("1.00")}
    assert changes(taken, rec)[:2] == [
        *moved(chips("1.00"), receipts=0, payments=3),
        Upsert(ChipsInService, key, {"pieces": 0}, add={"pieces": -3}),
    ]


def test_chips_in_circulation_are_one_row_per_denomination_largest_first() -> None:
    recorded_day = ev.ChipsInCirculationRecorded(
        casino=CASINO, gaming_day=dt.date(2024, 5, 17), in_service={"100.00": 500, "5.00": 2000},
        in_cages={"100.00": 450, "5.00": 1800}, in_vaults={}, in_table_trays={"5.00": 150},
        in_circulation={"100.00": 50, "5.00": 50}, value=D("5250.00"), table_trays_known=True)
    rec = recorded(recorded_day, version=1, stream=f"cage_day/{CASINO}.2024-05-17")
    day = {"casino_id": CASINO, "gaming_day": dt.date(2024, 5, 17), "table_trays_known": True}
    assert changes(recorded_day, rec) == [
        Insert(ChipCirculationDay, {"casino_id": CASINO, "gaming_day": dt.date(2024, 5, 17),
                                    "as_at": None, "position": 0, "open_tables": D("0.00"),
                                    "jackpot_slots": D("0.00"), "value": D("5250.00"),
                                    "state": {}}),
        Insert(ChipLiability, dict(day, denomination=D("100.00"), in_service=500, in_cages=450,
                                   in_vaults=0, in_table_trays=0, in_transit=0,
                                   in_circulation=50)),
        Insert(ChipLiability, dict(day, denomination=D("5.00"), in_service=2000, in_cages=1800,
                                   in_vaults=0, in_table_trays=150, in_transit=0,
                                   in_circulation=50)),
    ]


def test_keys_are_spelt_one_way_whatever_the_event_says() -> None:
    # The writer knows a row by its key as text: 100 and 100.00, or an upper-case uuid, must
    # still name the row the opening inserted.
    sold = ev.ChipsSold(transaction_id="t-4", shift_id=SHIFT.upper(), window="w1",
                        chip_set=CHIP_SET, chips={"50": 2}, cash={"100": 1}, change={},
                        amount=D("100"))
    first, second, *_ = changes(sold, recorded(sold, version=7))
    assert isinstance(first, Upsert)
    assert isinstance(second, Upsert)
    assert first == Upsert(ShiftLine, cash("100.00"), NEW_LINE, add={"receipts": 1, "payments": 0})
    assert str(first.key["denomination"]) == "100.00"
    assert second.key == chips("50.00")


# --- on the database ---------------------------------------------------------------------------


def open_window(window_cash: dict[str, int]) -> str:
    cage.cage_configure(code="w1", name="Window 1", kind="window", minimum_cash=Decimal("0.00"),
                        metadata=carla())
    return str(cage.shift_open(cage="w1", cash=window_cash, metadata=ana()).shift_id)


def line(shift_id: str, denomination: str) -> tuple[int, int, int]:
    row = ShiftLine.objects.get(shift_id=shift_id, kind="cash", denomination=D(denomination))
    return row.opening, row.receipts, row.payments


@pytest.mark.django_db(transaction=True)
def test_a_receipt_then_a_larger_payment_of_a_held_line_in_one_batch(casino: Casino) -> None:
    # The line exists (opening 10 of 50.00); 2 in then 5 out, written together: one UPDATE with
    # receipts + 2 and payments + 5 (an INSERT … ON CONFLICT proposing 0 / 2 / 5 would fail the
    # CHECK before it found the conflict).
    shift_id = open_window({"50.00": 10})
    writer = Writer()
    pays = ev.ChipsRedeemed(transaction_id="t-5", shift_id=shift_id, window="w1",
                            chip_set=CHIP_SET, chips={"100.00": 1}, cash={"50.00": 2},
                            amount=D("100.00"))
    takes = ev.DropBoxReceived(receipt_id="d-1", shift_id=shift_id, window="w1",
                               session_id="s-1", table="r1", drop_box="b-1", cash={"50.00": 2},
                               amount=D("100.00"))
    gives = ev.TransferSent(transfer_id="x-1", shift_id=shift_id, window="w1", to_window="w2",
                            to_shift_id=SHIFT, cash={"50.00": 5}, chips={}, amount=D("250.00"))
    with guard(writer):
        for version, event in enumerate((takes, gives, pays), start=2):
            writer.add(changes(event, recorded(event, version=version,
                                               stream=f"shift/{shift_id}")))
        statements = [sql for sql, _ in writer.statements()]
    # the lines that may be missing are proposed without their movements (one INSERT of both)
    assert sum("ON CONFLICT" in sql and "DO NOTHING" in sql for sql in statements) == 1
    assert not any("ON CONFLICT" in sql and "DO UPDATE" in sql for sql in statements)
    writer = Writer()
    with guard(writer):
        for version, event in enumerate((takes, gives, pays), start=2):
            writer.add(changes(event, recorded(event, version=version,
                                               stream=f"shift/{shift_id}")))
    writer.flush()
    assert line(shift_id, "50.00") == (10, 2, 7)  # 10 + 2 − 5 − 2 = 5 held
    chips_line = ShiftLine.objects.get(shift_id=shift_id, kind="chips", denomination=D("100"))
    assert (chips_line.opening, chips_line.receipts, chips_line.payments) == (0, 1, 0)
    assert Shift.objects.get(id=shift_id).version == 4
    assert ShiftEntry.objects.filter(shift_id=shift_id).count() == 4


@pytest.mark.django_db(transaction=True)
def test_a_line_opened_and_moved_in_one_batch_is_one_insert(casino: Casino) -> None:
    cage.cage_configure(code="w1", name="Window 1", kind="window", minimum_cash=Decimal("0.00"),
                        metadata=carla())
    opened = ev.ShiftOpened(shift_id=SHIFT, casino=CASINO, window="w1", kind="window",
                            gaming_day=dt.date(2024, 5, 17), basis="blind_count",
                            previous_shift_id=None, cash={"50.00": 10}, chips={})
    gives = ev.TransferSent(transfer_id="x-1", shift_id=SHIFT, window="w1", to_window="w2",
                            to_shift_id=SHIFT, cash={"50.00": 4}, chips={}, amount=D("200.00"))
    writer = Writer()
    with guard(writer):
        writer.add(changes(opened, recorded(opened, version=1)))
        writer.add(changes(gives, recorded(gives, version=2)))
        statements = [sql for sql, _ in writer.statements()]
    lines = [sql for sql in statements if "cage_shiftline" in sql]
    assert len(lines) == 1
    assert lines[0].startswith("INSERT")  # the payments folded into the opening's INSERT
    assert not any(sql.startswith("UPDATE") and "cage_shift\"" in sql for sql in statements)


# A day at window 1 of Lisboa, and a shift at Porto's window that a rebuild of Lisboa must leave.
PORTO = "porto"


def porto(role: str = Role.CAGE_SUPERVISOR) -> event_store.Metadata:
    return person_metadata(username="rui", role=role, casino=PORTO)


@pytest.fixture
def other_casino(casino: Casino) -> str:
    meta = system_metadata(PORTO, job="test")
    casino_register(code=PORTO, name="Casino Porto", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=PORTO, code=CHIP_SET, name="Porto chips",
                      denominations=["100.00", "25.00", "5.00"], metadata=meta)
    cage.cage_configure(code="vault", name="Vault", kind="vault", minimum_cash=Decimal("0.00"),
                        metadata=porto())
    shift = str(cage.shift_open(cage="vault", cash={"100.00": 30, "50.00": 10},
                                metadata=porto()).shift_id)
    cage.chips_put_into_service(shift_id=shift, chip_set=CHIP_SET, chips={"25.00": 40},
                                reference="delivery P-1", metadata=porto())
    cage.chips_take_out_of_service(shift_id=shift, chip_set=CHIP_SET, chips={"25.00": 4},
                                   reason="worn", metadata=porto())
    return shift


def porto_rows() -> dict[str, list[tuple[Any, ...]]]:
    """Porto's cage rows, surrogate ids and all (a row deleted and inserted again shows)."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    for model in CageProjection.models:
        rows = projection.casino_rows(model, PORTO).order_by("pk").values_list()
        found[model._meta.db_table] = list(rows)
    return found


@pytest.mark.django_db(transaction=True)
def test_a_shifts_day_rebuilt_one_casino_at_a_time_equals_live(
        window: str, other_casino: str) -> None:
    cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chips={"25.00": 4}, cash={"50.00": 2},
                    metadata=ana())
    cage.chips_sell(shift_id=window, amount=Decimal("90.00"), chips={"25.00": 2, "5.00": 8},
                    cash={"100.00": 1}, change={"10.00": 1}, metadata=ana())
    cage.chips_redeem(shift_id=window, amount=Decimal("70.00"), chips={"25.00": 2, "5.00": 4},
                      cash={"50.00": 1, "20.00": 1}, metadata=ana())
    # What the window holds now, counted right: no variance.
    held: dict[str, dict[str, int]] = {"cash": {}, "chips": {}}
    for row in ShiftLine.objects.filter(shift_id=window):
        if row.expected:
            held[row.kind][f"{row.denomination:.2f}"] = row.expected
    cage.shift_count(shift_id=window, **whole(held["cash"], {CHIP_SET: held["chips"]}),
                     metadata=ana())
    cage.shift_close(shift_id=window, metadata=ana())
    assert Shift.objects.get(id=window).status == ShiftStatus.CLOSED
    fifties = ShiftLine.objects.get(shift_id=window, kind="cash", denomination=D("50.00"))
    # stocked with 20 (no opening: a blind count of nothing), 2 sold for, 1 paid out
    assert (fifties.opening, fifties.receipts, fifties.payments, fifties.counted) == (0, 22, 1, 21)
    assert ChipsInService.objects.get(casino_id=PORTO).pieces == 36

    def snapshot() -> dict[str, list[tuple[object, ...]]]:
        return {table: sorted(rows, key=repr) for table, rows in projection.snapshot().items()}

    live = snapshot()
    others = porto_rows()
    assert others[ShiftLine._meta.db_table]  # Porto has cage rows to lose

    eventstore.rebuild(["cage"], casino=CASINO)

    assert snapshot() == live
    assert porto_rows() == others
    assert eventstore.check(["cage"]) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("page_size", [1, 2, 3])
def test_a_replay_sent_a_few_events_at_a_time_equals_live(
        window: str, page_size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Sent a page at a time, the lines exist before the movements that follow: the keyed
    # UPDATEs run on rows the database holds, receipts and payments netted per statement.
    cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chips={"25.00": 4}, cash={"50.00": 2},
                    metadata=ana())
    cage.chips_redeem(shift_id=window, amount=Decimal("150.00"), chips={"25.00": 6},
                      cash={"50.00": 3}, metadata=ana())
    cage.chips_sell(shift_id=window, amount=Decimal("90.00"), chips={"25.00": 2, "5.00": 8},
                    cash={"100.00": 1}, change={"10.00": 1}, metadata=ana())
    cage.shift_count(shift_id=window, **whole({"100.00": 21}), metadata=ana())
    cage.shift_count(shift_id=window, **whole({"100.00": 21, "50.00": 19}), metadata=ana())

    pages = eventstore.replay_pages

    def small_pages(*, casino: str | None = None, snapshot_id: str | None = None
                    ) -> Iterator[list[RecordedEvent]]:
        return pages(casino=casino, page_size=page_size, snapshot_id=snapshot_id)

    monkeypatch.setattr(replaying, "replay_pages", small_pages)
    monkeypatch.setattr(replaying, "REPLAY_BATCH", 1)
    assert eventstore.check(["cage"]) == []
    assert eventstore.check(["cage"], casino=CASINO) == []


@pytest.mark.django_db(transaction=True)
def test_the_check_compares_rows_with_nulls_and_finds_a_null_filled_behind_the_events(
        window: str) -> None:
    # The open shifts hold NULLs (not counted, not closed): their rows rebuilt equal the live
    # ones, a NULL equal to a NULL. A count time written behind the events' back is a row only
    # live, and its rebuilt row (still NULL) one only rebuilt: the server's one-pass comparison
    # finds the table, the rows say how.
    assert Shift.objects.filter(counted_at__isnull=True, closed_at__isnull=True).count() == 2
    assert eventstore.check(["cage"]) == []

    written = dt.datetime(2026, 12, 6, 3, 0, tzinfo=dt.UTC)
    Shift.objects.filter(id=window).update(counted_at=written)

    (found,) = eventstore.check(["cage"])
    assert found.table == Shift._meta.db_table
    (live,), (rebuilt,) = found.only_live, found.only_rebuilt
    differing = [(a, b) for a, b in zip(live, rebuilt, strict=True) if a != b]
    assert differing == [(written, None)]
