"""Events of the slot floor (máquinas automáticas). Plain frozen dataclasses importing only
``eventstore.events`` (the ledger's pure postings read them).

Streams:

* ``machine/<casino>.<number>``: a machine's life (added, configured, moved, in or out of
  service, retired), its meter resets, its bill validator box's counts.
* ``meters/<casino>.<batch>``: a batch of meter readings (``MetersRead``), one append per batch
  (a slot data system's minute of readings for many machines); each event names its machine.
* ``ticket/<casino>.<validation>``: a TITO ticket, printed at a machine, redeemed once (at a
  machine, the cage or a kiosk), or expired.
* ``handpay/<casino>.<id>``: a hand pay: the machine's locked-up jackpot or cancelled credits,
  recorded against the machine's event, paid at the cage.
* ``slot-progressive/<casino>.<pool>``: a machines' progressive pool: created, hit (and reset).
* ``slot_shift/<casino>.<shift>``: a slot cashier's shift at a window: opened on a blind count,
  counted blind, its differences explained and approved, closed.

Amounts are ``Decimal`` (cents); meters travel as ``machines.meters.Meters.as_data`` (decimal
strings). ``docs/machines.md`` lists every field and what the ledger posts for each type.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from eventstore.events import Event

# --- the machine as a configured asset ----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MachineAdded(Event):
    """A machine put on the floor: where it stands, what it is, the game and pay table certified
    for it (its theoretical return, never below the legal minimum: docs/machines.md § Return to
    players), the inspection's approval of it. Configuration version 1."""

    event_type = "MachineAdded"
    schema_version = 1

    machine: str
    casino: str
    bank: str
    position: str
    manufacturer: str
    model: str
    serial: str
    game: str
    paytable: tuple[dict[str, int], ...]
    denomination: Decimal
    certified_return: Decimal
    return_spread: Decimal
    hand_pay_limit: Decimal
    progressive_pool: str
    approved_on: dt.date
    approval_reference: str


@dataclass(frozen=True, kw_only=True)
class MachineConfigured(Event):
    """A new game, pay table, denomination or hand pay limit (the whole set; ``changed`` names
    what differs), with the inspection's approval."""

    event_type = "MachineConfigured"
    schema_version = 1

    machine: str
    config_version: int
    changed: tuple[str, ...]
    game: str
    paytable: tuple[dict[str, int], ...]
    denomination: Decimal
    certified_return: Decimal
    return_spread: Decimal
    hand_pay_limit: Decimal
    progressive_pool: str
    approved_on: dt.date
    approval_reference: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class MachineMoved(Event):
    event_type = "MachineMoved"
    schema_version = 1

    machine: str
    bank: str
    position: str
    from_bank: str
    from_position: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class MachineServiceChanged(Event):
    """Taken out of service (a fault, a meter read by hand, an inspection) or back into it."""

    event_type = "MachineServiceChanged"
    schema_version = 1

    machine: str
    in_service: bool
    reason: str


@dataclass(frozen=True, kw_only=True)
class MachineRetired(Event):
    """Off the floor for good; its history stays. Its last reading is its last."""

    event_type = "MachineRetired"
    schema_version = 1

    machine: str
    reason: str
    approval_reference: str


# --- meters ------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MetersRead(Event):
    """A snapshot of every meter (``meters``), its reading id (unique per machine: a slot system
    sending it again records nothing), when the machine was read and how (``sds`` the slot data
    system, ``file`` a slot system's export, ``hand`` a meter read by hand); ``difference`` from
    the reading before (meter by meter), and the progressive ``contribution`` to ``pool`` the
    coin in of the difference made at the pool's rate."""

    event_type = "MetersRead"
    schema_version = 1

    machine: str
    reading_id: str
    read_at: dt.datetime
    gaming_day: dt.date
    source: str
    meters: dict[str, str]
    difference: dict[str, str]
    pool: str
    contribution: Decimal


@dataclass(frozen=True, kw_only=True)
class MetersReset(Event):
    """A rollover or a RAM clear, witnessed by a second person: the meters just ``before`` it (the
    play since the last reading, ``difference``, counts as a reading's would) and ``after`` it
    (the new start from which the next reading is differenced)."""

    event_type = "MetersReset"
    schema_version = 1

    machine: str
    kind: str  # rollover | ram_clear
    reading_id: str
    read_at: dt.datetime
    gaming_day: dt.date
    before: dict[str, str]
    after: dict[str, str]
    difference: dict[str, str]
    pool: str
    contribution: Decimal
    witnessed_by: str
    reason: str


# --- the count room ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MachineBoxCounted(Event):
    """The first counter's count of a bill validator box dropped from the machine: notes by
    denomination; ``metered`` the bills the meters put in it since its last drop."""

    event_type = "MachineBoxCounted"
    schema_version = 1

    machine: str
    drop_id: str
    gaming_day: dt.date
    notes: dict[str, int]
    counted: Decimal
    metered: Decimal
    variance: Decimal  # counted − metered
    window: str  # the cage that receives the cash


@dataclass(frozen=True, kw_only=True)
class MachineBoxCountConfirmed(Event):
    """The second counter (another person) confirms the count: the cash goes to the cage."""

    event_type = "MachineBoxCountConfirmed"
    schema_version = 1

    machine: str
    drop_id: str
    gaming_day: dt.date
    counted: Decimal
    metered: Decimal
    variance: Decimal
    window: str
    first_counter: str


