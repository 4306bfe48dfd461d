"""Events of the cage (caixa).

Streams
-------
* ``cage/<casino>.<code>``: the configuration of one cage, cashier window or vault.
* ``shift/<uuid>``: one shift (turno) at one cage, window or vault, from its opening count to its
  closing count, with every movement in between. The vault works in shifts too (see
  ``docs/cage.md``).
* ``cage_day/<casino>.<YYYY-MM-DD>``: the chips-in-circulation figure recorded at a gaming-day
  close.

Counts are pieces by denomination, never value: ``cash`` is ``{"20.00": 5}``; ``chips`` is
``{"20.00": 5}`` with a ``chip_set`` beside it, or ``{"<chip set>": {"20.00": 5}}`` where one
movement may carry several chip sets (counts, transfers, adjustments). ``amount`` is the value of
the movement, kept beside the pieces for the ledger and for people reading the stream.

``FillIssued`` and ``CreditReceived`` are read by the pit's projections (``games``), found by
their class (``games.projections`` imports this module): a change of their fields is a change
of those handlers too.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from eventstore.events import JSON, Event, upcaster

Counts = dict[str, int]
ChipCounts = dict[str, dict[str, int]]


# --- configuration: cage/<casino>.<code> ---------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CageConfigured(Event):
    """A cage (caixa), a cashier window or the vault (casa-forte) is set up."""

    event_type = "CageConfigured"
    schema_version = 1

    casino: str
    code: str
    name: str
    kind: str  # "main", "window" or "vault"
    minimum_cash: Decimal  # regulator-set cash the cage must hold; 0.00 = none


@dataclass(frozen=True, kw_only=True)
class CageMinimumCashChanged(Event):
    event_type = "CageMinimumCashChanged"
    schema_version = 1

    minimum_cash: Decimal
    reason: str


# --- a shift: shift/<uuid> -------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ShiftOpened(Event):
    """The shift takes over the cage's contents: the previous closing count, or a blind count."""

    event_type = "ShiftOpened"
    schema_version = 1

    shift_id: str
    casino: str
    window: str  # the cage's code
    kind: str  # the cage's kind, copied for readers of the stream
    gaming_day: dt.date
    # "previous_count", "blind_count", or after a dispute "dispute_previous" / "dispute_count"
    basis: str
    previous_shift_id: str | None
    cash: Counts
    chips: ChipCounts


@dataclass(frozen=True, kw_only=True)
class ShiftOpeningDisputed(Event):
    """The next cashier does not accept the previous closing count: their own count and why.

    The first event of the new shift's stream. The shift takes over no figure (and takes no
    movement) until a cage supervisor who did not dispute resolves it
    (``ShiftOpeningDisputeResolved``, then ``ShiftOpened`` with the count chosen).
    """

    event_type = "ShiftOpeningDisputed"
    schema_version = 1

    shift_id: str
    casino: str
    window: str
    kind: str
    gaming_day: dt.date
    previous_shift_id: str  # the closing count disputed
    cash: Counts  # the disputing cashier's count, every denomination (zeros dropped)
    chips: ChipCounts
    reason: str


@dataclass(frozen=True, kw_only=True)
class ShiftOpeningDisputeResolved(Event):
    """A cage supervisor chooses the count a disputed shift opens on, with a note.

    ``outcome`` is ``previous_count`` or ``disputed_count``; the ``ShiftOpened`` appended with it
    (basis ``dispute_previous`` or ``dispute_count``) carries the figures.
    """

    event_type = "ShiftOpeningDisputeResolved"
    schema_version = 1

    shift_id: str
    window: str
    previous_shift_id: str
    outcome: str
    note: str


@dataclass(frozen=True, kw_only=True)
class ChipsSold(Event):
    """A player buys chips at the cage: cash in, chips out (change, if any, goes back out).
    ``patron_id``: the identified patron (``compliance``), "" for an anonymous player (v2).

    ``payment``: ``cash`` (the default: every sale stored before it was cash), ``card`` or
    ``cheque`` (the patron's own cheque); paid by card or cheque, ``cash`` and ``change`` are
    empty: nothing enters the drawer (``docs/cage.md``). No card or cheque detail is kept here
    (it is the patron's): what a casino cheque may later pay back is summed per patron."""

    event_type = "ChipsSold"
    schema_version = 2

    transaction_id: str
    shift_id: str
    window: str
    chip_set: str
    chips: Counts
    cash: Counts  # received
    change: Counts  # given back
    amount: Decimal
    patron_id: str = ""
    payment: str = "cash"
    # the cashier's mark for one unidentified player (the pit's pseudonym, P-7f3a: never a
    # name): movements with one mark are linked as one patron's (issue 34)
    mark: str = ""


