"""The regulator's store follows each casino's chain (docs/cells.md).

The cells' events arrive by logical replication into the store's event table, keyed by (casino,
sequence). The follower takes each casino's events after the last one it applied, checks each as
it comes (the next number of the chain, its link to the hash before, its own hash recomputed;
a seal's signature and the hashes it signed), and runs the platform's own projections on them,
in the same transaction as its own progress: a follower stopped anywhere starts again where it
stopped, and an event is applied once (idempotent). It stops at a gap, a broken link or an
altered event (an alarm, ``StoreAlarm``), and raises an alarm on a bad seal.

The projections record a position where they record one (journal entries, rounds, seals): in
the store that is the store's own number, in the order the follower applied the events, since two
cells' positions overlap. The events keep their cells' positions: the hash covers them
(docs/event-hash.md, § Cells and the regulator's store).
"""

from __future__ import annotations

import dataclasses
import os
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from casino import seal as rules
from eventstore.changes import Change
from eventstore.hashing import GENESIS_HASH
from eventstore.history import read_chain
from eventstore.records import RecordedEvent
from eventstore.replay import selected
from eventstore.verify import recomputed_hash
from eventstore.writer import Reader, Writer, guard

from .lag import is_store
from .models import FollowedChain, StoreAlarm

PAGE = 5000
SEALED = "GamingDaySealed"


class NotAStore(RuntimeError):
    """The follower was run on a cell's database."""


def public_key_variable(casino: str) -> str:
    return "CASINO_SEAL_PUBLIC_KEY_" + re.sub(r"[^A-Z0-9]", "_", casino.upper())


def public_key(casino: str) -> Any:
    """The casino's public seal key (a PEM), from ``CASINO_SEAL_PUBLIC_KEY_<CODE>`` or its
    ``_FILE``: the store never holds a private key. None when not given."""
    variable = public_key_variable(casino)
    pem = os.environ.get(variable, "")
    if not pem and os.environ.get(variable + "_FILE"):
        with open(os.environ[variable + "_FILE"], encoding="ascii") as f:
            pem = f.read()
    return rules.public_key_from_pem(pem.encode("ascii")) if pem.strip() else None


@dataclasses.dataclass(frozen=True)
class Followed:
    casino: str
    applied: int
    last_sequence: int
    alarm: str = ""


