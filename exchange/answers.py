"""What the exchange answers: frozen dataclasses, JSON-native (rates and amounts as decimal
strings)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CurrencyAnswer:
    casino: str
    currency: str
    book_currency: str
    denominations: list[str]
    band_percent: str
    mid: str | None
    buy: str | None
    sell: str | None


@dataclass(frozen=True)
class RateAnswer:
    casino: str
    currency: str
    status: str  # "posted", or "awaiting_second_person" (beyond the band)
    mid: str
    spread_percent: str
    buy: str
    sell: str
    proposal_id: str
    moved_percent: str | None


@dataclass(frozen=True)
class DeskAnswer:
    casino: str
    book_currency: str
    cash: str


@dataclass(frozen=True)
class DealAnswer:
    casino: str
    deal_id: str
    kind: str
    currency: str
    foreign: str
    rate: str
    mid: str
    book_currency: str
    book_amount: str
    book_value: str
    result: str
    desk_cash: str


@dataclass(frozen=True)
class RevaluationRow:
    currency: str
    holding: str
    rate: str
    book_before: str
    book_after: str
    difference: str


@dataclass(frozen=True)
class RevalueAnswer:
    casino: str
    gaming_day: str
    book_currency: str
    revaluations: list[RevaluationRow]


@dataclass(frozen=True)
class HoldingRow:
    """A currency's holding: in its currency and in the book currency."""

    currency: str
    pieces: dict[str, int]
    amount: str
    book_value: str
    mid: str | None
    at_mid: str | None
