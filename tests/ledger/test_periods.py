"""Gaming days as accounting periods: closing one, and what happens to postings after."""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo
from decimal import Decimal as D
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection
from django.utils import translation

import eventstore
from casino.errors import Conflict, NotAllowed
from casino.models import Role
from edge.web.refusals import said
from eventstore.models import StoredEvent
from games.services import rounds
from ledger.models import JournalEntry, Period
from ledger.services import period_close

from .conftest import CASINO, Clock, Floor, act, make_floor, pit_boss, system

LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")
DAY = dt.date(2025, 3, 1)
NEXT = dt.date(2025, 3, 2)


def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=LISBON)


@pytest.fixture
def day_one(db: None, clock: Clock) -> Floor:
    """Gaming day 2025-03-01: the cage opens, a table plays one round."""
    clock.set(at(DAY, 14))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200})
    floor.sell({"100.00": 2}, {"100.00": 2})
    floor.open_table("r1")
    clock.set(at(DAY, 23, 30))
    floor.spin("r1", [{"seat": 1, "type": "red", "amount": "50"}], 2)  # lost: +50
    return floor


def test_an_event_after_midnight_belongs_to_the_gaming_day_until_the_closing_hour(
        day_one: Floor, clock: Clock) -> None:
    clock.set(at(NEXT, 5, 59))
    day_one.sell({"25.00": 1}, {"10.00": 2, "5.00": 1})
    assert JournalEntry.objects.latest("number").day == DAY
    clock.set(at(NEXT, 6, 0))
    day_one.sell({"25.00": 1}, {"10.00": 2, "5.00": 1})
    assert JournalEntry.objects.latest("number").day == NEXT


def test_a_day_is_closed_only_once_it_is_over(day_one: Floor, clock: Clock) -> None:
    clock.set(at(NEXT, 5, 30))
    with pytest.raises(Conflict, match="gaming day 2025-03-01 is not over yet"):
        period_close(casino=CASINO, day=DAY, metadata=system())
    clock.set(at(NEXT, 6, 5))
    done = period_close(casino=CASINO, day=DAY, metadata=system())
    entries = JournalEntry.objects.filter(day=DAY)
    assert done.entries == entries.count() > 0
    assert done.debit_total == done.credit_total
    assert done.already_closed is False
    period = Period.objects.get(casino_id=CASINO, day=DAY)
    assert period.closed_by == "system:test"
    assert StoredEvent.objects.filter(stream=f"ledger_period/{CASINO}.{DAY}").count() == 1
    again = period_close(casino=CASINO, day=DAY, metadata=system())
    assert again.already_closed is True
    assert StoredEvent.objects.filter(stream=f"ledger_period/{CASINO}.{DAY}").count() == 1


def test_only_the_scheduled_close_or_an_administrator_closes_a_period(
        day_one: Floor, clock: Clock) -> None:
    clock.set(at(NEXT, 7))
    with pytest.raises(NotAllowed):
        period_close(casino=CASINO, day=DAY, metadata=act("alice", Role.ACCOUNTANT))
    done = period_close(casino=CASINO, day=DAY, metadata=act("root", Role.ADMINISTRATOR))
    assert done.entries > 0


def test_a_posting_into_a_closed_day_is_refused_by_the_database(
        day_one: Floor, clock: Clock) -> None:
    clock.set(at(NEXT, 7))
    period_close(casino=CASINO, day=DAY, metadata=system())
    with pytest.raises(IntegrityError, match="is closed: it takes no new postings"), \
            connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO journal_entry (casino_id, number, day, event_day, event_position, "
            "event_type, stream, recorded_at, description, txid) VALUES "
            "(%s, 999, %s, %s, 999999, 'Manual', 'manual/1', now(), 'late', 0)",
            [CASINO, DAY, DAY])


