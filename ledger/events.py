"""Events of the ledger: ``ledger_period/<casino>.<YYYY-MM-DD>`` (one per gaming day) and the
gaming day's close, ``gaming_day/<casino>.<YYYY-MM-DD>``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

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


@dataclass(frozen=True, kw_only=True)
class GamingDayClosed(Event):
    """A casino's gaming day is closed (``ledger.closes``): every session and shift closed, the
    day reconciled (or each difference with an approved exception), its figures fixed here as
    they stood, the ledger period closed. Stream ``gaming_day/<casino>.<YYYY-MM-DD>``.

    ``results``: per table ``{table, game, sessions, rounds, handle, drop, win}``;
    ``jackpots``: per pool ``{pool_id, meter, reserve, unpaid}``; ``totals``: ``drop``, ``win``,
    ``gaming_tax_base``, ``chips_in_circulation``, ``jackpot_liability``; ``exceptions``: the
    approvals that let a difference through.
    """

    event_type = "GamingDayClosed"
    schema_version = 1

    casino: str
    gaming_day: dt.date
    results: tuple[dict[str, Any], ...]
    jackpots: tuple[dict[str, Any], ...]
    totals: dict[str, str]
    exceptions: tuple[str, ...] = ()
    report_digest: str = ""
