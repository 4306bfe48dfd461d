"""What PostgreSQL itself guarantees about the event table, whatever code talks to it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.utils import ProgrammingError

import eventstore
from eventstore import store
from eventstore.commands import run_command
from eventstore.hashing import GENESIS_HASH
from eventstore.records import Metadata

from .conftest import counted

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def three_events(meta: Metadata) -> None:
    """Three events, recorded by a command with an idempotency key (so command_record has a row)."""
    keyed = Metadata(actor="ana", role="pit_boss", casino="lisboa", idempotency_key="k1")

    def handler() -> dict[str, int]:
        store.append("round/R1", counted(3), expected_version=0, metadata=keyed)
        return {"events": 3}

    run_command(command="test", metadata=keyed, payload={}, handler=handler)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE event SET data = '{\"amount\": \"999.00\"}' WHERE position = 2",
        "DELETE FROM event WHERE position = 3",
        "TRUNCATE event",
        "UPDATE command_record SET result = '{}'",
        "TRUNCATE command_record",
    ],
)
@pytest.mark.usefixtures("three_events")
def test_raw_sql_rewriting_history_is_refused(statement: str) -> None:
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute(statement)
    assert [e.position for e in eventstore.read_page()] == [1, 2, 3]


@pytest.mark.usefixtures("three_events")
def test_an_insert_that_skips_a_position_or_breaks_its_casinos_chain_is_refused() -> None:
    last = eventstore.read_page()[-1]
    assert (last.position, last.sequence) == (3, 3)  # three events of Lisbon
    insert = (
        "INSERT INTO event (position, stream, version, event_type, schema_version, data,"
        " metadata, casino_id, recorded_at, prev_hash, hash, sequence)"
        " VALUES (%s, 'round/R2', 1, 'X', 1, '{}', '{}', %s, now(), %s, %s, %s)"
    )
    refused = [
        ("does not follow the last position", [5, "lisboa", last.hash, "a" * 64, 4]),
        ("does not chain to the hash of its casino's event 3",
         [4, "lisboa", GENESIS_HASH, "a" * 64, 4]),
        ("does not follow its chain", [4, "lisboa", last.hash, "a" * 64, 5]),
        ("does not follow its chain", [4, "macau", GENESIS_HASH, "a" * 64, 2]),
        # Macau's first event chains to 64 zeros, not to Lisbon's last event
        ("does not chain to the hash of its casino's event 0", [4, "macau", last.hash, "a" * 64, 1]),
    ]
    for message, values in refused:
        with pytest.raises(IntegrityError, match=message), transaction.atomic(), \
                connection.cursor() as cursor:
            cursor.execute(insert, values)
    with transaction.atomic(), connection.cursor() as cursor:  # what does follow is taken
        cursor.execute(insert, [4, "macau", GENESIS_HASH, "b" * 64, 1])
        cursor.execute(insert.replace("round/R2", "round/R3"), [5, "lisboa", last.hash, "c" * 64, 4])
    assert [(e.position, e.sequence) for e in eventstore.read_page()] == [
        (1, 1), (2, 2), (3, 3), (4, 1), (5, 4)]


def _run_as_app_role(statement: str) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL ROLE casino_app_test")
        cursor.execute(statement)


@pytest.mark.usefixtures("three_events")
def test_the_application_role_cannot_rewrite_disable_triggers_or_alter_the_table() -> None:
    call_command("setup_app_role", "casino_app_test")
    refused = [
        "ALTER TABLE event DISABLE TRIGGER event_refuse_update_delete",
        "ALTER TABLE event DISABLE TRIGGER ALL",
        "ALTER TABLE event ADD COLUMN note text",
        "DROP TRIGGER event_refuse_truncate ON event",
        "UPDATE event SET stream = 'x' WHERE position = 1",
        "DELETE FROM event",
        "TRUNCATE event",
    ]
    for statement in refused:
        with pytest.raises(ProgrammingError, match=r"permission denied|must be owner"):
            _run_as_app_role(statement)
    # ...while it can still read and append through the store.
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL ROLE casino_app_test")
        store.append("round/R1", counted(1), expected_version=3,
                     metadata=Metadata(actor="app", role="system", casino="lisboa"))
    assert eventstore.head_position() == 4
    # ...and run a command with an idempotency key (the lock function, the record sent with
    # the events) as that role.
    keyed = Metadata(actor="app", role="system", casino="lisboa", idempotency_key="app-1")

    def handler() -> dict[str, object]:
        answer = {"ok": True}
        store.append("round/R1", counted(1), expected_version=4, metadata=keyed, answer=answer)
        return answer

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL ROLE casino_app_test")
        assert run_command(command="test", metadata=keyed, payload={}, handler=handler) == {
            "ok": True}
    assert eventstore.head_position() == 5


def test_setup_app_role_run_by_an_owner_who_may_not_create_roles_says_what_to_do() -> None:
    """Issue 18, item 9: run as the owner role, as docs/deployment.md says, it failed with the
    driver's traceback (permission denied to create role)."""
    from django.core.management.base import CommandError

    with connection.cursor() as cursor:
        cursor.execute("DROP ROLE IF EXISTS casino_owner_test")
        cursor.execute("CREATE ROLE casino_owner_test NOSUPERUSER NOCREATEROLE")
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL ROLE casino_owner_test")
            with pytest.raises(CommandError) as refused:
                call_command("setup_app_role", "casino_app_nobody_made")
        message = str(refused.value)
        assert "permission denied to create role" in message
        assert "CREATE ROLE casino_app_nobody_made LOGIN PASSWORD" in message
        assert "Nothing was changed." in message
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP ROLE IF EXISTS casino_owner_test")
