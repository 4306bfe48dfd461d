"""Events of the casino's own configuration (stream ``casino/<code>``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from eventstore.events import JSON, Event, upcaster


@dataclass(frozen=True, kw_only=True)
class CasinoRegistered(Event):
    event_type = "CasinoRegistered"
    schema_version = 1

    code: str
    name: str
    currency: str
    time_zone: str
    gaming_day_closes_at: int  # local hour (0-23) at which the gaming day ends


@dataclass(frozen=True, kw_only=True)
class CasinoSettingsChanged(Event):
    """Only the fields that changed are given; the others keep their value."""

    event_type = "CasinoSettingsChanged"
    schema_version = 1

    name: str | None = None
    time_zone: str | None = None
    gaming_day_closes_at: int | None = None


@dataclass(frozen=True, kw_only=True)
class ChipSetRegistered(Event):
    """A set of value chips (fichas) in service at the casino, with its denominations.

    Stream ``chipset/<casino>.<code>``.
    """

    event_type = "ChipSetRegistered"
    schema_version = 1

    casino: str
    code: str
    name: str
    denominations: tuple[str, ...]  # decimal strings, largest first


@dataclass(frozen=True, kw_only=True)
class ChipSetDenominationsChanged(Event):
    event_type = "ChipSetDenominationsChanged"
    schema_version = 1

    denominations: tuple[str, ...]
    reason: str


@dataclass(frozen=True, kw_only=True)
class ApprovalRequested(Event):
    """Someone asks for a change after the fact (``casino.approvals``). Stream
    ``approval/<id>``; the asker is the event's actor.

    ``details`` is what the change will do once approved, as the kind's own service reads it (no
    personal data); ``summary`` says it in words for the person who decides.
    """

    event_type = "ApprovalRequested"
    schema_version = 1

    approval_id: str
    casino: str
    kind: str
    subject: str
    reason: str
    explanation: str
    summary: str
    amount: Decimal | None = None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class ApprovalGranted(Event):
    """Another person approves: the change is recorded with this event, in the same transaction."""

    event_type = "ApprovalGranted"
    schema_version = 1

    approval_id: str
    kind: str
    subject: str
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class ApprovalRefused(Event):
    event_type = "ApprovalRefused"
    schema_version = 1

    approval_id: str
    kind: str
    subject: str
    note: str


@dataclass(frozen=True, kw_only=True)
class ApprovalWithdrawn(Event):
    """The person who asked takes the request back before anyone decides."""

    event_type = "ApprovalWithdrawn"
    schema_version = 1

    approval_id: str
    kind: str
    subject: str
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class GamingDaySealed(Event):
    """A gaming day is sealed (``casino.seal``): the casino's events after the previous seal, its
    chain's events ``first_sequence`` to ``last_sequence`` (at the global positions
    ``first_position`` to ``last_position``), the hash before the first (``prev_hash``) and the
    last one's hash, the day's totals and the close report's digest, signed with the casino's
    Ed25519 key. Stream ``seal/<casino>.<YYYY-MM-DD>``, one event. The signature covers this data
    without ``signature``, in canonical JSON (``docs/event-hash.md``). Version 1, made before one
    chain per casino, covered a range of the global chain and read here with sequences 0."""

    event_type = "GamingDaySealed"
    schema_version = 2

    casino: str
    gaming_day: dt.date
    first_position: int
    last_position: int
    last_hash: str
    totals: dict[str, Decimal]
    report_digest: str
    key_id: str
    signature: str = ""
    first_sequence: int = 0
    last_sequence: int = 0
    prev_hash: str = ""


@upcaster("GamingDaySealed", 1)
def _seal_of_the_global_chain(data: JSON) -> JSON:
    """A seal made before one chain per casino covered global positions only."""
    return {**data, "first_sequence": 0, "last_sequence": 0, "prev_hash": ""}
