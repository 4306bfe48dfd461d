"""The day's close of a casino with tables in another currency (``docs/currencies.md``): each
such table's results are fixed in the book currency, what the gaming tax reads (the daily
register takes ``win`` and ``drop`` from them), with its own currency's figures beside them.

The book values are the ledger's: the win is the table's revenue and variance for the day
(7211 + 7212, by the gaming day of the events), handle and drop the day's table figures the
ledger converted at each session's rate (``ledger.currency_postings``). A table of the book
currency is left exactly as it was."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from casino.models import Casino
from casino.money import fmt
from games.models import TableSession
from ledger.models import TableDay

from .reconciliation import _balance


def in_book_currency(casino: Casino, day: dt.date, results: list[dict[str, Any]]
                     ) -> list[dict[str, Any]]:
    """``results`` (one row per table) with each foreign table's handle, drop and win in the
    book currency, and ``currency``, ``handle_in_currency``, ``drop_in_currency``,
    ``win_in_currency`` as the pit counted them."""
    foreign = dict(TableSession.objects.filter(casino=casino, gaming_day=day)
                   .exclude(currency="").values_list("table", "currency"))
    if not foreign:
        return results
    out = []
    for row in results:
        currency = foreign.get(row["table"])
        if currency is None:
            out.append(row)
            continue
        figures = TableDay.objects.filter(casino_id=casino.code, day=day, table=row["table"]
                                          ).aggregate(h=Sum("handle"), d=Sum("drop"))
        win = -(_balance(casino.code, f"7211.{row['table']}", event_day=day)
                + _balance(casino.code, f"7212.{row['table']}", event_day=day))
        out.append({**row, "currency": currency, "handle_in_currency": row["handle"],
                    "drop_in_currency": row["drop"], "win_in_currency": row["win"],
                    "handle": fmt(figures["h"] or Decimal(0)),
                    "drop": fmt(figures["d"] or Decimal(0)), "win": fmt(win)})
    return out
