"""One hash chain per casino (issue 16, item 1): each casino's events chain among themselves and
verify without any other casino's; each casino appends under its own lock; the global position
stays gapless for followers. The concurrency tests race real connections on PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

import eventstore
from eventstore import store
from eventstore.commands import command
from eventstore.hashing import GENESIS_HASH, event_hash, format_time
from eventstore.records import Metadata, RecordedEvent
from eventstore.store import append_lock_key
from eventstore.verify import verify_casino_chain, verify_chain

from .conftest import counted

pytestmark = pytest.mark.django_db(transaction=True)
VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_events.py"


def _meta(casino: str) -> Metadata:
    return Metadata(actor="ana", role="pit_boss", casino=casino)


@command("count_chips")
def count_chips(*, stream: str, n: int, metadata: Metadata,
                wait: threading.Event | None = None, fail: bool = False) -> dict[str, int]:
    """A stand-in command: waits (holding its casino's lock) if asked, appends ``n`` events,
    then fails if asked (everything rolled back)."""
    if wait is not None:
        wait.wait(10)
    recorded = store.append(stream, counted(n), expected_version=store.stream_version(stream),
                            metadata=metadata)
    if fail:
        raise RuntimeError("the command fails after its append")
    return {"position": recorded[-1].position}


def _interleaved() -> None:
    """Positions 1-2 Lisbon, 3 Macau, 4-5 Lisbon, 6-7 Macau, 8 Lisbon."""
    for casino, stream, n in [("lisboa", "round/L1", 2), ("macau", "round/M1", 1),
                              ("lisboa", "round/L2", 2), ("macau", "round/M2", 2),
                              ("lisboa", "round/L3", 1)]:
        count_chips(stream=stream, n=n, metadata=_meta(casino))


def _tamper(position: int, new_data: str) -> None:
    """Alter an event behind the store's back, as a superuser who can disable the trigger."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE event DISABLE TRIGGER event_refuse_update_delete")
        cursor.execute("UPDATE event SET data = %s::jsonb WHERE position = %s",
                       [new_data, position])
        cursor.execute("ALTER TABLE event ENABLE TRIGGER event_refuse_update_delete")


def _export(tmp_path: Path, casino: str) -> Path:
    out = tmp_path / f"{casino}.jsonl"
    call_command("export_events", "--casino", casino, "--output", str(out), stderr=StringIO())
    return out


def _verify(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    # -S: no site-packages, the standard library only
    return subprocess.run([sys.executable, "-S", str(VERIFIER), str(path), *extra],
                          capture_output=True, text=True, check=False)


def test_each_casino_numbers_its_own_chain_and_links_to_its_own_last_event() -> None:
    _interleaved()
    events = list(eventstore.read_all())
    assert [(e.position, e.metadata["casino"], e.sequence) for e in events] == [
        (1, "lisboa", 1), (2, "lisboa", 2), (3, "macau", 1), (4, "lisboa", 3), (5, "lisboa", 4),
        (6, "macau", 2), (7, "macau", 3), (8, "lisboa", 5)]
    by_position = {e.position: e for e in events}
    assert by_position[1].prev_hash == GENESIS_HASH
    assert by_position[3].prev_hash == GENESIS_HASH  # Macau's first event
    assert by_position[4].prev_hash == by_position[2].hash  # not Macau's event at 3
    assert by_position[6].prev_hash == by_position[3].hash
    assert by_position[8].prev_hash == by_position[5].hash
    assert verify_chain().ok


def test_lisbons_events_verify_alone(tmp_path: Path) -> None:
    _interleaved()
    lisbon = _export(tmp_path, "lisboa")
    lines = [json.loads(line) for line in lisbon.read_text().splitlines()]
    assert [e["position"] for e in lines] == [1, 2, 4, 5, 8]
    assert {e["metadata"]["casino"] for e in lines} == {"lisboa"}
    result = _verify(lisbon)
    assert result.returncode == 0, result.stdout
    assert result.stdout == "OK: 5 events verified\n"
    report = verify_casino_chain("lisboa")
    assert (report.ok, report.checked) == (True, 5)
    # between two of its events: 3 to 4 (positions 4 and 5), anchored at its event 2
    part = verify_casino_chain("lisboa", first=3, last=4)
    assert (part.ok, part.checked, part.last_hash) == (True, 2, lines[3]["hash"])
    assert not verify_casino_chain("lisboa", first=3, last=9).ok  # it has no event 6


def test_a_tampered_event_fails_only_its_casinos_chain(tmp_path: Path) -> None:
    _interleaved()
    _tamper(6, '{"table": "T0", "amount": "99.99"}')  # Macau's event 2
    assert verify_casino_chain("lisboa").ok
    macau = verify_casino_chain("macau")
    assert (macau.ok, macau.bad_position, macau.checked) == (False, 6, 1)
    assert "altered" in macau.reason
    assert _verify(_export(tmp_path, "lisboa")).returncode == 0
    failed = _verify(_export(tmp_path, "macau"))
    assert failed.returncode == 1
    assert failed.stdout == ("FAILED after 1 good events: position 6: content does not match "
                             "its hash (altered)\n")
    assert verify_chain().bad_position == 6  # the whole store names it too


def test_an_export_missing_one_event_of_a_casino_fails_at_the_next(tmp_path: Path) -> None:
    _interleaved()
    lisbon = _export(tmp_path, "lisboa")
    lines = lisbon.read_text().splitlines()
    lisbon.write_text("\n".join(lines[:2] + lines[3:]) + "\n")  # its event 3 removed
    result = _verify(lisbon)
    assert result.returncode == 1
    assert "position 5: event 4 of casino 'lisboa' where 3 was expected" in result.stdout
    later = tmp_path / "later.jsonl"
    later.write_text("\n".join(lines[2:]) + "\n")  # from its event 3: needs the hash before
    assert _verify(later).returncode == 1
    anchor = json.loads(lines[1])["hash"]
    assert _verify(later, "--anchor", f"lisboa={anchor}").returncode == 0


def test_a_whole_export_checks_every_casinos_chain_at_once(tmp_path: Path) -> None:
    _interleaved()
    out = tmp_path / "all.jsonl"
    call_command("export_events", "--output", str(out), stderr=StringIO())
    assert _verify(out).stdout == "OK: 8 events verified\n"
    assert _verify(out, "--global").returncode == 1  # it is no single global chain any more


# --- a database made before one chain per casino ------------------------------------------------


def _globally_chained() -> list[RecordedEvent]:
    """Four events of two casinos on one global chain, as recorded before this change."""
    made: list[RecordedEvent] = []
    previous = GENESIS_HASH
    at = datetime(2026, 11, 1, tzinfo=UTC)
    for position, casino, sequence in [(1, "lisboa", 1), (2, "macau", 1), (3, "lisboa", 2),
                                       (4, "macau", 2)]:
        fields: dict[str, Any] = dict(position=position, stream=f"round/{casino}", version=sequence,
                                      event_type="TestChipsCounted", schema_version=1,
                                      data={"n": position}, metadata={"casino": casino})
        digest = event_hash(**fields, recorded_at=format_time(at), prev_hash=previous)
        made.append(RecordedEvent(**fields, recorded_at=at, prev_hash=previous, hash=digest,
                                  sequence=sequence))
        previous = digest
    return made


def test_events_recorded_before_the_change_verify_on_the_global_chain_up_to_its_end() -> None:
    legacy = _globally_chained()
    assert verify_chain(legacy, legacy_until=4).ok
    broken = verify_chain(legacy, legacy_until=0)
    # Macau's first event chains to Lisbon's, which only the global chain allows
    assert (broken.bad_position, broken.reason) == (
        2, "prev_hash does not match the hash of the casino's event before")


# --- the locks, on real connections -----------------------------------------------------------


def _waiting_for(key: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                       "AND objid = %s", [key & 0xFFFFFFFF])
        return int(cursor.fetchone()[0])


def _in_thread(target: Any, *args: Any, **kwargs: Any) -> tuple[threading.Thread, list[Any]]:
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(target(*args, **kwargs))
        except Exception as error:  # the test reads it
            outcome.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def _until(condition: Any, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return bool(condition())


def test_two_casinos_append_without_waiting_for_each_others_lock() -> None:
    release = threading.Event()
    # Lisbon's command holds Lisbon's lock, checking, before it appends
    lisbon, lisbon_done = _in_thread(count_chips, stream="round/L1", n=2,
                                     metadata=_meta("lisboa"), wait=release)
    with connection.cursor() as cursor:
        assert _until(lambda: _lock_held(cursor, append_lock_key("lisboa")))
    # Macau records meanwhile, on its own connection, and commits
    macau, macau_done = _in_thread(count_chips, stream="round/M1", n=3, metadata=_meta("macau"))
    macau.join(10)
    assert macau_done == [{"position": 3}]
    # a second Lisbon command does wait for the first
    second, second_done = _in_thread(count_chips, stream="round/L2", n=1,
                                     metadata=_meta("lisboa"))
    assert _until(lambda: _waiting_for(append_lock_key("lisboa")) == 1)
    assert second_done == []
    release.set()
    for thread in (lisbon, second):
        thread.join(10)
    assert lisbon_done == [{"position": 5}]
    assert second_done == [{"position": 6}]
    assert [(e.position, e.metadata["casino"], e.sequence) for e in eventstore.read_all()] == [
        (1, "macau", 1), (2, "macau", 2), (3, "macau", 3), (4, "lisboa", 1), (5, "lisboa", 2),
        (6, "lisboa", 3)]
    assert verify_chain().ok


def _lock_held(cursor: Any, key: int) -> bool:
    cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                   "AND objid = %s", [key & 0xFFFFFFFF])
    return bool(cursor.fetchone()[0])


def test_the_global_position_stays_gapless_under_concurrent_appends_on_two_casinos() -> None:
    """Two casinos append 30 commands each at once, every third one rolled back after its
    append; a follower pages by position meanwhile. Every committed event has a position, with
    no gap and none skipped by the follower; each casino's chain is whole."""
    stop = threading.Event()
    followed: list[int] = []

    def follower() -> None:
        after = 0
        try:
            while True:
                done = stop.is_set()
                page = eventstore.read_page(after, 50)
                followed.extend(e.position for e in page)
                after = page[-1].position if page else after
                if done and not page:
                    return
        finally:
            connection.close()

    def appender(casino: str) -> int:
        committed = 0
        for i in range(30):
            try:
                count_chips(stream=f"round/{casino}{i}", n=2, metadata=_meta(casino),
                            fail=i % 3 == 2)
                committed += 2
            except RuntimeError:
                pass
        return committed

    reader = threading.Thread(target=follower)
    reader.start()
    lisbon, lisbon_done = _in_thread(appender, "lisboa")
    macau, macau_done = _in_thread(appender, "macau")
    lisbon.join(60)
    macau.join(60)
    stop.set()
    reader.join(30)
    assert lisbon_done == [40]  # 20 commands of 2 events each
    assert macau_done == [40]
    events = list(eventstore.read_all())
    assert [e.position for e in events] == list(range(1, 81))
    assert followed == list(range(1, 81))
    for casino in ("lisboa", "macau"):
        assert [e.sequence for e in events if e.metadata["casino"] == casino] == \
            list(range(1, 41))
    assert verify_chain().ok
