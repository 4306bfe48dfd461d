"""The store's page-by-page readers (a whole store, a casino's chain, a casino's events of some
types) hand back every event once and in order, whatever the page size, and make each event as
its row is read: a reader may query the same connection between two events, stop half way, or
keep nothing (docs/benchmarks.md, issue 40)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

import eventstore
from eventstore import store
from eventstore.records import Metadata
from eventstore.verify import verify_casino_chain, verify_chain

from .conftest import counted

LISBOA = Metadata(actor="ana", role="pit_boss", casino="lisboa")
MACAU = Metadata(actor="rui", role="pit_boss", casino="macau")


def _rows(sql: str, params: list[object]) -> list[tuple[object, ...]]:
    """What the event table holds, read by SQL: the figures the readers must agree with."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(r) for r in cursor.fetchall()]


@pytest.fixture
def two_casinos() -> None:
    """Lisboa 7 events and Macau 5, interleaved: positions 1..12, each casino numbered from 1."""
    for n, (meta, each) in enumerate([(LISBOA, 3), (MACAU, 2), (LISBOA, 4), (MACAU, 3)]):
        with transaction.atomic():
            store.append(f"table/T{n}", counted(each), expected_version=0, metadata=meta)


@pytest.mark.django_db
@pytest.mark.parametrize("page_size", [1, 2, 5, 6, 7, 12, 13, 5000])
def test_every_event_comes_once_and_in_order_whatever_the_page(two_casinos: None,
                                                              page_size: int) -> None:
    everything = _rows("SELECT position, casino_id, sequence, hash FROM event ORDER BY position", [])
    assert [r[0] for r in everything] == list(range(1, 13))
    assert [(e.position, e.metadata["casino"], e.sequence, e.hash)
            for e in eventstore.read_all(page_size=page_size)] == everything
    assert [e.position for e in eventstore.read_all(after=5, page_size=page_size)] == list(
        range(6, 13))

    lisboa = [r for r in everything if r[1] == "lisboa"]
    assert [r[2] for r in lisboa] == [1, 2, 3, 4, 5, 6, 7]
    assert [(e.position, "lisboa", e.sequence, e.hash)
            for e in eventstore.read_chain("lisboa", page_size=page_size)] == lisboa
    assert [e.sequence for e in eventstore.read_chain("lisboa", 3, 6, page_size=page_size)] == [
        3, 4, 5, 6]
    assert [e.sequence for e in eventstore.read_chain("macau", 5, page_size=page_size)] == [5]
    assert list(eventstore.read_chain("macau", 6, page_size=page_size)) == []

    macau = [r[0] for r in everything if r[1] == "macau"]
    assert [e.position for e in eventstore.read_casino(
        "macau", ["TestChipsCounted"], page_size=page_size)] == macau
    assert [e.position for e in eventstore.read_casino(
        "macau", ["TestChipsCounted"], after=macau[1], page_size=page_size)] == macau[2:]
    assert list(eventstore.read_casino("macau", ["CasinoRegistered"], page_size=page_size)) == []


@pytest.mark.django_db
def test_a_reader_may_query_between_two_events_and_stop_half_way(two_casinos: None) -> None:
    """The follower looks a seal's hashes up in the middle of its read; a verification stops at
    the first event that does not fit. The events still come whole, and a new read starts
    afresh."""
    seen = []
    for e in eventstore.read_chain("lisboa", page_size=3):
        # a query of its own on the same connection, between two events of the same page
        (count,), = _rows("SELECT count(*) FROM event WHERE casino_id = %s AND sequence <= %s",
                          ["lisboa", e.sequence])
        seen.append((e.sequence, count))
    assert seen == [(n, n) for n in range(1, 8)]

    half = eventstore.read_all(page_size=5)
    assert [next(half).position for _ in range(3)] == [1, 2, 3]
    half.close()  # stopped half way through its first page
    assert [e.position for e in eventstore.read_all(page_size=5)] == list(range(1, 13))

    assert verify_chain().checked == 12
    report = verify_casino_chain("lisboa", first=2, last=6)
    assert (report.ok, report.checked) == (True, 5)
