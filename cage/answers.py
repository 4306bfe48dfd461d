"""What the cage answers: its commands' answers and its API's reads, one frozen dataclass each.

An answer is JSON-native, as an event's data is: amounts as decimal strings (``"125.00"``), ids
as strings, pieces by denomination as ``{"20.00": 5}``. A command's answer is kept as JSON by
the idempotency record and rebuilt from it on a retry (``eventstore.commands``); the API
publishes each one's schema under its name (``edge.api.schema.answer_serializer``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

Counts = dict[str, int]  # pieces by denomination: {"20.00": 5}
ChipCounts = dict[str, Counts]  # by chip set: {"<chip set>": {"25.00": 40}}


# --- commands ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CageConfigureAnswer:
    cage: str
    kind: str
    minimum_cash: str


@dataclass(frozen=True)
class MinimumCashChangeAnswer:
    cage: str
    minimum_cash: str


@dataclass(frozen=True)
class ShiftOpenAnswer:
    shift_id: str
    cage: str
    basis: str
    gaming_day: str
    previous_shift_id: str | None
    opening_value: str
    version: int


@dataclass(frozen=True)
class OpeningDisputeAnswer:
    shift_id: str
    cage: str
    status: str
    previous_shift_id: str
    difference_value: str
    version: int


@dataclass(frozen=True)
class OpeningDisputeResolveAnswer:
    shift_id: str
    cage: str
    basis: str
    outcome: str
    previous_shift_id: str
    disputed_by: str
    opening_value: str
    version: int


@dataclass(frozen=True)
class ChipsSellAnswer:
    transaction_id: str
    shift_id: str
    amount: str
    patron_id: str | None
    payment: str
    version: int


@dataclass(frozen=True)
class ChipsRedeemAnswer:
    transaction_id: str
    shift_id: str
    amount: str
    patron_id: str | None
    payment: str
    cheque_number: str | None
    version: int


@dataclass(frozen=True)
class JackpotPayoutAnswer:
    """A jackpot paid out of a cage window (``transactions.jackpot_payout_record``)."""

    payout_id: str
    shift_id: str
    amount: str
    patron_id: str | None
    payment: str
    cheque_number: str | None
    version: int


@dataclass(frozen=True)
class SlipAnswer:
    """A fill issued or a credit received: the pit's slip, now at the cage."""

    slip: str
    shift_id: str
    table: str
    amount: str
    version: int


@dataclass(frozen=True)
class SlipRefuseAnswer:
    slip: str
    kind: str
    refused: bool
    version: int


@dataclass(frozen=True)
class TransferSendAnswer:
    transfer_id: str
    shift_id: str
    to_shift_id: str
    amount: str
    version: int


@dataclass(frozen=True)
class DropBoxReceiveAnswer:
    receipt_id: str
    shift_id: str
    session_id: str
    table: str
    amount: str
    counted: str
    variance_value: str
    variance_needs_approval: bool
    version: int
    # a foreign-currency table's box: every amount above is in it ("": the book currency)
    currency: str = ""


@dataclass(frozen=True)
class AdjustmentRequestAnswer:
    adjustment_id: str
    shift_id: str
    status: str
    amount: str
    version: int


@dataclass(frozen=True)
class AdjustmentDecisionAnswer:
    """An adjustment approved or rejected."""

    adjustment_id: str
    shift_id: str
    status: str
    version: int


@dataclass(frozen=True)
class ChipsServiceAnswer:
    """Chips put into service or taken out of it at the vault: their value."""

    shift_id: str
    amount: str
    version: int


@dataclass(frozen=True)
class CountLine:
    kind: str
    chip_set: str
    denomination: str
    expected: int
    counted: int
    variance: int


@dataclass(frozen=True)
class ShiftCountAnswer:
    shift_id: str
    count_number: int
    balanced: bool
    variance_value: str
    lines: list[CountLine]
    version: int
    # per foreign currency that differs: cash, amount, rate, value (``ShiftCounted``)
    foreign_variance: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class VarianceExplainAnswer:
    shift_id: str
    count_number: int
    version: int


@dataclass(frozen=True)
class VarianceApproveAnswer:
    shift_id: str
    count_number: int
    variance_value: str
    version: int


@dataclass(frozen=True)
class VarianceRefuseAnswer:
    shift_id: str
    count_number: int
    version: int