@dataclass(frozen=True, kw_only=True)
class ChipsRedeemed(Event):
    """A player cashes chips in: chips in, cash out. ``patron_id`` as in ``ChipsSold`` (v2).

    ``payment``: ``cash`` (the default, as every redemption stored before it) or
    ``casino_cheque``: a pre-numbered casino cheque (``cheque_number``), nominative to the
    patron and crossed, for the whole amount; ``cash`` is then empty (``docs/cage.md``)."""

    event_type = "ChipsRedeemed"
    schema_version = 2

    transaction_id: str
    shift_id: str
    window: str
    chip_set: str
    chips: Counts
    cash: Counts  # paid
    amount: Decimal
    patron_id: str = ""
    payment: str = "cash"
    cheque_number: str = ""
    mark: str = ""  # as in ``ChipsSold``


@upcaster("ChipsSold", 1)
def _chips_sold_v1(data: JSON) -> JSON:
    """Version 1 named no patron: every sale before patrons was anonymous."""
    return {**data, "patron_id": ""}


@upcaster("ChipsRedeemed", 1)
def _chips_redeemed_v1(data: JSON) -> JSON:
    return {**data, "patron_id": ""}


@dataclass(frozen=True, kw_only=True)
class FillIssued(Event):
    """The cage side of a fill slip (reforço): chips leave the window for the table."""

    event_type = "FillIssued"
    schema_version = 1

    slip: str
    shift_id: str
    window: str
    session_id: str
    table: str
    chip_set: str
    chips: Counts
    amount: Decimal
    # A fill for a session that had closed (a late slip) is issued only with another person's
    # approval (``docs/approvals.md``, kind ``late_fill``): the approval, and the closed session's
    # gaming day (the day whose figures move, in the pit and in the ledger alike).
    approval_id: str | None = None
    after_close: bool = False
    gaming_day: dt.date | None = None
    # A session of a sealed day changes no more: the change is booked in the next open day
    # (``booked_day``), the sealed day's figures staying as signed (docs/ledger.md).
    booked_day: dt.date | None = None


@dataclass(frozen=True, kw_only=True)
class CreditReceived(Event):
    """The cage side of a credit slip (crédito): chips from the table arrive at the window."""

    event_type = "CreditReceived"
    schema_version = 1

    slip: str
    shift_id: str
    window: str
    session_id: str
    table: str
    chip_set: str
    chips: Counts
    amount: Decimal


@dataclass(frozen=True, kw_only=True)
class SlipRefused(Event):
    """The cage declines a requested slip (wrong figures, no such chips); nothing moves.

    The pit's slip shows it refused, with the reason, until the pit voids it; the cage acts on
    a refused slip no more (a new slip is written for what the table still needs).
    """

    event_type = "SlipRefused"
    schema_version = 1

    kind: str  # "fill" or "credit"
    slip: str
    shift_id: str
    window: str
    session_id: str
    table: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class TransferSent(Event):
    """Cash and chips leave this shift for another cage's open shift (same transaction)."""

    event_type = "TransferSent"
    schema_version = 1

    transfer_id: str
    shift_id: str
    window: str
    to_window: str
    to_shift_id: str
    cash: Counts
    chips: ChipCounts
    amount: Decimal


@dataclass(frozen=True, kw_only=True)
class TransferReceived(Event):
    event_type = "TransferReceived"
    schema_version = 1

    transfer_id: str
    shift_id: str
    window: str
    from_window: str
    from_shift_id: str
    cash: Counts
    chips: ChipCounts
    amount: Decimal


