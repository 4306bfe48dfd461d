"""Check the hash chain of the stored events (``manage.py verify_events``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .hashing import GENESIS_HASH, event_hash, format_time
from .store import RecordedEvent, read_all


@dataclass(frozen=True)
class ChainReport:
    checked: int
    last_hash: str
    bad_position: int | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.bad_position is None


def verify_chain(events: Iterable[RecordedEvent] | None = None, *, after: int = 0,
                 prev_hash: str = GENESIS_HASH) -> ChainReport:
    """Recompute every hash in position order; stop at the first event that does not fit.

    ``after`` and ``prev_hash``: go on from a prefix already verified (its last position and
    hash); ``checked`` then counts the events after it."""
    expected_prev = prev_hash
    expected_position = after + 1
    checked = 0
    for e in read_all(after) if events is None else events:
        if e.position != expected_position:
            return ChainReport(checked, expected_prev, e.position,
                               f"position {e.position} where {expected_position} was expected")
        if e.prev_hash != expected_prev:
            return ChainReport(checked, expected_prev, e.position,
                               "prev_hash does not match the previous event's hash")
        digest = event_hash(
            position=e.position,
            stream=e.stream,
            version=e.version,
            event_type=e.event_type,
            schema_version=e.schema_version,
            data=e.data,
            metadata=e.metadata,
            recorded_at=format_time(e.recorded_at),
            prev_hash=e.prev_hash,
        )
        if digest != e.hash:
            return ChainReport(checked, expected_prev, e.position,
                               "content does not match its hash (the event was altered)")
        expected_prev = e.hash
        expected_position += 1
        checked += 1
    return ChainReport(checked, expected_prev)
