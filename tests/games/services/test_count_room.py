"""The count room (issue 13, finding 2): a closed session's drop box is counted by denomination by
two counters, neither of them the table's staff, and that count is the session's drop; the pit
boss no longer types it at the close (``docs/tables.md`` § The count room).

The session: a roulette table opens with 5,000.00 (50 × 100), players buy 3,500.00 of chips for
cash (into the drop box), one loses 100.00 on red; the tray closes with 1,600.00 (16 × 100).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal as D
from typing import Any

import pytest
from django.db.models import Sum

from casino.context import person_metadata, system_metadata
from casino.errors import Conflict, DomainError, InvalidCommand, NotAllowed, NotFound
from casino.models import Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from compliance.services import patron_register
from eventstore import read_stream
from eventstore.models import StoredEvent
from games import selectors
from games.limits import default_limits
from games.models import DropBox, GamingDayResult, TableSession
from games.services import count_room as room
from games.services import (
    drop_box_count,
    drop_box_count_confirm,
    drop_record,
    round_record,
    table_configure,
    table_session_close,
    table_session_open,
)

from ..conftest import CASINO, counter, events_count, pit, rebuild_differences

pytestmark = pytest.mark.django_db

BOX = {"500.00": 7}  # 3,500.00 in seven 500 notes
SHORT_BOX = {"500.00": 6, "200.00": 2}  # 3,400.00


def refused(kind: type[DomainError], code: str, call: Callable[[], Any]) -> DomainError:
    before = events_count()
    with pytest.raises(kind) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    assert events_count() == before, "a refusal recorded something"
    return caught.value


def open_session(make_table: Callable[..., str]) -> str:
    """Opened by Ana, the drop recorded by Bruno, a round by Dora (all pit bosses)."""
    table = make_table("french_roulette", "r1", minimum="5", seats=8)
    sid = str(table_session_open(casino=CASINO, table=table, opening={"100.00": 50},
                                 metadata=pit("ana")).session_id)
    # 3,500.00 at once: the law asks for the patron identified (docs/patrons.md)
    regular = patron_register(
        metadata=person_metadata(username="bruno", role=Role.CASHIER, casino=CASINO),
        verified=True, name="Regular", document_type="passport", document_number="R1",
        document_country="PT", date_of_birth="1970-01-01", nationality="PT",
        address="Rua 1", pep=False, document_image="scans/r1.jpg").patron_id
    drop_record(session_id=sid, amount="3500", patron=regular, metadata=pit("bruno"))
    round_record(session_id=sid, bets=[{"seat": 1, "type": "red", "amount": "100"}],
                 outcome={"number": 2}, metadata=pit("dora"))  # 2 is black: +100
    return sid


@pytest.fixture
def closed(make_table: Callable[..., str]) -> str:
    sid = open_session(make_table)
    table_session_close(session_id=sid, closing={"100.00": 16}, metadata=pit("carlos"))
    return sid


def test_the_drop_is_the_count_of_two_counters_not_a_figure_typed_at_the_close(
        make_table: Callable[..., str]) -> None:
    sid = open_session(make_table)
    answer = table_session_close(session_id=sid, closing={"100.00": 16}, metadata=pit("carlos"))
    # With the drop as counted (the default definition), nothing is known before the count.
    assert (answer.drop, answer.table_win) == (None, None)
    s = TableSession.objects.get(session_id=sid)
    assert (s.drop, s.table_win, s.hold_percent, s.drop_counted) == (None, None, None, None)
    assert not StoredEvent.objects.filter(event_type="DropCounted").exists()

    first = drop_box_count(session_id=sid, cash=BOX, metadata=counter("rita"))
    assert (first.amount, first.status) == ("3500.00", "counted")
    assert TableSession.objects.get(session_id=sid).table_win is None  # one counter is not two
    confirmed = drop_box_count_confirm(session_id=sid, cash=BOX,
                                       metadata=counter("sofia", Role.CAGE_SUPERVISOR))
    # Win = drop + closing − opening + credits − fills = 3,500 + 1,600 − 5,000 = 100.00;
    # hold = 100 / 3,500 = 2.8571 %.
    assert confirmed.counted_by == ["rita", "sofia"]
    assert (confirmed.drop, confirmed.table_win, confirmed.hold_percent) == (
        "3500.00", "100.00", "2.8571")
    s = TableSession.objects.get(session_id=sid)
    assert (s.drop_counted, s.drop, s.table_win, s.variance) == (
        D("3500.00"), D("3500.00"), D("100.00"), D("0.00"))
    day = GamingDayResult.objects.get(table="r1")
    assert (day.drop, day.table_win) == (D("3500.00"), D("100.00"))
    box = DropBox.objects.get(session_id=sid)
    assert (box.status, box.cash, box.amount, box.counted_by, box.confirmed_by) == (
        "confirmed", BOX, D("3500.00"), "rita", "sofia")
    stream = read_stream(f"drop_box/{sid}")
    assert [(e.event_type, e.metadata["actor"]) for e in stream] == [
        ("DropBoxCounted", "rita"), ("DropBoxCountConfirmed", "sofia")]
    assert rebuild_differences() == []


def test_the_ledger_books_the_count_as_the_tables_drop(closed: str) -> None:
    """After the count: the drop account holds the count; revenue plus variance is the win."""
    from ledger.models import JournalLine, TableDay

    def balance(code: str) -> D:
        sums = JournalLine.objects.filter(account_code=code).aggregate(d=Sum("debit"),
                                                                       c=Sum("credit"))
        return (sums["d"] or D(0)) - (sums["c"] or D(0))

    count = drop_box_count(session_id=closed, cash=SHORT_BOX, metadata=counter("rita"))
    assert count.amount == "3400.00"
    drop_box_count_confirm(session_id=closed, cash=SHORT_BOX,
                           metadata=counter("sofia", Role.CAGE_SUPERVISOR))
    # 3,500 recorded, 3,400 counted: win = 3,400 + 1,600 − 5,000 = 0, the rounds made 100.
    s = TableSession.objects.get(session_id=closed)
    assert (s.table_win, s.round_result, s.variance) == (D("0.00"), D("100.00"), D("-100.00"))
    assert balance("1120.r1") == D("3400.00")
    assert -(balance("7211.r1") + balance("7212.r1")) == s.table_win
    assert TableDay.objects.get(table="r1").drop == D("3400.00")


def test_a_box_counted_again_before_the_second_counter_confirms(closed: str) -> None:
    drop_box_count(session_id=closed, cash=SHORT_BOX, metadata=counter("rita"))
    error = refused(Conflict, "counts_differ", lambda: drop_box_count_confirm(
        session_id=closed, cash=BOX, metadata=counter("sofia", Role.CAGE_SUPERVISOR)))
    assert error.message == room.COUNTS_DIFFER.format(mine="3500.00")
    again = drop_box_count(session_id=closed, cash=BOX, metadata=counter("rita"))
    assert again.count_number == 2
    drop_box_count_confirm(session_id=closed, cash=BOX,
                           metadata=counter("sofia", Role.CAGE_SUPERVISOR))
    assert TableSession.objects.get(session_id=closed).drop == D("3500.00")
    assert DropBox.objects.get(session_id=closed).count_number == 2


def test_a_box_is_counted_once(closed: str) -> None:
    drop_box_count(session_id=closed, cash=BOX, metadata=counter("rita"))
    drop_box_count_confirm(session_id=closed, cash=BOX,
                           metadata=counter("sofia", Role.CAGE_SUPERVISOR))
    error = refused(Conflict, "counted_already", lambda: drop_box_count(
        session_id=closed, cash=SHORT_BOX, metadata=counter("teresa")))
    assert error.message == room.COUNTED_ALREADY.format(table="r1", first="rita",
                                                        second="sofia")
    refused(Conflict, "counted_already", lambda: drop_box_count_confirm(
        session_id=closed, cash=BOX, metadata=counter("teresa")))


def test_the_second_counter_is_another_person(closed: str) -> None:
    drop_box_count(session_id=closed, cash=BOX, metadata=counter("rita"))
    error = refused(NotAllowed, "four_eyes", lambda: drop_box_count_confirm(
        session_id=closed, cash=BOX, metadata=counter("rita")))
    assert error.message == room.OWN_COUNT


@pytest.mark.parametrize(("who", "what"), [
    ("ana", "TableSessionOpened"),  # opened the session
    ("bruno", "DropRecorded"),  # recorded its drop
    ("carlos", "TableSessionClosed"),  # closed it
    ("dora", "RoundOpened"),  # ran a round
])
def test_the_tables_staff_does_not_count_its_box(closed: str, who: str, what: str) -> None:
    error = refused(NotAllowed, "table_staff", lambda: drop_box_count(
        session_id=closed, cash=BOX, metadata=counter(who)))
    assert error.message == room.TABLE_STAFF.format(table="r1", what=what)
    drop_box_count(session_id=closed, cash=BOX, metadata=counter("rita"))
    refused(NotAllowed, "table_staff", lambda: drop_box_count_confirm(
        session_id=closed, cash=BOX, metadata=counter(who, Role.CAGE_SUPERVISOR)))


def test_counters_are_cashiers_or_cage_supervisors(closed: str) -> None:
    error = refused(NotAllowed, "not_allowed", lambda: drop_box_count(
        session_id=closed, cash=BOX, metadata=pit("eva")))
    assert error.message == room.NOT_A_COUNTER.format(role="pit_boss")


def test_a_box_of_a_session_that_does_not_exist_is_refused(closed: str) -> None:
    missing = "00000000-0000-4000-8000-000000000000"
    error = refused(NotFound, "not_found", lambda: drop_box_count(
        session_id=missing, cash=BOX, metadata=counter()))
    assert error.message == f"there is no table session {missing} in casino 'lisboa'"
    assert error.extra["field"] == "session_id"
    error = refused(InvalidCommand, "invalid", lambda: drop_box_count(
        session_id="x", cash=BOX, metadata=counter()))
    assert error.extra["field"] == "session_id"
    refused(Conflict, "not_counted", lambda: drop_box_count_confirm(
        session_id=closed, cash=BOX, metadata=counter()))


def test_a_box_of_another_casinos_session_is_not_found_here(closed: str) -> None:
    meta = system_metadata("porto", job="test")
    casino_register(code="porto", name="Casino Porto", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino="porto", code="main", name="Chips", denominations=["100", "5"],
                      metadata=meta)
    boss = person_metadata(username="zé", role=Role.PIT_BOSS, casino="porto")
    table_configure(casino="porto", code="p1", name="P1", game="french_roulette", options={},
                    seats=8, chip_set="main", limits=default_limits("french_roulette", D("5")),
                    metadata=boss)
    theirs = str(table_session_open(casino="porto", table="p1", opening={"100.00": 1},
                                    metadata=boss).session_id)
    table_session_close(session_id=theirs, closing={"100.00": 1}, metadata=boss)
    error = refused(NotFound, "not_found", lambda: drop_box_count(
        session_id=theirs, cash=BOX, metadata=counter()))
    assert error.message == f"there is no table session {theirs} in casino 'lisboa'"


def test_a_box_is_counted_after_the_close_in_the_casinos_notes(
        make_table: Callable[..., str]) -> None:
    sid = open_session(make_table)
    error = refused(Conflict, "session_open", lambda: drop_box_count(
        session_id=sid, cash=BOX, metadata=counter()))
    assert error.message == room.SESSION_STILL_OPEN.format(table="r1")
    table_session_close(session_id=sid, closing={"100.00": 16}, metadata=pit("carlos"))
    error = refused(InvalidCommand, "invalid", lambda: drop_box_count(
        session_id=sid, cash={"300.00": 1}, metadata=counter()))
    assert error.extra["field"] == "cash"
    refused(InvalidCommand, "invalid", lambda: drop_box_count(
        session_id=sid, cash=None, metadata=counter()))


def test_the_reconciliation_lists_every_closed_session_of_the_day(closed: str) -> None:
    day = TableSession.objects.get(session_id=closed).gaming_day
    [row] = selectors.drop_box_reconciliation(casino=CASINO, gaming_day=day)
    assert (row.status, row.counted, row.received, row.difference, row.reconciled) == (
        "not counted", None, None, None, False)
    drop_box_count(session_id=closed, cash=BOX, metadata=counter("rita"))
    drop_box_count_confirm(session_id=closed, cash=BOX,
                           metadata=counter("sofia", Role.CAGE_SUPERVISOR))
    [row] = selectors.drop_box_reconciliation(casino=CASINO, gaming_day=day)
    assert (row.status, row.counted, row.counted_by, row.received, row.reconciled) == (
        "confirmed", D("3500.00"), ("rita", "sofia"), None, False)