@dataclass(frozen=True)
class ShiftCloseAnswer:
    shift_id: str
    closed: bool
    count_number: int
    variance_value: str
    closing_value: str
    version: int


@dataclass(frozen=True)
class GamingDayChipsRecordAnswer:
    """The chips in circulation at a gaming day's boundary; ``as_at`` when recorded now."""

    casino: str
    gaming_day: str
    recorded: bool
    value: str
    in_circulation: Counts
    as_at: str | None = None


# --- reads -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CageRow:
    code: str
    name: str
    kind: str
    minimum_cash: str
    cash_value: str | None
    chips_value: str | None
    below_minimum: bool
    shift_id: str | None
    shift_status: str | None


@dataclass(frozen=True)
class PreviousCountDispute:
    shift_id: str
    disputed_by: str
    reason: str
    cash: Counts
    chips: ChipCounts


@dataclass(frozen=True)
class PreviousCount:
    cage: str
    previous_shift_id: str | None
    closed_by: str | None
    closed_at: dt.datetime | None
    count_number: int | None
    cash: Counts
    chips: ChipCounts
    value: str
    dispute: PreviousCountDispute | None


@dataclass(frozen=True)
class ShiftSummary:
    id: str
    cage: str
    kind: str
    gaming_day: str
    status: str
    basis: str
    opened_by: str
    opened_at: dt.datetime
    previous_shift_id: str | None
    count_number: int
    counted_by: str
    variance_value: str | None
    explanation: str
    approved_by: str
    closed_by: str
    closed_at: dt.datetime | None
    version: int


@dataclass(frozen=True)
class ShiftLine:
    """One denomination; the figures only as far as the reader may see them (blind count)."""

    kind: str
    chip_set: str
    denomination: str
    opening: int | None = None
    receipts: int | None = None
    payments: int | None = None
    expected: int | None = None
    counted: int | None = None
    variance: int | None = None


@dataclass(frozen=True)
class ShiftEntry:
    version: int
    type: str
    reference: str
    amount_in: str
    amount_out: str
    actor: str
    recorded_at: dt.datetime


@dataclass(frozen=True)
class ShiftAdjustment:
    id: str
    direction: str
    amount: str
    reason: str
    status: str
    requested_by: str
    decided_by: str


@dataclass(frozen=True)
class ShiftOpeningDispute:
    previous_shift_id: str
    cash: Counts
    chips: ChipCounts
    reason: str
    status: str
    disputed_by: str
    outcome: str
    note: str
    resolved_by: str


@dataclass(frozen=True)
class ShiftDetail(ShiftSummary):
    expected_visible: bool
    sight: str
    lines: list[ShiftLine]
    entries: list[ShiftEntry]
    adjustments: list[ShiftAdjustment]
    opening_dispute: ShiftOpeningDispute | None


@dataclass(frozen=True)
class ReconciliationLine:
    kind: str
    chip_set: str
    denomination: str
    opening: int
    receipts: int
    payments: int
    expected: int
    counted: int | None
    variance: int | None


@dataclass(frozen=True)
class ReconciliationSection:
    """``movements``: by kind of movement, its ``in`` and ``out`` values; ``balanced``: null
    while a shift of the section is not counted."""

    title: str
    cage: str
    shifts: list[str]
    status: str
    balanced: bool | None
    totals: dict[str, str | None]
    movements: dict[str, dict[str, str]]
    lines: list[ReconciliationLine]


@dataclass(frozen=True)
class Reconciliation:
    casino: str
    scope: str
    gaming_day: str
    sections: list[ReconciliationSection]


@dataclass(frozen=True)
class CirculationRow:
    chip_set: str
    denomination: str
    in_service: int
    in_cages: int
    in_vaults: int
    in_table_trays: int
    in_transit: int
    in_circulation: int
    value: str


@dataclass(frozen=True)
class ChipsInCirculation:
    casino: str
    value: str
    position: int
    open_tables: str
    jackpot_slots: str
    taken_over: str
    table_trays_known: bool
    denominations: list[CirculationRow]


@dataclass(frozen=True)
class ChipLiabilityRow:
    denomination: str
    in_service: int
    in_cages: int
    in_vaults: int
    in_table_trays: int
    in_transit: int
    in_circulation: int
    table_trays_known: bool
