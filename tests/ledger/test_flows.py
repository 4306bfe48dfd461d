"""Worked examples: a day at one table and one window, and the entries each step posts."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from typing import Any

import eventstore
from cage.models import Shift
from eventstore.models import StoredEvent
from eventstore.records import RecordedEvent
from eventstore.writer import Reader, Writer
from games.models import Round, TableSession
from games.services import tables
from ledger import reports
from ledger.models import JournalEntry, JournalLine
from ledger.projections import DatabaseStore, apply
from ledger.selectors import entry_get

from .conftest import CASINO, Floor, pit_boss


def lines_of(entry: JournalEntry) -> list[tuple[str, D, D]]:
    return [(line.account_code, line.debit, line.credit)
            for line in JournalLine.objects.filter(entry=entry).order_by("line_no")]


def last_entry(event_type: str) -> JournalEntry:
    return JournalEntry.objects.filter(event_type=event_type).latest("number")


def balance(code: str) -> D:
    return reports.account_balance(casino=CASINO, code=code)


def everything() -> reports.TrialBalance:
    return reports.trial_balance(casino=CASINO, day_from=dt.date(2000, 1, 1),
                                 day_to=dt.date(2100, 1, 1))


def test_a_sale_that_gives_change_posts_the_net_cash(floor: Floor) -> None:
    floor.sell({"100.00": 2, "25.00": 2}, {"100.00": 2, "50.00": 1})
    entry = last_entry("ChipsSold")
    assert lines_of(entry) == [
        ("1110.w1", D("250.00"), D("0.00")),
        ("0190", D("250.00"), D("0.00")),
        ("2781", D("0.00"), D("250.00")),
        ("0110.w1", D("0.00"), D("250.00")),
    ]
    assert entry.description.startswith("Chips sold at w1")


def test_a_day_at_a_roulette_table(floor: Floor) -> None:
    session = floor.open_table("r1")
    opened = last_entry("TableSessionOpened")
    assert lines_of(opened) == [("0120.r1", D("2600.00"), D("0.00")),
                                ("0190", D("0.00"), D("2600.00"))]
    floor.fill("r1", {"100.00": 5})
    assert lines_of(last_entry("FillIssued")) == [("0120.r1", D("500.00"), D("0.00")),
                                                  ("0110.w1", D("0.00"), D("500.00"))]
    floor.buy_in("r1", "200.00")
    assert lines_of(last_entry("DropRecorded")) == [
        ("1120.r1", D("200.00"), D("0.00")), ("0190", D("200.00"), D("0.00")),
        ("2781", D("0.00"), D("200.00")), ("0120.r1", D("0.00"), D("200.00"))]
    # A player loses 50 on red (number 2 is black); another wins 35 x 10 on 17.
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    assert lines_of(last_entry("RoundSettled")) == [
        ("2781", D("50.00"), D("0.00")), ("0120.r1", D("50.00"), D("0.00")),
        ("7211.r1", D("0.00"), D("50.00")), ("0190", D("0.00"), D("50.00"))]
    floor.spin("r1", [{"seat": 2, "type": "straight", "numbers": [17], "amount": "10"}], 17)
    assert lines_of(last_entry("RoundSettled")) == [
        ("7211.r1", D("350.00"), D("0.00")), ("0190", D("350.00"), D("0.00")),
        ("2781", D("0.00"), D("350.00")), ("0120.r1", D("0.00"), D("350.00"))]
    credit = floor.credit("r1", {"100.00": 2})
    assert lines_of(last_entry("CreditRequested")) == [("0130", D("200.00"), D("0.00")),
                                                       ("0120.r1", D("0.00"), D("200.00"))]
    assert lines_of(last_entry("CreditReceived")) == [("0110.w1", D("200.00"), D("0.00")),
                                                      ("0130", D("0.00"), D("200.00"))]
    assert credit
    # float: 2600 + 500 - 200 (buy-in) + 50 - 350 - 200 = 2400; the count finds 2,395 and the
    # drop box holds 205: table win = 205 + 2395 - 2600 + 200 - 500 = -300; rounds = -300.
    assert balance("0120.r1") == D("2400.00")
    closing = {"100.00": 11, "25.00": 40, "5.00": 39, "1.00": 100}  # 2,395.00
    floor.close_table("r1", closing, "205.00")
    closed = last_entry("TableSessionClosed")
    counted = last_entry("DropBoxCountConfirmed")
    # The drop box holds 5 more than the pit recorded and the float is 5 short: a buy-in of 205
    # recorded as 200. No variance: 5 more chips are in players' hands. The close posts the
    # float's 5 short, the count room's count the box's 5 more (the variances cancel).
    assert lines_of(closed) == [
        ("0190", D("5.00"), D("0.00")), ("7212.r1", D("5.00"), D("0.00")),
        ("0120.r1", D("0.00"), D("5.00")), ("2781", D("0.00"), D("5.00"))]
    assert lines_of(counted) == [("1120.r1", D("5.00"), D("0.00")),
                                 ("7212.r1", D("0.00"), D("5.00"))]
    assert balance("7212.r1") == D("0.00")
    figures = TableSession.objects.get(session_id=session)
    assert figures.table_win == D("-300.00")
    assert balance("7211.r1") == D("300.00")  # a credit balance of -300 is a loss of 300
    assert -(balance("7211.r1") + balance("7212.r1")) == figures.table_win
    assert -balance("7211.r1") == sum(r.result for r in Round.objects.filter(session_id=session))
    assert balance("0120.r1") == D("2395.00")
    assert balance("1120.r1") == D("205.00")
    tb = everything()
    assert tb.balanced
    assert eventstore.check(["ledger"]) == []


def test_the_cage_cash_account_follows_the_cage(floor: Floor) -> None:
    floor.sell({"100.00": 1}, {"100.00": 1})
    floor.redeem({"25.00": 4}, {"50.00": 2})
    shift = Shift.objects.get(id=floor.window)
    expected_cash = sum((line.denomination * line.expected
                         for line in shift.lines.filter(kind="cash")), D(0))
    expected_chips = sum((line.denomination * line.expected
                          for line in shift.lines.filter(kind="chips")), D(0))
    assert balance("1110.w1") == expected_cash
    assert balance("0110.w1") == expected_chips
    assert balance("2781") == D("0.00")  # sold 100, redeemed 100
    assert entry_get(casino=CASINO, number=1).number == 1


def test_posting_a_round_costs_two_statements(floor: Floor,
                                                   django_assert_max_num_queries: Any) -> None:
    floor.open_table("r1")
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)
    settled = StoredEvent.objects.filter(event_type="RoundSettled").latest("position")
    recorded = RecordedEvent(10**9, settled.stream, settled.version + 100, settled.event_type,
                             settled.schema_version, settled.data, settled.metadata,
                             settled.recorded_at, settled.prev_hash, settled.hash)
    writer = Writer()
    with django_assert_max_num_queries(2):
        store = DatabaseStore(Reader(writer))
        apply(recorded, store)
        writer.add(store.changes)
        writer.flush()
    assert [type(change).__name__ for change in store.changes] == ["Sql"]  # one statement
    assert JournalEntry.objects.filter(event_position=10**9).exists()


def test_with_the_recorded_drop_definition_a_count_difference_is_not_table_win(
        floor: Floor) -> None:
    tables.drop_definition_set(casino=CASINO, basis="recorded", reason="as the regulator asks",
                               metadata=pit_boss())
    session = floor.open_table("r1")
    floor.buy_in("r1", "100.00")
    closing = {"100.00": 10, "25.00": 40, "5.00": 80, "1.00": 100}  # 2,500: the float, less 100
    floor.close_table("r1", closing, "110.00")
    figures = TableSession.objects.get(session_id=session)
    assert figures.drop_basis == "recorded"
    assert figures.table_win == D("0.00")  # 100 recorded + 2500 - 2600
    assert balance("7883.r1") == D("-10.00")  # 10 more in the box than recorded: a gain
    assert balance("7212.r1") == D("0.00")
    assert balance("1120.r1") == D("110.00")
    rows = reports.table_results(casino=CASINO, day_from=figures.gaming_day,
                                 day_to=figures.gaming_day)
    assert (rows[0].drop, rows[0].win, rows[0].sessions) == (D("100.00"), D("0.00"), 1)
