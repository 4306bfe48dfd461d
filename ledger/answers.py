"""What the ledger's commands answer: one frozen dataclass each, JSON-native (amounts as
decimal strings). Kept as JSON by the idempotency record and rebuilt from it on a retry
(``eventstore.commands``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PeriodCloseAnswer:
    """A gaming day's ledger period closed (or found closed: ``already_closed``), with its
    entries and totals."""

    casino: str
    day: str
    entries: int
    debit_total: str
    credit_total: str
    already_closed: bool
