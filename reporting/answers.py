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
