"""Events of the ledger: ``ledger_period/<casino>.<YYYY-MM-DD>`` (one per gaming day) and the
gaming day's close, ``gaming_day/<casino>.<YYYY-MM-DD>``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from eventstore.events import Event, upcaster


@dataclass(frozen=True, kw_only=True)
class PeriodClosed(Event):
    """A gaming day's ledger period is closed: it takes no new postings from now on.

    The figures are the day's journal as checked by the close: ``entries`` posted in the day
    (numbers ``first_entry`` to ``last_entry``, none when the day had no postings) and their
    debit and credit totals, which are equal.
    """

    event_type = "PeriodClosed"
    schema_version = 1

    casino: str
    gaming_day: dt.date
    entries: int
    first_entry: int | None
    last_entry: int | None
    debit_total: Decimal
    credit_total: Decimal


@dataclass(frozen=True, kw_only=True)
class GamingDayClosed(Event):
    """A casino's gaming day is closed (``reporting.closes``): every session and shift closed, the
    day reconciled (or each difference with an approved exception), its figures fixed here as
    they stood, the ledger period closed. Stream ``gaming_day/<casino>.<YYYY-MM-DD>``.

    ``results``: per table ``{table, game, sessions, rounds, handle, drop, win}``;
    ``jackpots``: per pool ``{pool_id, meter, reserve, unpaid}``; ``totals``: ``drop``, ``win``,
    ``gaming_tax_base``, ``chips_in_circulation``, ``jackpot_liability``; ``exceptions``: the
    approvals that let a difference through.

    Version 2 adds what the month's gaming-tax return is made of (``docs/gaming-tax.md``):
    ``register``, the daily register of each table ``{table, game, bank, vip, opening, drop,
    win, commission}`` (``opening``: the capital em giro inicial, its first session's float), and
    ``revenue``, the day's ``{table_win, jackpot_retained, jackpot_funding,
    jackpot_funding_deducted}``; ``totals.gaming_tax_base`` is the gross revenue by the
    jurisdiction's rules in force that day.

    ``report`` (issue 34): the close report itself as JSON-native values, the very data whose
    SHA-256 is ``report_digest``: a sealed day's report is served as stored, never worked out
    again from tables and settings that move after the seal (empty in the days closed before).
    """

    event_type = "GamingDayClosed"
    schema_version = 2

    casino: str
    gaming_day: dt.date
    results: tuple[dict[str, Any], ...]
    jackpots: tuple[dict[str, Any], ...]
    totals: dict[str, str]
    exceptions: tuple[str, ...] = ()
    report_digest: str = ""
    register: tuple[dict[str, Any], ...] = ()
    revenue: dict[str, Any] = field(default_factory=dict)
    report: dict[str, Any] = field(default_factory=dict)


@upcaster("GamingDayClosed", 1)
def _day_closed_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 fixed no register: its days count for nothing in a tax return."""
    return {**data, "register": [], "revenue": {}}


@dataclass(frozen=True, kw_only=True)
class TaxParameterSet(Event):
    """A gaming-tax parameter changes from a day on (``docs/gaming-tax.md``), on stream
    ``tax_rules/<jurisdiction>``: who and when are the event's metadata and time; ``casino``
    empty is every casino of the jurisdiction; ``legal_source`` is the article, order or
    contract clause the value comes from."""

    event_type = "TaxParameterSet"
    schema_version = 1

    jurisdiction: str
    code: str
    value: str
    effective_from: dt.date
    legal_source: str
    casino: str = ""
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class GamingTaxAccrued(Event):
    """A month's gaming-tax return is accrued as a liability (stream
    ``gaming_tax/<casino>.<YYYY-MM>``): ``lines`` ``{code, name, base, amount}`` (an annual
    figure's line is the month's part of it, negative when the year's figure to date fell)."""

    event_type = "GamingTaxAccrued"
    schema_version = 1

    casino: str
    month: str  # YYYY-MM
    jurisdiction: str
    lines: tuple[dict[str, str], ...]
    total: Decimal


@dataclass(frozen=True, kw_only=True)
class GamingTaxPaid(Event):
    """A payment of an accrued month's tax (``code``), with the payment document's reference
    (the guia or receipt number)."""

    event_type = "GamingTaxPaid"
    schema_version = 1

    casino: str
    month: str
    code: str
    amount: Decimal
    reference: str


@dataclass(frozen=True, kw_only=True)
class CasinoChequePresented(Event):
    """The bank paid a casino cheque the cage issued (``docs/ledger.md`` § Clearing against the
    bank), on stream ``bank/<casino>``: the cheque by its number in the casino, its whole
    amount, the bank statement's reference and the day the bank paid it. The payee is the
    cheque's (by reference, in the cage's record), never written here."""

    event_type = "CasinoChequePresented"
    schema_version = 1

    casino: str
    number: str
    amount: Decimal
    bank_reference: str
    paid_on: dt.date


@dataclass(frozen=True, kw_only=True)
class CardChequeBatchSettled(Event):
    """The bank credited a batch of chips sold by card or by the patron's own cheque, on stream
    ``bank/<casino>``: what it credited (no fee: the amount cleared), the settlement or
    statement reference (once in a casino) and the day it was credited."""

    event_type = "CardChequeBatchSettled"
    schema_version = 1

    casino: str
    bank_reference: str
    amount: Decimal
    credited_on: dt.date


@dataclass(frozen=True, kw_only=True)
class ForeignChipsRevalued(Event):
    """The chips of a foreign currency in players' hands revalued at the gaming day's closing
    middle rate (``docs/currencies.md``), as the foreign notes are (``ForeignCashRevalued``):
    ``in_hands`` (their face value, in ``currency``) at ``rate`` is ``book_after``; what the
    ledger carried (2797.<currency>) was ``book_before``. Ledger: Dr 7892 / Cr 2797.<currency>
    ``difference`` (reversed when negative: a liability that shrank is a gain). Stream
    ``chips_revaluation/<casino>.<currency>.<YYYY-MM-DD>``: once a day per currency."""

    event_type = "ForeignChipsRevalued"
    schema_version = 1

    casino: str
    currency: str
    gaming_day: dt.date
    in_hands: Decimal
    rate: Decimal
    book_before: Decimal
    book_after: Decimal
    difference: Decimal
