"""What the jackpots answer: their commands' answers and their API's reads, one frozen
dataclass each, JSON-native as events are (amounts as decimal strings, ids as strings). A
command's answer is kept as JSON by the idempotency record and rebuilt from it on a retry
(``eventstore.commands``); the API publishes each one's schema under its name
(``edge.api.schema.answer_serializer``).

A coup's request and result, and a configuration, are the pure rules' own documents
(``jackpots.rules``, docs/jackpots.md): they travel as JSON objects (``Any``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

Counts = dict[str, int]


# --- commands ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolCreateAnswer:
    casino: str
    pool_id: str
    amount: str
    version: int
    config_version: int


@dataclass(frozen=True)
class PoolChangeAnswer:
    casino: str
    pool_id: str
    changed: list[str]
    config_version: int
    version: int


@dataclass(frozen=True)
class PoolTablesAnswer:
    casino: str
    pool_id: str
    tables: list[str]
    config_version: int
    version: int


@dataclass(frozen=True)
class CoupPrize:
    prize_id: str
    bet_id: str
    seat: int
    player: str
    combination: str
    amount: str


@dataclass(frozen=True)
class CoupSettleAnswer:
    pool_id: str
    round_id: str
    table: str
    config_version: int
    result: dict[str, Any]
    prizes: list[CoupPrize]


@dataclass(frozen=True)
class PrizePayAnswer:
    """A prize paid (in full or an instalment) out of a cage window."""

    prize_id: str
    pool_id: str
    round_id: str
    amount: str
    prize: str
    owed: str
    payout_id: str
    shift_id: str
    patron_id: str | None
    payment: str
    cheque_number: str | None


@dataclass(frozen=True)
class MeterCorrectionAnswer:
    pool_id: str
    meter: str
    direction: str
    amount: str
    before: str
    after: str
    version: int


# --- reads -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PaytableLine:
    """A combination and what it pays: a percentage of the pool, a fixed amount, or "jackpot"."""

    combination: str
    pays: str


@dataclass(frozen=True)
class JackpotOption:
    """A table's ``options.jackpot``: the parameters in force (docs/jackpots.md)."""

    bet: str
    increment_percent: str
    start: str
    paytable: list[PaytableLine]


@dataclass(frozen=True)
class Meters:
    """A pool's meters (money as decimal strings, counters as integers)."""

    amount: str
    reserve: str
    coups: int
    bets_count: int
    bets_amount: str
    contributions: str
    reserve_contributions: str
    diverted: str
    retained: str
    hits: int
    wins: str
    prizes_unpaid: str
    resets: int
    seeded: str
    seeded_by_casino: str
    reserve_draws: str
    corrections: str
    reserve_corrections: str
    version: int
    last_hit_at: dt.datetime | None


@dataclass(frozen=True)
class PoolSummary:
    casino: str
    pool_id: str
    name: str
    game: str
    tables: list[str]
    jackpot: JackpotOption
    reserve_percent: str
    cap: str | None
    approved_on: dt.date
    approval_reference: str
    paytable_approved_on: dt.date
    paytable_approval_reference: str
    config_version: int
    amount: str
    created_at: dt.datetime


@dataclass(frozen=True)
class PoolRow(PoolSummary):
    meters: Meters


@dataclass(frozen=True)
class Configuration:
    version: int
    effective_at: dt.datetime
    event_type: str
    changed: list[str]
    config: dict[str, Any]
    approved_on: dt.date | None
    approval_reference: str
    reason: str
    recorded_by: str


@dataclass(frozen=True)
class Hit:
    prize_id: str
    round_id: str
    table: str
    seat: int
    player: str
    combination: str
    top: bool
    amount: str
    pool_before: str
    pool_after: str
    hit_at: dt.datetime
    paid: bool
    paid_at: dt.datetime | None
    payout_id: str


@dataclass(frozen=True)
class PoolDetail(PoolSummary):
    as_of: dt.datetime | None
    configuration: Configuration
    meters: Meters
    last_hits: list[Hit]


@dataclass(frozen=True)
class MeterReading:
    """The meters after one event that moved them."""

    version: int
    position: int
    recorded_at: dt.datetime
    event_type: str
    round_id: str
    table: str
    change: str
    amount: str
    reserve: str
    coups: int
    bets_count: int
    bets_amount: str
    contributions: str
    reserve_contributions: str
    diverted: str
    retained: str
    hits: int
    wins: str
    prizes_unpaid: str
    resets: int
    seeded: str
    seeded_by_casino: str
    reserve_draws: str
    corrections: str
    reserve_corrections: str


@dataclass(frozen=True)
class CoupRow:
    round_id: str
    table: str
    settled_at: dt.datetime
    config_version: int
    result: dict[str, Any]


@dataclass(frozen=True)
class CoupDetail:
    """A coup as recorded, and recomputed now by the same pure code."""

    round_id: str
    table: str
    settled_at: dt.datetime
    settled_by: str
    config_version: int
    seats: dict[str, Any]
    request: dict[str, Any]
    result: dict[str, Any]
    recomputed: dict[str, Any]
    matches: bool


@dataclass(frozen=True)
class Prize:
    prize_id: str
    pool_id: str
    round_id: str
    table: str
    seat: int
    player: str
    bet_id: str
    combination: str
    top: bool
    amount: str
    hit_at: dt.datetime
    paid: bool
    paid_amount: str
    owed: str
    paid_at: dt.datetime | None
    payout_id: str
    shift_id: str


@dataclass(frozen=True)
class TableJackpot:
    table: str
    pool_id: str | None
    jackpot: JackpotOption | None
