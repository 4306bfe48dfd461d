"""Events of the exchange at the cage (câmbio): the currencies a casino accepts besides its book
currency, their rates (each an event with its author), the exchange desk's book-currency float,
foreign notes bought and sold, and the holdings' revaluation.

Streams: ``fxcurrency/<casino>.<currency>`` (accepted, its rates and rate proposals),
``fxdesk/<casino>`` (the desk: opened, deals, revaluations). Rates are decimal strings of six
decimals (book currency per foreign unit); amounts two decimals, ``foreign`` in the foreign
currency, every other amount in the book currency. ``docs/currencies.md``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from eventstore.events import Event


@dataclass(frozen=True, kw_only=True)
class CurrencyAccepted(Event):
    event_type = "CurrencyAccepted"
    schema_version = 1

    currency: str
    book_currency: str
    denominations: tuple[str, ...]
    band_percent: Decimal


@dataclass(frozen=True, kw_only=True)
class ExchangeRateProposed(Event):
    """A middle rate beyond the band from the last one: it waits for a second person."""

    event_type = "ExchangeRateProposed"
    schema_version = 1

    proposal_id: str
    currency: str
    mid: Decimal
    spread_percent: Decimal
    last_mid: Decimal
    moved_percent: Decimal


@dataclass(frozen=True, kw_only=True)
class ExchangeRatePosted(Event):
    """The rate in force from now on: its author is the event's actor (and ``proposed_by`` when
    a second person approved a proposal)."""

    event_type = "ExchangeRatePosted"
    schema_version = 1

    currency: str
    mid: Decimal
    spread_percent: Decimal
    buy: Decimal
    sell: Decimal
    last_mid: Decimal | None
    proposal_id: str = ""
    proposed_by: str = ""


@dataclass(frozen=True, kw_only=True)
class ExchangeDeskOpened(Event):
    """The exchange desk's float in the book currency, counted. Ledger: Dr desk cash / Cr
    opening counts taken over (2789), as a cage's first count."""

    event_type = "ExchangeDeskOpened"
    schema_version = 1

    book_currency: str
    cash: dict[str, int]
    amount: Decimal


@dataclass(frozen=True, kw_only=True)
class ForeignCashBought(Event):
    """Foreign notes bought from a patron at the buying rate. Ledger: Dr foreign cash
    ``book_value`` / Cr desk cash ``paid``, Cr exchange result ``result``."""

    event_type = "ForeignCashBought"
    schema_version = 1

    deal_id: str
    currency: str
    cash: dict[str, int]
    foreign: Decimal
    rate: Decimal
    mid: Decimal
    paid: Decimal
    book_value: Decimal
    result: Decimal
    gaming_day: dt.date


@dataclass(frozen=True, kw_only=True)
class ForeignCashSold(Event):
    """Foreign notes sold to a patron at the selling rate. Ledger: Dr desk cash ``received`` /
    Cr foreign cash ``book_value``, Cr exchange result ``result``."""

    event_type = "ForeignCashSold"
    schema_version = 1

    deal_id: str
    currency: str
    cash: dict[str, int]
    foreign: Decimal
    rate: Decimal
    mid: Decimal
    received: Decimal
    book_value: Decimal
    result: Decimal
    gaming_day: dt.date


@dataclass(frozen=True, kw_only=True)
class ForeignCashRevalued(Event):
    """A currency's holding revalued at the day's closing middle rate. Ledger: Dr foreign cash
    / Cr revaluation result ``difference`` (reversed when negative)."""

    event_type = "ForeignCashRevalued"
    schema_version = 1

    currency: str
    gaming_day: dt.date
    holding: Decimal
    rate: Decimal
    book_before: Decimal
    book_after: Decimal
    difference: Decimal
