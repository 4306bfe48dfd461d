"""What the slot floor answers: its commands' answers and its API's reads, one frozen dataclass
each, JSON-native (amounts as decimal strings, ids as strings)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
class ParameterAnswer:
    casino: str
    name: str
    value: str
    effective_from: str
    reference: str


@dataclass(frozen=True)
class SlotCashCountAnswer:
    casino: str
    count_id: str
    window: str
    gaming_day: str
    counted: str
    witnessed_by: str


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
class TicketsExpiredAnswer:
    casino: str
    day: str
    total: str
    tickets: list[TicketAnswer] = field(default_factory=list)


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
    prize: str = ""


# --- reads ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MachineRow:
    """A machine now: place, configuration, status, and the day's figures by meters."""

    machine: str
    bank: str
    position: str
    manufacturer: str
    model: str
    game: str
    denomination: str
    certified_return: str
    in_service: bool
    retired: bool
    config_version: int
    approval_reference: str
    last_read_at: str
    win_today: str
    coin_in_today: str
    games_today: int
    actual_return: str
    return_low: str
    return_high: str
    flagged: bool


@dataclass(frozen=True)
class MachineDetail:
    """A machine with its configuration history and its last readings (newest first)."""

    machine: MachineRow
    configurations: list[dict[str, Any]]
    readings: list[dict[str, Any]]


@dataclass(frozen=True)
class MachineDayRow:
    machine: str
    gaming_day: str
    coin_in: str
    coin_out: str
    jackpots: str
    cancelled_credits: str
    bills_in: str
    tickets_in: str
    tickets_out: str
    contributions: str
    games_played: int
    win: str


@dataclass(frozen=True)
class TicketRow:
    validation: str
    machine: str
    amount: str
    issued_at: str
    expires_on: str
    status: str
    place: str
    window: str


@dataclass(frozen=True)
class HandPayRow:
    handpay_id: str
    machine: str
    kind: str
    amount: str
    machine_event: str
    status: str
    window: str
    slip: str
    paid_by: str
    witnessed_by: str


@dataclass(frozen=True)
class SlotShiftRow:
    """A slot cashier's shift as its window's list shows it (the screen's figures): while it is
    open only its opening count (the counts are blind: the book, the movements and the expected
    figure show once the closing count is in), then every figure and who did what."""

    shift_id: str
    window: str
    gaming_day: str
    status: str
    opened_by: str
    opened_at: str
    opening: str
    book: str = ""
    opening_variance: str = ""
    first: bool = False
    boxes_in: str = ""
    tickets_paid: str = ""
    hand_pays_paid: str = ""
    count_number: int = 0
    counted: str = ""
    expected: str = ""
    variance: str = ""
    counted_by: str = ""
    explanation: str = ""
    approved_by: str = ""
    closed_by: str = ""
    closed_at: str = ""


@dataclass(frozen=True)
class SlotShiftAnswer:
    """A slot cashier's shift after a command: its figures so far (the expected figures only
    once the blind closing count is in)."""

    casino: str
    shift_id: str
    window: str
    status: str
    opening: str
    book: str
    opening_variance: str
    count_number: int = 0
    counted: str = ""
    expected: str = ""
    variance: str = ""