@dataclass(frozen=True, kw_only=True)
class JackpotPaid(Event):
    """A progressive jackpot prize paid out of a window in cash or chips, against a recorded
    hit: ``prize_id`` is the pool's ``JackpotHit`` (its pool, round and winner copied from it);
    ``amount`` is this payment, all of what the hit owes or a part of it. Payments recorded
    before payments were tied to hits have ``prize_id`` "" (``docs/cage.md``). ``patron_id``:
    the identified winner (v2; "" before patrons, or below the threshold). ``payment``:
    ``cash`` (cash and chips, the default) or ``casino_cheque`` (``cheque_number``, the whole
    payment, nominative to the identified winner and crossed; no cash, no chips)."""

    event_type = "JackpotPaid"
    schema_version = 2

    payout_id: str
    shift_id: str
    window: str
    pool_id: str
    round_id: str
    winner: str
    amount: Decimal
    cash: Counts
    chip_set: str
    chips: Counts
    prize_id: str = ""
    patron_id: str = ""
    payment: str = "cash"
    cheque_number: str = ""


@upcaster("JackpotPaid", 1)
def _jackpot_paid_v1(data: JSON) -> JSON:
    return {**data, "patron_id": ""}


@dataclass(frozen=True, kw_only=True)
class DropBoxReceived(Event):
    """A table's drop box, counted in the count room, handed to the cage as cash.

    Received against its count (``count_id``, the pit's ``DropBoxCountConfirmed``): ``cash`` and
    ``amount`` are what the cage took in; ``counted`` and ``counted_amount`` the count;
    ``variance_cash`` (pieces received less counted, only denominations that differ) and
    ``variance_value`` (negative: short) the drop variance, which needs an explanation and a
    cage supervisor's approval (``DropVarianceApproved``) before its gaming day closes.
    """

    event_type = "DropBoxReceived"
    schema_version = 2

    receipt_id: str
    shift_id: str
    window: str
    session_id: str
    table: str
    drop_box: str
    cash: Counts
    amount: Decimal
    count_id: str = ""
    counted: Counts = field(default_factory=dict)
    counted_amount: Decimal | None = None
    variance_cash: dict[str, int] = field(default_factory=dict)
    variance_value: Decimal = Decimal("0.00")
    # A box of a table playing in a foreign currency (``docs/currencies.md``): its notes are of
    # that currency (every figure above in it) and go to the cage's foreign holdings, booked at
    # the session's ``rate``. Empty / None: the book currency (every box before issue 39's).
    currency: str = ""
    rate: Decimal | None = None


@upcaster("DropBoxReceived", 1)
def _drop_box_received_v1(data: JSON) -> JSON:
    """Version 1 took the box with no count to receive it against: what came in is the count."""
    return {**data, "count_id": "", "counted": data.get("cash", {}),
            "counted_amount": data.get("amount"), "variance_cash": {}, "variance_value": "0.00"}


@dataclass(frozen=True, kw_only=True)
class AdjustmentRequested(Event):
    """A correction of the window's contents, explained; it moves nothing until approved."""

    event_type = "AdjustmentRequested"
    schema_version = 1

    adjustment_id: str
    shift_id: str
    window: str
    direction: str  # "in" (adds to the window) or "out" (takes from it)
    cash: Counts
    chips: ChipCounts
    amount: Decimal
    reason: str


@dataclass(frozen=True, kw_only=True)
class AdjustmentApproved(Event):
    """A second person (cage supervisor, not the requester) approves: the adjustment applies."""

    event_type = "AdjustmentApproved"
    schema_version = 1

    adjustment_id: str
    shift_id: str
    window: str
    direction: str
    cash: Counts
    chips: ChipCounts
    amount: Decimal
    note: str


@dataclass(frozen=True, kw_only=True)
class AdjustmentRejected(Event):
    event_type = "AdjustmentRejected"
    schema_version = 1

    adjustment_id: str
    shift_id: str
    window: str
    note: str


@dataclass(frozen=True, kw_only=True)
class ChipsPutIntoService(Event):
    """New chips enter the casino's stock, into the vault (the start of their liability)."""

    event_type = "ChipsPutIntoService"
    schema_version = 1

    shift_id: str
    window: str
    chip_set: str
    chips: Counts
    amount: Decimal
    reference: str  # delivery note, order number...


@dataclass(frozen=True, kw_only=True)
class ChipsTakenOutOfService(Event):
    """Chips leave the casino's stock from the vault (worn, withdrawn, destroyed)."""

    event_type = "ChipsTakenOutOfService"
    schema_version = 1

    shift_id: str
    window: str
    chip_set: str
    chips: Counts
    amount: Decimal
    reason: str


@dataclass(frozen=True, kw_only=True)
class CageCashFellBelowMinimum(Event):
    """Alert: the cash at this cage went under its regulator-set minimum."""

    event_type = "CageCashFellBelowMinimum"
    schema_version = 1

    shift_id: str
    window: str
    cash_value: Decimal
    minimum_cash: Decimal