@dataclass(frozen=True, kw_only=True)
class MachineBoxVarianceExplained(Event):
    """A variance explained, and approved by a second person, before the day closes."""

    event_type = "MachineBoxVarianceExplained"
    schema_version = 1

    machine: str
    drop_id: str
    variance: Decimal
    explanation: str
    approved_by: str


@dataclass(frozen=True, kw_only=True)
class SlotCashCounted(Event):
    """The slot cashier's cash counted at a window, by note, with a second person: the count
    the reconciliation holds against the window's cash in the ledger (1146.W) at that moment."""

    event_type = "SlotCashCounted"
    schema_version = 1

    count_id: str
    window: str
    gaming_day: dt.date
    notes: dict[str, int]
    counted: Decimal
    witnessed_by: str


# --- the slot cashier's shift ------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class SlotShiftOpened(Event):
    """A slot cashier's shift opened at a window on a blind count of its cash, by note:
    ``book`` what the window should hold (its last shift's closing count and the movements
    since); ``opening_variance`` the count less the book. On a window never counted
    (``first``) the count is cash brought from outside the platform (the ledger's opening
    counts, as a cage's first blind count); otherwise it is over or short."""

    event_type = "SlotShiftOpened"
    schema_version = 1

    shift_id: str
    window: str
    gaming_day: dt.date
    notes: dict[str, int]
    opening: Decimal
    book: Decimal
    opening_variance: Decimal
    first: bool


@dataclass(frozen=True, kw_only=True)
class SlotShiftCounted(Event):
    """The blind closing count, by note; ``expected`` the opening plus the boxes counted into the
    window less the tickets and hand pays it paid during the shift; ``variance`` counted less
    expected. A recount replaces it (``count_number``)."""

    event_type = "SlotShiftCounted"
    schema_version = 1

    shift_id: str
    window: str
    count_number: int
    notes: dict[str, int]
    counted: Decimal
    expected: Decimal
    variance: Decimal


@dataclass(frozen=True, kw_only=True)
class SlotShiftVarianceExplained(Event):
    """The shift's differences (its opening's and its count's) explained by the cashier and
    approved by a second person (a cage supervisor), before it may close."""

    event_type = "SlotShiftVarianceExplained"
    schema_version = 1

    shift_id: str
    window: str
    count_number: int
    explanation: str
    approved_by: str


@dataclass(frozen=True, kw_only=True)
class SlotShiftClosed(Event):
    """The shift closed on its last count: ``variance`` (counted − expected) goes to the slot
    cashier's over/short; the count is what the window holds."""

    event_type = "SlotShiftClosed"
    schema_version = 1

    shift_id: str
    window: str
    gaming_day: dt.date
    count_number: int
    counted: Decimal
    expected: Decimal
    variance: Decimal


@dataclass(frozen=True, kw_only=True)
class MachineParameterSet(Event):
    """A legal parameter of the slot floor (``machines.law.SETTABLE``) set from a day on by an
    accountant or administrator, citing the inspection's reference (or the article) for it."""

    event_type = "MachineParameterSet"
    schema_version = 1

    name: str
    value: Decimal
    effective_from: dt.date
    reference: str


# --- tickets (TITO) ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TicketIssued(Event):
    event_type = "TicketIssued"
    schema_version = 1

    validation: str
    machine: str
    amount: Decimal
    issued_at: dt.datetime
    expires_on: dt.date


@dataclass(frozen=True, kw_only=True)
class TicketRedeemed(Event):
    """Paid once: at a machine (credits), the cage or a kiosk (cash, ``window``)."""

    event_type = "TicketRedeemed"
    schema_version = 1

    validation: str
    amount: Decimal
    place: str  # machine | cage | kiosk
    machine: str
    window: str


@dataclass(frozen=True, kw_only=True)
class TicketExpired(Event):
    event_type = "TicketExpired"
    schema_version = 1

    validation: str
    amount: Decimal
    expired_on: dt.date


# --- hand pays ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HandPayRecorded(Event):
    """The machine locked up for a hand pay: a jackpot over its limit, cancelled credits, or a
    progressive hit; ``machine_event`` names the machine's own event (the slot system's)."""

    event_type = "HandPayRecorded"
    schema_version = 1

    handpay_id: str
    machine: str
    kind: str  # jackpot | cancelled_credits | progressive
    amount: Decimal
    machine_event: str
    pool: str


@dataclass(frozen=True, kw_only=True)
class HandPayPaid(Event):
    """Paid at the cage with its slip; ``witnessed_by`` the second person above the four-eyes
    threshold; ``patron`` a patron reference where the law asks for identification."""

    event_type = "HandPayPaid"
    schema_version = 1

    handpay_id: str
    machine: str
    kind: str
    amount: Decimal
    window: str
    slip: str
    witnessed_by: str
    patron: str


# --- machine progressives ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class SlotProgressiveCreated(Event):
    """A linked pool: the machines that feed it, its rate (percent of coin in), its start (reset)
    value, funded by the casino."""

    event_type = "SlotProgressiveCreated"
    schema_version = 1

    pool: str
    casino: str
    name: str
    machines: tuple[str, ...]
    rate: Decimal
    start: Decimal
    approval_reference: str


@dataclass(frozen=True, kw_only=True)
class SlotProgressiveHit(Event):
    """The pool won at ``machine``: ``amount`` (the pool at the hit) becomes a hand pay, and the
    pool resets to its start value, funded by the casino."""

    event_type = "SlotProgressiveHit"
    schema_version = 1

    pool: str
    machine: str
    amount: Decimal
    handpay_id: str
    reset_to: Decimal