def casinos_received() -> list[str]:
    """The casinos whose events the store holds."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT DISTINCT casino_id FROM event ORDER BY casino_id")
        return [row[0] for row in cursor.fetchall()]


def follow(*, page: int = PAGE, casinos: Sequence[str] | None = None) -> list[Followed]:
    """One pass: every casino's chain (or those of ``casinos``) followed to what the store
    holds now."""
    if not is_store():
        raise NotAStore("this database is not a regulator's store (cells_subscribe makes one): "
                        "its projections are live already, the follower would apply them twice")
    done = []
    for casino in casinos_received() if casinos is None else casinos:
        while True:
            followed = follow_casino(casino, page=page)
            done.append(followed)
            if followed.applied < page or followed.alarm:
                break
    return done


def follow_forever(*, interval: float = 1.0, page: int = PAGE,
                   casinos: Sequence[str] | None = None, passes: int | None = None,
                   tick: Callable[[list[Followed]], None] | None = None) -> None:
    """``follow`` again and again, ``interval`` seconds apart when there was nothing new."""
    count = 0
    while passes is None or count < passes:
        done = follow(page=page, casinos=casinos)
        if tick is not None:
            tick(done)
        count += 1
        if not any(f.applied for f in done):
            time.sleep(interval)


def _alarm(casino: str, sequence: int, kind: str, detail: str) -> None:
    StoreAlarm.objects.get_or_create(casino_id=casino, sequence=sequence, kind=kind,
                                     defaults={"detail": detail[:300]})


def seal_problem(recorded: RecordedEvent, hashes: Mapping[int, tuple[str, str]]) -> str:
    """What is wrong with a seal, "" if nothing: the signature by the casino's key, and the
    chain's hashes it signed (before its first event, and its last event's), as the store holds
    them. ``hashes``: sequence -> (prev_hash, hash) of the events checked in this pass."""
    data: Mapping[str, Any] = recorded.data
    casino = str(data.get("casino", ""))
    key = public_key(casino)
    if key is None:
        return f"no public seal key for {casino!r} ({public_key_variable(casino)})"
    if not rules.verify(data, str(data.get("signature", "")), key):
        return "the signature does not match the seal (forged, altered or another key)"
    first, last = int(data.get("first_sequence", 0)), int(data.get("last_sequence", 0))
    if not first:
        return ""  # a seal of the global chain (schema version 1): checked on a whole export

    def hashes_of(sequence: int) -> tuple[str, str] | None:
        if sequence in hashes:
            return hashes[sequence]
        with connection.cursor() as cursor:
            cursor.execute("SELECT prev_hash, hash FROM event WHERE casino_id = %s AND "
                           "sequence = %s", [casino, sequence])
            row = cursor.fetchone()
        return (row[0], row[1]) if row else None

    before, end = hashes_of(first), hashes_of(last)
    if before is None or before[0] != data.get("prev_hash"):
        return f"the casino's event {first} does not follow the hash the seal signed before it"
    if end is None or end[1] != data.get("last_hash"):
        return f"the casino's event {last} does not have the hash the seal signed"
    return ""


@transaction.atomic
def follow_casino(casino: str, *, page: int = PAGE) -> Followed:
    """Apply ``casino``'s next events (at most ``page``), checked, through the projections.
    The casino's row is locked: followers of different casinos run side by side (one process
    per casino or group of casinos), two of the same casino one after the other."""
    FollowedChain.objects.get_or_create(casino_id=casino, defaults={"last_hash": GENESIS_HASH})
    chain = FollowedChain.objects.select_for_update().get(casino_id=casino)
    if chain.stopped:
        return Followed(casino, 0, chain.last_sequence, chain.stopped)
    expected, previous = chain.last_sequence + 1, chain.last_hash
    good: list[RecordedEvent] = []
    hashes: dict[int, tuple[str, str]] = {}
    stop, gap = "", False
    for e in read_chain(casino, expected, chain.last_sequence + page, page_size=page):
        kind = ""
        if e.sequence != expected:
            kind, stop = "gap", f"event {expected} is missing (the next held is {e.sequence})"
            gap = True  # waited for: the follower goes on when it arrives
        elif e.prev_hash != previous:
            kind, stop = "link", f"event {e.sequence} does not chain to event {expected - 1}'s hash"
        elif recomputed_hash(e) != e.hash:
            kind, stop = "hash", f"event {e.sequence}'s content does not match its hash (altered)"
        if kind:
            _alarm(casino, expected, kind, stop)
            break
        hashes[e.sequence] = (e.prev_hash, e.hash)
        if e.event_type == SEALED:
            problem = seal_problem(e, hashes)
            if problem:
                _alarm(casino, e.sequence, "seal", problem)
        good.append(e)
        previous, expected = e.hash, e.sequence + 1
    if good:
        with connection.cursor() as cursor:
            cursor.execute("SELECT nextval('cells_store_position') FROM generate_series(1, %s)",
                           [len(good)])
            numbers = sorted(row[0] for row in cursor.fetchall())
        apply([dataclasses.replace(e, position=n) for e, n in zip(good, numbers, strict=True)])
        last = good[-1]
        chain.last_sequence, chain.last_hash = last.sequence, last.hash
        chain.last_store_position = numbers[-1]
        now = timezone.now()
        chain.applied_at = now
        chain.lag_seconds = Decimal(str(round((now - last.recorded_at).total_seconds(), 3)))
    if stop and not gap:
        chain.stopped = stop  # a broken link or an altered event: nothing after it is trusted
    chain.save()
    return Followed(casino, len(good), chain.last_sequence, stop)


def apply(events: Sequence[RecordedEvent]) -> None:
    """``events`` through every projection's handlers and one writer, in order."""
    writer = Writer(copy=True)  # a page's inserts by COPY, as the replay's (ADR 0009)
    reader = Reader(writer)
    wanted: dict[str, list[Callable[[Any, RecordedEvent], Iterable[Change] | None]]] = (
        defaultdict(list))
    for projection in selected():
        for event_type, handler in projection.bound(reader).items():
            wanted[event_type].append(handler)
    with guard(writer):
        for recorded in events:
            for handler in wanted.get(recorded.event_type, ()):
                writer.add(handler(recorded.event, recorded))
        writer.flush()