def test_a_correction_after_the_close_lands_in_the_open_day_and_references_the_original(
        day_one: Floor, clock: Clock) -> None:
    original = JournalEntry.objects.filter(event_type="RoundSettled").get()
    assert original.day == DAY
    clock.set(at(NEXT, 7))
    period_close(casino=CASINO, day=DAY, metadata=system())
    clock.set(at(NEXT, 9))
    round_id = original.stream.partition("/")[2]
    # the ball was on 1 (red), not 2: the player won 50 instead of losing it
    rounds.round_correct(round_id=round_id, outcome={"number": 1}, reason="misread",
                         metadata=pit_boss("rita"))
    correction = JournalEntry.objects.filter(event_type="RoundSettled").latest("number")
    assert correction.day == NEXT
    assert correction.corrects == original
    assert correction.description.startswith("Round corrected at table r1: result -100.00")
    assert list(original.corrections.all()) == [correction]
    assert JournalEntry.objects.filter(day=DAY).count() == Period.objects.get(day=DAY).entries
    assert eventstore.check(["ledger"]) == []


def test_an_event_of_a_closed_day_posts_in_the_next_open_day_saying_so(
        day_one: Floor, clock: Clock) -> None:
    # the period closed by a clock ahead (its ``now``), the sale at 05:00 by the casino's own:
    # the event belongs to the closed day (a clock stepping back no longer makes one: a
    # casino's recorded_at never goes back, issue 34)
    clock.set(at(NEXT, 5))
    period_close(casino=CASINO, day=DAY, metadata=system(), now=at(NEXT, 7))
    day_one.sell({"100.00": 1}, {"100.00": 1})
    late = JournalEntry.objects.latest("number")
    assert (late.event_day, late.day) == (DAY, NEXT)
    assert "gaming day 2025-03-01 was closed: posted in 2025-03-02" in late.description
    assert eventstore.check(["ledger"]) == []


def test_a_description_keeps_its_words_and_a_page_says_it_in_its_language(
        day_one: Floor, clock: Clock) -> None:
    clock.set(at(NEXT, 5))  # the period closed by a clock ahead, the sale before the boundary
    period_close(casino=CASINO, day=DAY, metadata=system(), now=at(NEXT, 7))
    day_one.sell({"100.00": 1}, {"100.00": 1})
    late = JournalEntry.objects.latest("number")
    # the English text as stored, and its template and values beside it (the sale's inside)
    assert late.words["template"] == ("{description} [gaming day {event_day} was closed: "
                                      "posted in {day}]")
    assert late.words["params"]["description"]["template"] == (
        "Chips sold at {window} ({transaction}{how})")
    with translation.override("pt-pt"):
        text = said(late.description_words)
    assert text.startswith("Fichas vendidas em w1 (")
    assert text.endswith(") [o dia de jogo 2025-03-01 estava fechado: lançado em 2025-03-02]")
    with translation.override("en"):
        assert said(late.description_words) == late.description
    # an entry posted before descriptions kept their words: its stored text, in any language
    older = JournalEntry(description="Chips sold at w1 (t1)", words={})
    with translation.override("pt-pt"):
        assert said(older.description_words) == "Chips sold at w1 (t1)"
    assert eventstore.check(["ledger"]) == []


def test_days_close_in_order(day_one: Floor, clock: Clock) -> None:
    clock.set(at(NEXT, 10))
    day_one.sell({"100.00": 1}, {"100.00": 1})
    clock.set(at(dt.date(2025, 3, 3), 7))
    with pytest.raises(Conflict, match="gaming day 2025-03-01 has postings and is still open"):
        period_close(casino=CASINO, day=NEXT, metadata=system())
    period_close(casino=CASINO, day=DAY, metadata=system())
    assert period_close(casino=CASINO, day=NEXT, metadata=system()).entries == 1


