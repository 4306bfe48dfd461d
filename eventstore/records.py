"""What the event store keeps of an event: who recorded it and why (``Metadata``), and the
event once recorded, with its place in its stream and its casino's chain (``RecordedEvent``)."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from functools import cached_property

from .events import JSON, Event, decode
from .hashing import format_time


@dataclasses.dataclass(frozen=True)
class Metadata:
    """Who did it, for which casino, and why: stored with every event."""

    actor: str
    role: str
    casino: str
    request_id: str = ""
    causation_id: str = ""
    correlation_id: str = ""
    idempotency_key: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"actor": self.actor, "role": self.role, "casino": self.casino,
                "request_id": self.request_id, "causation_id": self.causation_id,
                "correlation_id": self.correlation_id, "idempotency_key": self.idempotency_key}


@dataclasses.dataclass(frozen=True)
class RecordedEvent:
    position: int
    stream: str
    version: int
    event_type: str
    schema_version: int
    data: JSON
    metadata: JSON
    recorded_at: datetime
    prev_hash: str
    hash: str
    sequence: int = 0  # the event's number in its casino's chain
    # Only for an event carried here from another cell with its casino (``cells_move``): the
    # position it was appended at, which its hash covers (docs/event-hash.md, § Cells).
    recorded_position: int | None = None

    @cached_property
    def event(self) -> Event:
        """The domain event, read through the upcasters."""
        return decode(self.event_type, self.schema_version, self.data)

    @property
    def stream_type(self) -> str:
        return self.stream.partition("/")[0]

    @property
    def stream_id(self) -> str:
        return self.stream.partition("/")[2]

    def as_export(self) -> JSON:
        """The event as exported (JSON Lines) and as hashed: see docs/event-hash.md. An event
        carried from another cell is exported at the position its hash covers, with its place in
        this database beside it (``exported_position``)."""
        return {
            **exported_position(self.position, self.recorded_position),
            "stream": self.stream,
            "version": self.version,
            "type": self.event_type,
            "schema_version": self.schema_version,
            "data": self.data,
            "metadata": self.metadata,
            "recorded_at": format_time(self.recorded_at),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
            "sequence": self.sequence,
        }


def exported_position(position: int, recorded_position: int | None) -> dict[str, int]:
    """Where an event is exported: at the position its hash covers, the one it was appended at;
    for an event carried here from another cell with its casino (``recorded_position``), with
    its place in this database beside it (``cell_position``: docs/event-hash.md). The doors
    that export from a database write them so (``export_events``, the regulator's API), and
    ``tools/verify_events.py`` reads them so. A day's archive (``history._EXPORT_LINE``, in
    SQL) writes the position alone: the sealed day as from the casino's first cell, the same
    bytes in every cell it moves to."""
    if recorded_position is None:
        return {"position": position}
    return {"position": recorded_position, "cell_position": position}
