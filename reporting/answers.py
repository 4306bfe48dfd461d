"""What the accountant's desk answers in its API (the reads that build their answer in the
view), one frozen dataclass each, JSON-native (amounts as decimal strings); the API publishes
each one's schema under its name (``edge.api.schema.answer_serializer``). The close report is
its own dataclass tree (``reporting.close_report.CloseReport``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LedgerReconciliationLine:
    """One figure of the floor beside the ledger's; ``ok``: equal, or the difference accepted
    by a second person, and nothing unexplained."""

    area: str
    subject: str
    what: str
    platform: str | None
    ledger: str | None
    note: str
    unexplained: bool
    accepted: bool
    difference: str
    ok: bool


@dataclass(frozen=True)
class LedgerReconciliation:
    casino: str
    gaming_day: str
    ok: bool
    lines: list[LedgerReconciliationLine]


@dataclass(frozen=True)
class RevenueMonth:
    month: str
    table_revenue: str
    table_variance: str
    table_win: str
    jackpot_retained: str
    jackpot_funding: str
    gross_gaming_revenue: str
    days_closed: int
    tax_total: str


@dataclass(frozen=True)
class GrossGamingRevenue:
    casino: str
    currency: str
    jurisdiction: str
    months: list[RevenueMonth]


# --- the day's close and seal (commands) -------------------------------------------------------


@dataclass(frozen=True)
class SealRef:
    """The seal a close made: its key and signature, the events it covers."""

    key_id: str
    signature: str
    first_position: int
    last_position: int


@dataclass(frozen=True)
class DayCloseAnswer:
    """A gaming day closed (``totals`` by figure, ``exceptions``: the approvals used); a day
    closed already is answered as on record, with the first close's digest and seal."""

    casino: str
    gaming_day: str
    closed: bool
    already_closed: bool
    totals: dict[str, str]
    exceptions: list[str]
    report_digest: str | None = None
    seal: SealRef | None = None


@dataclass(frozen=True)
class CloseExceptionAnswer:
    """A failing reconciliation line excused by an approval (the approval is the exception)."""

    exception: str


@dataclass(frozen=True)
class DaySealAnswer:
    casino: str
    gaming_day: str
    first_position: int
    last_position: int
    first_sequence: int
    last_sequence: int
    prev_hash: str
    last_hash: str
    key_id: str
    signature: str
    position: int
    already_sealed: bool


@dataclass(frozen=True)
class SealPayload:
    """What a seal signs (``GamingDaySealed`` without its signature: docs/event-hash.md); a seal
    made before one chain per casino has no sequences nor ``prev_hash``."""

    casino: str
    gaming_day: str
    first_position: int
    last_position: int
    last_hash: str
    totals: dict[str, str]
    report_digest: str
    key_id: str
    first_sequence: int | None = None
    last_sequence: int | None = None
    prev_hash: str | None = None


@dataclass(frozen=True)
class SealPublicKey:
    """What the regulator is given: the casino's public key (PEM) and its key id."""

    casino: str
    algorithm: str
    key_id: str
    public_key: str