@dataclass(frozen=True, kw_only=True)
class CageCashRestoredAboveMinimum(Event):
    event_type = "CageCashRestoredAboveMinimum"
    schema_version = 1

    shift_id: str
    window: str
    cash_value: Decimal
    minimum_cash: Decimal


@dataclass(frozen=True, kw_only=True)
class ShiftCounted(Event):
    """The closing count, entered blind; the variance is what the system found afterwards.

    ``count_number`` is 1 for the first count and grows with each recount (a recount is made
    after the variance was shown, and the stream says so).
    """

    event_type = "ShiftCounted"
    schema_version = 1

    shift_id: str
    window: str
    count_number: int
    cash: Counts
    chips: ChipCounts
    variance_cash: dict[str, int]  # counted − expected, pieces, only lines that differ
    variance_chips: ChipCounts
    variance_value: Decimal  # signed: negative is a shortage
    # Foreign notes the window received (a foreign table's drop boxes), counted per currency
    # beside the book currency's (``docs/cage.md``, *Foreign notes at a window*): {"HKD":
    # {"100.00": 9, "50.00": 1}}; and per currency that differs, {"cash": pieces counted less
    # expected, "amount": in that currency, "rate": the currency's last posted middle rate,
    # "value": the amount at that rate in the book currency}, all strings. Empty before issue 39.
    foreign: dict[str, Counts] = field(default_factory=dict)
    foreign_variance: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class VarianceExplained(Event):
    event_type = "VarianceExplained"
    schema_version = 1

    shift_id: str
    window: str
    count_number: int
    explanation: str


@dataclass(frozen=True, kw_only=True)
class VarianceApproved(Event):
    """A cage supervisor who did not count accepts the explained variance of one count."""

    event_type = "VarianceApproved"
    schema_version = 1

    shift_id: str
    window: str
    count_number: int
    variance_value: Decimal
    note: str


@dataclass(frozen=True, kw_only=True)
class VarianceRefused(Event):
    """A cage supervisor who did not count refuses the explained variance of one count: the
    explanation no longer stands; the cashier counts again or explains it better."""

    event_type = "VarianceRefused"
    schema_version = 1

    shift_id: str
    window: str
    count_number: int
    note: str


@dataclass(frozen=True, kw_only=True)
class ShiftClosed(Event):
    """The closing count becomes the cage's contents, and the next shift's opening."""

    event_type = "ShiftClosed"
    schema_version = 1

    shift_id: str
    window: str
    count_number: int
    cash: Counts
    chips: ChipCounts
    variance_value: Decimal
    # The count's foreign notes and their variance (``ShiftCounted``): the notes are the
    # casino's holding of each currency (``exchange.ForeignHolding``) from their receipt; the
    # close hands them to it as counted, a variance leaving the holding (or joining it).
    foreign: dict[str, Counts] = field(default_factory=dict)
    foreign_variance: dict[str, dict[str, Any]] = field(default_factory=dict)


# --- gaming day: cage_day/<casino>.<date> -----------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ChipsInCirculationRecorded(Event):
    """The chip liability at a gaming-day close, by denomination (pieces), as it stood at the
    boundary (``as_at``: every event recorded before it, up to ``position``).

    ``in_circulation`` = ``in_service`` − ``in_cages`` − ``in_vaults`` − ``in_table_trays`` −
    ``in_transit``, by denomination; ``value`` is that, less what open tables' trays changed by
    since their count (``open_tables``) and the jackpot slots: the chips in players' hands,
    which the casino owes (``cage.circulation``). Events recorded before the boundary
    count, with open tables valued at that instant.
    """

    event_type = "ChipsInCirculationRecorded"
    schema_version = 1

    casino: str
    gaming_day: dt.date
    in_service: Counts
    in_cages: Counts
    in_vaults: Counts
    in_table_trays: Counts
    in_circulation: Counts
    value: Decimal
    table_trays_known: bool = True  # False (old records) while tables did not report trays
    in_transit: Counts = field(default_factory=dict)
    open_tables: Decimal = Decimal("0.00")
    jackpot_slots: Decimal = Decimal("0.00")
    as_at: dt.datetime | None = None
    position: int = 0
    state: dict[str, Any] = field(default_factory=dict)  # where every chip was (circulation)
