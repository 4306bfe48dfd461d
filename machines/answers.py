"""What the slot floor answers: its commands' answers and its API's reads, one frozen dataclass
each, JSON-native (amounts as decimal strings, ids as strings)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MachineAnswer:
    casino: str
    machine: str
    config_version: int
    version: int
    certified_return: str = ""


@dataclass(frozen=True)
class ReadingResult:
    """One reading of a batch: ``recorded``, ``duplicate`` (recorded before: nothing again) or
    ``refused`` with its ``code`` and ``reason``."""

    machine: str
    reading_id: str
    status: str
    code: str = ""
    reason: str = ""
    win: str = ""


@dataclass(frozen=True)
class ReadingsAnswer:
    casino: str
    recorded: int
    duplicates: int
    refused: int
    results: list[ReadingResult] = field(default_factory=list)


@dataclass(frozen=True)
class ResetAnswer:
    casino: str
    machine: str
    kind: str
    win: str
    version: int


@dataclass(frozen=True)
class BoxCountAnswer:
    casino: str
    machine: str
    drop_id: str
    counted: str
    metered: str
    variance: str
    status: str


@dataclass(frozen=True)
class TicketAnswer:
    casino: str
    validation: str
    amount: str
    status: str
    expires_on: str = ""


@dataclass(frozen=True)
class HandPayAnswer:
    casino: str
    handpay_id: str
    machine: str
    kind: str
    amount: str
    status: str
    slip: str = ""


@dataclass(frozen=True)
class ProgressiveAnswer:
    casino: str
    pool: str
    amount: str
    version: int
    handpay_id: str = ""
