"""A database made before one chain per casino migrates without changing any event (issue 16,
item 1): the migration numbers each casino's chain once, keeps the end of the old global chain,
and the next events of each casino chain to the casino's own last one."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import eventstore
from eventstore import store
from eventstore.hashing import GENESIS_HASH, canonical_text, event_hash, format_time
from eventstore.verify import legacy_last_position, verify_casino_chain, verify_chain

from .conftest import counted

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("eventstore", "0003_append_lock")]
AFTER = None  # every migration: the schema as it is today (the others' tests find it so)


def _migrate(target: list[tuple[str, str]] | None) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes() if target is None else target)


def _old_events() -> list[tuple[int, str, str]]:
    """Five events on the one global chain, as recorded before: Lisbon, Macau, Lisbon, Lisbon,
    Macau. Returns (position, casino, hash)."""
    made = []
    previous = GENESIS_HASH
    at = datetime(2026, 11, 1, 12, tzinfo=UTC)
    with connection.cursor() as cursor:
        for position, casino in enumerate(["lisboa", "macau", "lisboa", "lisboa", "macau"], 1):
            metadata = {"actor": "ana", "casino": casino}
            data = {"table": f"T{position}", "amount": "10.00"}
            digest = event_hash(position=position, stream=f"round/{casino}{position}", version=1,
                                event_type="TestChipsCounted", schema_version=1, data=data,
                                metadata=metadata, recorded_at=format_time(at), prev_hash=previous)
            cursor.execute(
                "INSERT INTO event (position, stream, version, event_type, schema_version, data, "
                "metadata, casino_id, recorded_at, prev_hash, hash) VALUES (%s, %s, 1, "
                "'TestChipsCounted', 1, %s::jsonb, %s::jsonb, %s, %s, %s, %s)",
                [position, f"round/{casino}{position}", canonical_text(data),
                 json.dumps(metadata), casino, at, previous, digest])
            made.append((position, casino, digest))
            previous = digest
    return made


def test_an_old_database_migrates_without_changing_an_event_and_chains_on_by_casino() -> None:
    _migrate(BEFORE)
    try:
        old = _old_events()
        with connection.cursor() as cursor:
            cursor.execute("SELECT position, data, metadata, prev_hash, hash FROM event "
                           "ORDER BY position")
            before = cursor.fetchall()
        _migrate(AFTER)
        with connection.cursor() as cursor:
            cursor.execute("SELECT position, data, metadata, prev_hash, hash FROM event "
                           "ORDER BY position")
            assert cursor.fetchall() == before  # no event changed
        assert [(e.position, e.sequence) for e in eventstore.read_all()] == [
            (1, 1), (2, 1), (3, 2), (4, 3), (5, 2)]
        assert legacy_last_position() == 5
        assert verify_chain().ok
        # the next events of each casino chain to the casino's own last one
        from django.db import transaction

        from eventstore.records import Metadata

        with transaction.atomic():
            store.append("round/L9", counted(1), expected_version=0,
                         metadata=Metadata(actor="ana", role="pit_boss", casino="lisboa"))
        with transaction.atomic():
            store.append("round/M9", counted(1), expected_version=0,
                         metadata=Metadata(actor="ana", role="pit_boss", casino="macau"))
        lisbon, macau = eventstore.read_page(5)
        assert (lisbon.position, lisbon.sequence, lisbon.prev_hash) == (6, 4, old[3][2])
        assert (macau.position, macau.sequence, macau.prev_hash) == (7, 3, old[4][2])
        assert verify_chain().ok
        assert verify_casino_chain("lisboa", first=4).ok  # the new part alone, anchored
        assert not verify_chain(legacy_until=0).ok  # the old part chains globally only
    finally:
        _migrate(AFTER)  # whatever happened, the next tests find the schema as it is
        with connection.cursor() as cursor:  # the boundary is no model's: flush leaves it
            cursor.execute("ALTER TABLE event_legacy_chain DISABLE TRIGGER USER")
            cursor.execute("DELETE FROM event_legacy_chain")
            cursor.execute("ALTER TABLE event_legacy_chain ENABLE TRIGGER USER")
