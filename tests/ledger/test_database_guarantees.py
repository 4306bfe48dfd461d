"""What PostgreSQL refuses in the journal, whatever code talks to it (raw SQL here).

The balance of an entry is checked at commit (a deferred constraint trigger), so these tests
commit for real (``transaction=True``), as django-hordak's do.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from ledger.models import JournalEntry, JournalLine

from .conftest import CASINO, Floor, make_floor

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2025, 3, 1)


def _entry(cursor, number: int, day: dt.date = DAY) -> int:  # type: ignore[no-untyped-def]
    cursor.execute(
        "INSERT INTO journal_entry (casino_id, number, day, event_day, event_position, "
        "event_type, stream, recorded_at, description, txid) "
        "VALUES (%s, %s, %s, %s, %s, 'Manual', 'manual/1', now(), 'by hand', 0) RETURNING id",
        [CASINO, number, day, day, 10_000 + number])
    return int(cursor.fetchone()[0])


def _line(cursor, entry: int, line_no: int, code: str, debit: str, credit: str) -> None:  # type: ignore[no-untyped-def]
    cursor.execute(
        "INSERT INTO journal_line (entry_id, line_no, casino_id, account_code, debit, credit) "
        "VALUES (%s, %s, %s, %s, %s, %s)", [entry, line_no, CASINO, code, debit, credit])


@pytest.fixture
def accounts(db: None) -> Floor:
    """A casino whose chart has the cage accounts (posted by opening the vault)."""
    return make_floor()


def commit(*steps: Callable[[Any], object]) -> None:
    """Run ``steps`` with one cursor in one transaction, and commit it."""
    with transaction.atomic(), connection.cursor() as cursor:
        for step in steps:
            step(cursor)


def entry_with_lines(number: int, *lines: tuple[str, str, str]) -> Callable[[Any], object]:
    def step(cursor: Any) -> None:
        entry = _entry(cursor, number)
        for line_no, (code, debit, credit) in enumerate(lines, start=1):
            _line(cursor, entry, line_no, code, debit, credit)

    return step


def sql(statement: str) -> Callable[[Any], object]:
    return lambda cursor: cursor.execute(statement)


def test_an_unbalanced_entry_is_refused_at_commit(accounts: Floor) -> None:
    # the lines are accepted one by one; the commit refuses the entry
    with pytest.raises(IntegrityError, match=r"does not balance: debits 100\.00, credits 90\.00"):
        commit(entry_with_lines(900, ("1110.vault", "100.00", "0"), ("2789", "0", "90.00")))
    assert not JournalEntry.objects.filter(number=900).exists()


def test_a_balanced_entry_by_hand_commits(accounts: Floor) -> None:
    commit(entry_with_lines(900, ("1110.vault", "100.00", "0"), ("2789", "0", "100.00")))
    assert JournalLine.objects.filter(entry__number=900).count() == 2


def test_set_constraints_immediate_checks_at_the_end_of_the_statement(accounts: Floor) -> None:
    with pytest.raises(IntegrityError, match="has 0 line"):
        commit(sql("SET CONSTRAINTS journal_entry_balanced IMMEDIATE"), entry_with_lines(901))


def test_an_entry_with_one_line_is_refused(accounts: Floor) -> None:
    with pytest.raises(IntegrityError, match="has 1 line"):
        commit(entry_with_lines(902, ("1110.vault", "10.00", "0")))


@pytest.mark.parametrize(("debit", "credit"), [("-5.00", "0"), ("0", "-5.00"), ("5.00", "5.00"),
                                               ("0", "0")])
def test_a_line_is_one_positive_debit_or_one_positive_credit(accounts: Floor, debit: str,
                                                             credit: str) -> None:
    with pytest.raises(IntegrityError, match="journal_line_"):
        commit(entry_with_lines(903, ("1110.vault", debit, credit)))


def test_a_line_must_name_an_account_of_the_casino_chart(accounts: Floor) -> None:
    with pytest.raises(IntegrityError, match="journal_line_account_fk"):
        commit(entry_with_lines(904, ("9999.nowhere", "5.00", "0"), ("2789", "0", "5.00")))


@pytest.mark.parametrize("statement", [
    "UPDATE journal_line SET debit = debit + 1 WHERE debit > 0",
    "DELETE FROM journal_line",
    "TRUNCATE journal_line",
    "UPDATE journal_entry SET description = 'edited'",
    "DELETE FROM journal_entry",
    "TRUNCATE journal_entry CASCADE",
])
def test_journal_rows_cannot_be_updated_deleted_or_truncated_even_by_raw_sql(
        accounts: Floor, statement: str) -> None:
    assert JournalLine.objects.exists()
    with pytest.raises(IntegrityError, match="append-only"):
        commit(sql(statement))


def test_a_committed_entry_takes_no_new_lines_even_balanced_ones(accounts: Floor) -> None:
    entry = JournalEntry.objects.order_by("number").first()
    assert entry is not None
    with pytest.raises(IntegrityError, match="posted by an earlier transaction"):
        commit(lambda c: _line(c, entry.id, 50, "1110.vault", "1.00", "0"),
               lambda c: _line(c, entry.id, 51, "2789", "0", "1.00"))


def test_a_line_names_the_casino_of_its_entry(accounts: Floor) -> None:
    make_floor("porto")

    def porto_line(cursor: Any) -> None:
        entry = _entry(cursor, 905)
        cursor.execute(
            "INSERT INTO journal_line (entry_id, line_no, casino_id, account_code, debit, credit)"
            " VALUES (%s, 1, 'porto', '1110.vault', 5, 0)", [entry])

    with pytest.raises(IntegrityError, match="names casino porto"):
        commit(porto_line)


def test_the_entry_stamp_is_the_inserting_transaction_whatever_the_insert_says(
        accounts: Floor) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT txid_current()")
        now = cursor.fetchone()[0]
        entry = _entry(cursor, 906)
        _line(cursor, entry, 1, "1110.vault", "1.00", "0")
        _line(cursor, entry, 2, "2789", "0", "1.00")
    assert JournalEntry.objects.get(id=entry).txid == now


def test_an_entry_into_a_closed_day_is_refused_and_a_closed_day_stays_closed(
        accounts: Floor) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_period (casino_id, day, closed_at, closed_by, event_position, "
            "entries, debit_total, credit_total) VALUES (%s, %s, now(), 'test', 1, 0, 0, 0)",
            [CASINO, DAY])
    with pytest.raises(IntegrityError, match=f"gaming day {DAY} of casino {CASINO} is closed"):
        commit(entry_with_lines(907, ("1110.vault", "1.00", "0"), ("2789", "0", "1.00")))
    for statement in ("UPDATE ledger_period SET day = day + 1", "DELETE FROM ledger_period"):
        with pytest.raises(IntegrityError, match="append-only"):
            commit(sql(statement))


def test_setup_app_role_treats_the_journal_as_append_only(accounts: Floor) -> None:
    with connection.cursor() as cursor:
        cursor.execute("""
            SELECT DISTINCT c.relname FROM pg_trigger t
              JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
             WHERE p.proname = 'refuse_rewrite'""")
        tables = {row[0] for row in cursor.fetchall()}
    assert {"journal_entry", "journal_line", "ledger_period"} <= tables
