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


@dataclass(frozen=True)
class ChequePresentAnswer:
    """A casino cheque the bank paid."""

    casino: str
    number: str
    amount: str
    bank_reference: str
    paid_on: str


@dataclass(frozen=True)
class BatchSettleAnswer:
    """A batch of card and cheque receipts the bank credited; what is still outstanding."""

    casino: str
    bank_reference: str
    amount: str
    credited_on: str
    outstanding: str


@dataclass(frozen=True)
class TaxParameterAnswer:
    """A tax parameter's new value, in force from ``effective_from`` (``casino``: "" for the
    whole jurisdiction)."""

    jurisdiction: str
    code: str
    value: str
    effective_from: str
    casino: str
    version: int


@dataclass(frozen=True)
class AccruedTax:
    code: str
    name: str
    base: str
    amount: str


@dataclass(frozen=True)
class TaxAccrueAnswer:
    """A month's gaming tax booked, tax by tax."""

    casino: str
    month: str
    lines: list[AccruedTax]
    total: str


@dataclass(frozen=True)
class TaxPayAnswer:
    casino: str
    month: str
    code: str
    paid: str
    owed: str


@dataclass(frozen=True)
class ChipsRevaluationRow:
    """One currency's chips in players' hands revalued: in its currency and in the book's."""

    currency: str
    in_hands: str
    rate: str
    book_before: str
    book_after: str
    difference: str


@dataclass(frozen=True)
class ChipsRevalueAnswer:
    """The foreign chips in players' hands revalued at the gaming day's closing rate."""

    casino: str
    gaming_day: str
    book_currency: str
    revaluations: list[ChipsRevaluationRow]