def test_a_day_that_does_not_balance_is_not_closed(day_one: Floor, clock: Clock) -> None:
    with connection.cursor() as cursor:  # as the owner, behind the ledger's back
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # fire the checks already pending
        cursor.execute("ALTER TABLE journal_entry DISABLE TRIGGER journal_entry_balanced")
        cursor.execute(
            "INSERT INTO journal_entry (casino_id, number, day, event_day, event_position, "
            "event_type, stream, recorded_at, description, txid) VALUES "
            "(%s, 999, %s, %s, 999999, 'Manual', 'manual/1', now(), 'forged', 0) RETURNING id",
            [CASINO, DAY, DAY])
        entry = cursor.fetchone()[0]
        cursor.execute("INSERT INTO journal_line (entry_id, line_no, casino_id, account_code, "
                       "debit, credit) VALUES (%s, 1, %s, '1110.w1', 10, 0)", [entry, CASINO])
        cursor.execute("ALTER TABLE journal_entry ENABLE TRIGGER journal_entry_balanced")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    clock.set(at(NEXT, 7))
    with pytest.raises(Conflict, match=r"does not balance: entry 999: debits 10\.00, credits 0"):
        period_close(casino=CASINO, day=DAY, metadata=system())
    assert not Period.objects.exists()


def test_the_close_period_command(day_one: Floor, clock: Clock) -> None:
    clock.set(at(NEXT, 6, 30))
    out = StringIO()
    call_command("close_period", "--day", "2025-03-01", stdout=out)
    result = json.loads(out.getvalue())
    assert result["day"] == "2025-03-01"
    assert D(result["debit_total"]) > 0
    with pytest.raises(CommandError, match="is not over yet"):
        call_command("close_period", "--day", "2025-03-02", stdout=StringIO())
    with pytest.raises(CommandError, match="is not a day"):
        call_command("close_period", "--day", "someday", stdout=StringIO())


def test_the_close_period_command_needs_the_casino_when_there_are_several(
        day_one: Floor, clock: Clock) -> None:
    make_floor("porto")
    clock.set(at(NEXT, 7))
    with pytest.raises(CommandError, match="name the casino"):
        call_command("close_period", "--day", "2025-03-01", stdout=StringIO())
    call_command("close_period", "--day", "2025-03-01", "--casino", "porto", stdout=StringIO())
    assert Period.objects.filter(casino_id="porto").exists()


def test_the_period_close_task_closes_once(day_one: Floor, clock: Clock) -> None:
    from reporting.tasks import period_close_task

    clock.set(at(NEXT, 7))
    first = period_close_task.apply(args=[CASINO, "2025-03-01"]).get()
    second = period_close_task.apply(args=[CASINO, "2025-03-01"]).get()
    assert (first["already_closed"], second["already_closed"]) == (False, True)
    assert first["entries"] == second["entries"]


def test_a_day_with_a_table_variance_not_approved_does_not_close(day_one: Floor,
                                                                 clock: Clock) -> None:
    """A table variance of any size is approved by a second person before its day closes."""
    from casino.services.approvals import approval_grant, approval_request

    clock.set(at(DAY, 23, 45))
    session = day_one.tables["r1"]
    # the tray should hold 2,650.00 (2,600.00 and the 50.00 lost on red); it counts 2,649.00
    day_one.close_table("r1", {"100.00": 10, "25.00": 40, "5.00": 109, "1.00": 104}, "0.00")
    clock.set(at(NEXT, 6, 5))
    with pytest.raises(Conflict) as refused:
        period_close(casino=CASINO, day=DAY, metadata=system())
    assert refused.value.code == "table_variance_unapproved"
    assert "table r1: -1.00 (awaiting approval)" in refused.value.message
    assert not Period.objects.filter(day=DAY).exists()
    asked = approval_request(kind="table_variance", subject=session, reason="miscount",
                             explanation="a 1.00 chip under the float tray",
                             metadata=pit_boss())
    approval_grant(approval_id=asked.approval_id, metadata=pit_boss("rita"))
    assert period_close(casino=CASINO, day=DAY, metadata=system()).already_closed is False
