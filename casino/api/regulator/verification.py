"""What the regulator's API verifies: the hash chain between two positions, a day's seal, and
(to come) a day's archive. **The one place to swap** when the per-casino hash chain (issue 16,
item 1) and the day archive (item 7) land: the views call only these functions.

Today the chain is global: a casino's events link to the event before them in the whole store,
which may be another casino's. ``chain_verify`` therefore checks every event between the two
positions (all casinos'), and answers only whether the link holds, with the casino's count.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from casino.errors import NotFound
from casino.eventstore.hashing import event_hash, format_time
from casino.eventstore.store import read_page
from casino.services.seals import seal_check

PAGE = 5000


@dataclass(frozen=True)
class ChainCheck:
    first_position: int
    last_position: int
    checked: int  # the casino's events checked
    last_hash: str
    bad_position: int | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.bad_position is None


def chain_verify(*, casino: str, first: int, last: int) -> ChainCheck:
    """Recompute each hash from position ``first`` to ``last`` and check each link; name the
    first position that does not fit. (Swap for the per-casino chain's verifier.)"""
    previous: str | None = None
    expected = first
    checked = 0
    after = first - 1
    while after < last:
        page = read_page(after, min(PAGE, last - after))
        if not page:
            break
        for e in page:
            if e.position != expected:
                return ChainCheck(first, last, checked, previous or "", e.position,
                                  f"position {e.position} where {expected} was expected")
            if previous is not None and e.prev_hash != previous:
                return ChainCheck(first, last, checked, previous, e.position,
                                  "prev_hash does not match the previous event's hash")
            digest = event_hash(position=e.position, stream=e.stream, version=e.version,
                                event_type=e.event_type, schema_version=e.schema_version,
                                data=e.data, metadata=e.metadata,
                                recorded_at=format_time(e.recorded_at), prev_hash=e.prev_hash)
            if digest != e.hash:
                return ChainCheck(first, last, checked, previous or "", e.position,
                                  "content does not match its hash (the event was altered)")
            previous = e.hash
            expected += 1
            checked += e.metadata.get("casino") == casino
        after = page[-1].position
    if expected <= last:
        return ChainCheck(first, last, checked, previous or "", expected,
                          f"there is no event at position {expected}")
    return ChainCheck(first, last, checked, previous or "")


@dataclass(frozen=True)
class SealVerification:
    casino: str
    gaming_day: dt.date
    problem: str

    @property
    def ok(self) -> bool:
        return not self.problem


def seal_verify(*, casino: str, gaming_day: dt.date) -> SealVerification:
    """The day's seal checked against the events stored now and the casino's public key."""
    for check in seal_check(casino=casino):
        if check.gaming_day == gaming_day:
            return SealVerification(casino, gaming_day, check.problem)
    raise NotFound(f"gaming day {gaming_day.isoformat()} of {casino} is not sealed")


# The day archive (issue 16, item 7) goes here: ``day_archive(casino=, gaming_day=)`` returning
# the archive's bytes, served by a ``GamingDayArchiveApi`` in ``views.py`` at
# ``casinos/<casino>/gaming-days/<day>/archive/`` (one row in the permission matrix).
