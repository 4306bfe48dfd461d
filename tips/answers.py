"""What the tips answer: their commands' answers and their API's reads, one frozen dataclass
each, JSON-native as events are (amounts as decimal strings, ids as strings)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TipRuleAnswer:
    casino: str
    period: str
    fund_percent: str | None
    categories: dict[str, str]
    source: str
    effective_from: str
    version: int


@dataclass(frozen=True)
class TipStaffAnswer:
    casino: str
    staff_number: str
    category: str
    since: str
    until: str | None
    version: int


@dataclass(frozen=True)
class TipBoxAnswer:
    casino: str
    gaming_day: str
    box: str
    place: str
    code: str
    currency: str
    status: str
    count_number: int
    amount: str | None
    counted_by: list[str]
    period: str
    version: int


@dataclass(frozen=True)
class TipCorrectionAnswer:
    casino: str
    correction_id: str
    direction: str
    table: str
    gaming_day: str
    currency: str
    amount: str
    status: str
    reported_by: str
    confirmed_by: str


@dataclass(frozen=True)
class TipCategoryShareRow:
    category: str
    people: int
    points: str
    amount: str


@dataclass(frozen=True)
class TipShareRow:
    staff_number: str
    category: str
    points: str
    days: int
    amount: str


@dataclass(frozen=True)
class TipPeriodAnswer:
    casino: str
    period: str
    first_day: str
    last_day: str
    currency: str
    boxes: str
    corrections: str
    total: str
    fund_percent: str
    fund: str
    staff: str
    categories: list[TipCategoryShareRow]
    shares: list[TipShareRow]
    source: str
    distributed_by: str


@dataclass(frozen=True)
class TipPersonPeriodRow:
    """One person's share of one period (the report per person)."""

    period: str
    category: str
    points: str
    days: int
    amount: str
    currency: str
