"""Events of the ledger. Stream ``ledger_period/<casino>.<YYYY-MM-DD>``: one per gaming day."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from casino.eventstore.events import Event


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
