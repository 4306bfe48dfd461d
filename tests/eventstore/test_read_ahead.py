"""A replay reads its next pages on a second connection while the handlers work on the page
before, when that connection sees the same events; otherwise on the transaction's own."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import OperationalError, transaction

import eventstore
from casino.context import system_metadata
from casino.services.casinos import casino_change_settings, casino_register
from eventstore import replay as replaying
from eventstore import store
from eventstore.records import Metadata, RecordedEvent

from .conftest import connections_now, connections_once_settled, counted


def _append(meta: Metadata, streams: int, each: int) -> None:
    for n in range(streams):
        with transaction.atomic():
            store.append(f"table/T{n}", counted(each), expected_version=0, metadata=meta)


@pytest.fixture
def second_readers(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each replay got a second connection to read ahead on."""
    got: list[bool] = []
    found = replaying._second_reader

    def spied(head: int, snapshot_id: str | None = None) -> psycopg.Connection[Any] | None:
        raw = found(head, snapshot_id)
        got.append(raw is not None)
        return raw

    monkeypatch.setattr(replaying, "_second_reader", spied)
    return got


@pytest.mark.django_db(transaction=True)
def test_committed_events_are_read_ahead_and_come_whole_and_in_order(
        meta: Metadata, second_readers: list[bool]) -> None:
    _append(meta, streams=5, each=5)  # positions 1..25, committed
    before = connections_now()
    pages = list(eventstore.replay_pages(page_size=4))
    assert second_readers == [True]
    # ceil(25 / 4) = 7 pages: six of 4 events and the last of 1, each in position order
    assert [len(p) for p in pages] == [4, 4, 4, 4, 4, 4, 1]
    assert [e.position for p in pages for e in p] == list(range(1, 26))
    assert [(e.stream, e.version) for p in pages for e in p] == [
        (f"table/T{n}", v) for n in range(5) for v in range(1, 6)]
    assert pages[0][0].data == {"table": "T0", "amount": "10.00"}
    assert pages[0][0].metadata["actor"] == "ana"
    # the same events, field for field, as a read on this transaction's own connection
    assert [e for p in pages for e in p] == list(eventstore.read_all())
    assert connections_once_settled(before) == before  # the second connection is closed


@pytest.mark.django_db(transaction=True)
def test_a_replay_stopped_half_way_lets_its_reader_and_connection_go(
        meta: Metadata, second_readers: list[bool]) -> None:
    _append(meta, streams=6, each=5)
    before = connections_now()
    pages = eventstore.replay_pages(page_size=2)  # 15 pages; the reader is at most two ahead
    first = next(pages)
    assert [e.position for e in first] == [1, 2]
    pages.close()
    assert second_readers == [True]
    assert connections_once_settled(before) == before
    assert not [t for t in threading.enumerate() if t.name == "replay-read-ahead"]


@pytest.mark.django_db(transaction=True)
def test_a_failed_read_ahead_reaches_the_replay_as_a_database_error(
        meta: Metadata, monkeypatch: pytest.MonkeyPatch) -> None:
    _append(meta, streams=3, each=4)
    read = replaying._page
    calls: list[int] = []

    def failing(raw: psycopg.Connection[Any], query: str, params: list[Any]
                ) -> list[RecordedEvent]:
        calls.append(params[-1])
        if len(calls) == 2:
            raise psycopg.OperationalError("the server closed the connection")
        return read(raw, query, params)

    monkeypatch.setattr(replaying, "_page", failing)
    before = connections_now()
    got: list[int] = []

    def replay() -> None:
        for page in eventstore.replay_pages(page_size=5):
            got.extend(e.position for e in page)

    with pytest.raises(OperationalError, match="server closed"):
        replay()
    assert got == [1, 2, 3, 4, 5]  # the first page, then the failure of the second
    assert connections_once_settled(before) == before


@pytest.mark.django_db
def test_events_this_transaction_has_not_committed_are_read_on_its_own_connection(
        meta: Metadata, second_readers: list[bool]) -> None:
    # pytest-django's transaction is never committed: a second connection would see none of
    # these events, so the replay reads them itself.
    _append(meta, streams=4, each=3)
    pages = list(eventstore.replay_pages(page_size=5))
    assert second_readers == [False]
    assert [e.position for p in pages for e in p] == list(range(1, 13))


@pytest.mark.django_db
def test_one_page_is_read_without_a_second_connection(
        meta: Metadata, second_readers: list[bool]) -> None:
    _append(meta, streams=2, each=3)
    assert [e.position for p in eventstore.replay_pages(page_size=10) for e in p] == [1, 2, 3, 4, 5, 6]
    assert second_readers == []


@pytest.mark.django_db(transaction=True)
def test_rebuild_and_check_of_committed_events_read_ahead_and_equal_live(
        monkeypatch: pytest.MonkeyPatch, second_readers: list[bool]) -> None:
    from casino.models import Casino

    for n in range(4):
        casino_register(code=f"c{n}", name=f"Casino {n}", currency="EUR",
                        time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                        metadata=system_metadata(f"c{n}", job="test"))
        casino_change_settings(code=f"c{n}", name=f"Casino {n} renamed", gaming_day_closes_at=5,
                               metadata=system_metadata(f"c{n}", job="test"))
    small: Callable[..., Iterator[list[RecordedEvent]]] = functools.partial(
        eventstore.replay_pages, page_size=3)
    monkeypatch.setattr(replaying, "replay_pages", small)
    live = sorted(Casino.objects.values_list("code", "name", "gaming_day_closes_at", "version"))
    assert live == [(f"c{n}", f"Casino {n} renamed", 5, 2) for n in range(4)]
    assert eventstore.rebuild() == 8
    assert sorted(Casino.objects.values_list("code", "name", "gaming_day_closes_at",
                                             "version")) == live
    assert eventstore.check() == []
    assert second_readers == [True, True]  # the rebuild's pages and the check's


@pytest.mark.django_db
def test_a_replayed_events_metadata_is_parsed_when_first_read_and_is_whole(
        meta: Metadata) -> None:
    _append(meta, streams=1, each=3)  # not committed: read on this transaction's connection
    (page,) = list(eventstore.replay_pages())
    first = page[0]
    assert "metadata" not in vars(first)  # a bet's handlers never read it: not parsed yet
    assert first.metadata == meta.as_dict()
    assert vars(first)["metadata"] == meta.as_dict()  # parsed once, then kept
    # the same events, field for field, both ways round, as read from their stream
    stream = list(eventstore.read_stream("table/T0"))
    assert page == stream
    assert stream == page
    assert [e.metadata for e in page] == [meta.as_dict()] * 3
