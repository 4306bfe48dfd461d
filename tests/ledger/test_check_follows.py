"""``rebuild_projections --check`` replays the ledger in memory from the events it posts from and
the casinos' settings only (``LedgerProjection.follows``: a tenth of a demo day's events), and
finds what a replay of every event finds: a closing hour changed during the night moves the
next posting's gaming day in the replay as it did live.

A sale of 100.00 at 05:30 Lisbon time, the day closing at 06:00, is on 30 November; the closing
hour is then moved to 05:00, and a sale of 25.00 at 05:45 is on 1 December.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal as D

import pytest
from django.db import connection

import eventstore
from casino.services.casinos import casino_change_settings
from eventstore import compare, projections
from eventstore import replay as replaying
from ledger.models import JournalEntry
from ledger.postings import EVENT_TYPES

from .conftest import CASINO, Clock, make_floor, system

LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")


def at(hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 12, 1, hour, minute, tzinfo=LISBON)


@pytest.fixture
def night(db: None, clock: Clock) -> None:
    clock.set(at(4, 0))
    floor = make_floor()
    floor.stock_window({"100.00": 20}, {"100.00": 50, "25.00": 100})
    clock.set(at(5, 30))
    floor.sell({"100.00": 1}, {"100.00": 1})
    clock.set(at(5, 40))
    casino_change_settings(code=CASINO, gaming_day_closes_at=5, metadata=system())
    clock.set(at(5, 45))
    floor.sell({"25.00": 1}, {"20.00": 1, "5.00": 1})


def sales() -> list[tuple[dt.date, D]]:
    """Each sale's gaming day and its entry's debits (the cash into the window and the chips out
    to the players: twice the sale)."""
    return [(e.day, sum((line.debit for line in e.lines.all()), D("0.00")))
            for e in JournalEntry.objects.filter(casino_id=CASINO, event_type="ChipsSold")
            .order_by("number")]


@pytest.mark.usefixtures("night")
def test_the_ledger_is_replayed_from_what_it_follows_and_agrees(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert sales() == [(dt.date(2026, 11, 30), D("200.00")), (dt.date(2026, 12, 1), D("50.00"))]
    ledger = projections.registry.projections["ledger"]
    read: list[frozenset[str] | None] = []
    pages = eventstore.replay_pages

    def spied(**kwargs: object) -> object:
        types = kwargs.get("event_types")
        read.append(None if types is None else frozenset(types))  # type: ignore[arg-type]
        return pages(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replaying, "replay_pages", spied)
    monkeypatch.setattr(compare, "replay_pages", spied)
    # by its own read, as the check does following the rebuild's read of every event, and for
    # one casino (the rebuild reads that casino's, the ledger its own)
    assert compare._in_memory_differences([ledger]) == []
    assert eventstore.check(["ledger"]) == []
    assert eventstore.check(casino=CASINO) == []
    assert read == [ledger.follows, None, None, ledger.follows]
    assert ledger.follows is not None
    assert ledger.follows >= EVENT_TYPES | {"PeriodClosed", "CasinoRegistered",
                                            "CasinoSettingsChanged"}
    assert "BetPlaced" not in ledger.follows  # the bulk of a day's events: never read for it


@pytest.mark.usefixtures("night")
def test_a_ledger_entry_moved_to_another_day_is_still_found() -> None:
    moved = JournalEntry.objects.filter(casino_id=CASINO, event_type="ChipsSold").latest(
        "number")
    with connection.cursor() as cursor:  # as the owner, behind the ledger's back
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # fire the checks already pending
        cursor.execute("ALTER TABLE journal_entry DISABLE TRIGGER "
                       "journal_entry_refuse_update_delete")
        cursor.execute("UPDATE journal_entry SET day = %s WHERE id = %s",
                       [dt.date(2026, 11, 30), moved.pk])
        cursor.execute("ALTER TABLE journal_entry ENABLE TRIGGER "
                       "journal_entry_refuse_update_delete")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    ledger = projections.registry.projections["ledger"]
    found = compare._in_memory_differences([ledger])
    assert [d.table for d in found] == ["journal_entry"]
    assert [d.table for d in eventstore.check(["ledger"])] == ["journal_entry"]
