"""Check the hash chains of the stored events (``manage.py verify_events``, the regulator's API).

Each casino's events chain among themselves (``docs/event-hash.md``): a casino's event number
``sequence`` follows its casino's last one, and its ``prev_hash`` is the hash of that event (64
zeros for the casino's first). The store's global positions follow one another with no gap.

A database made before one chain per casino keeps its older events on the one global chain: up
to ``event_legacy_chain.last_position`` an event's ``prev_hash`` is the hash of the event at the
position before it, whatever its casino (docs/adr/0007-one-chain-per-casino.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection

from .hashing import GENESIS_HASH, event_hash, format_time
from .history import read_all, read_chain
from .records import RecordedEvent


@dataclass(frozen=True)
class ChainReport:
    checked: int
    last_hash: str
    bad_position: int | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.bad_position is None


def recomputed_hash(e: RecordedEvent) -> str:
    """The event's hash recomputed from what is stored (docs/event-hash.md): over the position
    it was appended at (its ``recorded_position``, for an event carried from another cell)."""
    return event_hash(position=e.recorded_position or e.position, stream=e.stream, version=e.version,
                      event_type=e.event_type, schema_version=e.schema_version, data=e.data,
                      metadata=e.metadata, recorded_at=format_time(e.recorded_at),
                      prev_hash=e.prev_hash)


def legacy_last_position() -> int:
    """The last event of the global chain of a database made before one chain per casino (0:
    every event chains by casino)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(last_position), 0) FROM event_legacy_chain")
        return int(cursor.fetchone()[0])


def verify_chain(events: Iterable[RecordedEvent] | None = None, *,
                 legacy_until: int | None = None) -> ChainReport:
    """Every event in position order: positions without a gap from 1, each casino's chain, each
    hash; stop at the first event that does not fit."""
    legacy = legacy_last_position() if legacy_until is None else legacy_until
    chains: dict[str, tuple[int, str]] = {}  # casino -> (last sequence, last hash)
    expected_position = 1
    previous = GENESIS_HASH
    checked = 0
    for e in read_all() if events is None else events:
        casino = str(e.metadata.get("casino", ""))
        sequence, chain_hash = chains.get(casino, (0, GENESIS_HASH))
        if e.position != expected_position:
            return ChainReport(checked, previous, e.position,
                               f"position {e.position} where {expected_position} was expected")
        if e.sequence != sequence + 1:
            return ChainReport(checked, previous, e.position,
                               f"event {e.sequence} of casino {casino!r} where {sequence + 1} "
                               "was expected")
        linked = previous if e.position <= legacy else chain_hash
        if e.prev_hash != linked:
            return ChainReport(checked, previous, e.position,
                               "prev_hash does not match the hash of the casino's event before")
        if recomputed_hash(e) != e.hash:
            return ChainReport(checked, previous, e.position,
                               "content does not match its hash (the event was altered)")
        chains[casino] = (e.sequence, e.hash)
        previous = e.hash
        expected_position += 1
        checked += 1
    return ChainReport(checked, previous)


def verify_casino_chain(casino: str, *, first: int = 1, last: int | None = None,
                        anchor: str | None = None) -> ChainReport:
    """One casino's chain from its event ``first`` to ``last`` (its ``sequence`` numbers; the
    whole chain by default), read without any other casino's events. ``anchor``: the hash the
    event before ``first`` must have (by default read from the store; 64 zeros for ``first`` 1).

    Events of a database made before one chain per casino (``legacy_last_position``) are
    checked for their content and numbering only: they chain globally (``verify_chain``)."""
    legacy = legacy_last_position()
    previous = anchor
    if previous is None:
        previous = GENESIS_HASH if first <= 1 else next(
            (e.hash for e in read_chain(casino, first - 1, first - 1)), "")
    expected = max(first, 1)
    checked = 0
    for e in read_chain(casino, expected, last):
        if e.sequence != expected:
            return ChainReport(checked, previous, e.position,
                               f"event {e.sequence} of casino {casino!r} where {expected} was "
                               "expected")
        if e.position > legacy and e.prev_hash != previous:
            return ChainReport(checked, previous, e.position,
                               "prev_hash does not match the hash of the casino's event before")
        if recomputed_hash(e) != e.hash:
            return ChainReport(checked, previous, e.position,
                               "content does not match its hash (the event was altered)")
        previous = e.hash
        expected += 1
        checked += 1
    if last is not None and expected != last + 1:
        return ChainReport(checked, previous, 0,
                           f"casino {casino!r} has no event {expected} (asked up to {last})")
    return ChainReport(checked, previous)
