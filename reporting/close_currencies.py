"""The day's close of a casino with tables in another currency (``docs/currencies.md``): each
such table's results are fixed in the book currency, what the gaming tax reads (the daily
register takes ``win`` and ``drop`` from them), with its own currency's figures beside them.

The book values are the ledger's: the win is the table's revenue and variance for the day
(7211 + 7212, by the gaming day of the events), handle and drop the day's table figures the
ledger converted at each session's rate (``ledger.currency_postings``). A table of the book
currency is left exactly as it was."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from cage import selectors as cage_selectors
from cage.circulation import State
from cage.models import ChipCirculationDay
from casino.models import Casino
from casino.money import fmt
from exchange.models import ForeignHolding
from games.models import GamingDayResult, TableSession
from ledger.models import TableDay

from . import reconciliation_currencies as in_currencies
from .reconciliation_lines import ledger_balance

ZERO = Decimal("0.00")


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
        win = -(ledger_balance(casino.code, f"7211.{row['table']}", event_day=day)
                + ledger_balance(casino.code, f"7212.{row['table']}", event_day=day))
        out.append({**row, "currency": currency, "handle_in_currency": row["handle"],
                    "drop_in_currency": row["drop"], "win_in_currency": row["win"],
                    "handle": fmt(figures["h"] or Decimal(0)),
                    "drop": fmt(figures["d"] or Decimal(0)), "win": fmt(win)})
    return out


@dataclass(frozen=True)
class CurrencyLine:
    """One currency of a casino with tables in more than one (the close report's
    ``currencies``): each figure in that currency and, beside it, in the book currency.

    ``tables_win``: the day's win of the tables playing in it (the book value: the ledger's
    7211 + 7212 of those tables, at their sessions' rates; ``rate`` is that rate when the day's
    sessions had one, None for the book currency or several rates). ``cage_holdings``: the
    book currency's cash at the cages and the exchange desk (1110.*, 1161) at the day's
    boundary; a foreign currency's notes the cage holds (the exchange's holding: the desk's
    deals and the tables' boxes received) and their book value, as held when the report is
    worked out. ``chips_in_hands``: that currency's chips in players' hands at the boundary
    (the cage's count of chips in circulation) and the liability the ledger carries for them
    (2781, or 2797.<currency> at the sessions' rates and the day's revaluations)."""

    currency: str
    rate: Decimal | None
    tables_win: Decimal
    tables_win_book: Decimal
    cage_holdings: Decimal
    cage_holdings_book: Decimal
    chips_in_hands: Decimal
    chips_in_hands_book: Decimal


def currency_lines(casino: Casino, day: dt.date) -> list[CurrencyLine]:
    """The close report's currencies section: none for a casino whose tables all play in its
    book currency (its report reads as it always did)."""
    cur = in_currencies.foreign(casino)
    if cur is None:
        return []
    recorded = ChipCirculationDay.objects.filter(casino=casino, gaming_day=day).first()
    state = (State.from_data(recorded.state) if recorded is not None and recorded.state else
             cage_selectors.circulation_state(casino=casino.code,
                                              before=casino.gaming_day_end(day)))
    in_hands = in_currencies.in_hands(state, cur)
    wins: dict[str, Decimal] = {c: ZERO for c in cur.all()}
    books: dict[str, Decimal] = {c: ZERO for c in cur.all()}
    for row in GamingDayResult.objects.filter(casino=casino, gaming_day=day):
        currency = cur.of_table(row.table)
        wins[currency] += row.table_win
        books[currency] += (row.table_win if currency == cur.book else
                            -(ledger_balance(casino.code, f"7211.{row.table}", event_day=day)
                              + ledger_balance(casino.code, f"7212.{row.table}", event_day=day)))
    held = {h.currency: h for h in ForeignHolding.objects.filter(casino_id=casino.code)}
    lines = []
    for currency in cur.all():
        if currency == cur.book:
            cash = (ledger_balance(casino.code, "1110.", position=state.position,
                                   every_sub_account=True)
                    + ledger_balance(casino.code, "1161", position=state.position))
            lines.append(CurrencyLine(
                currency=currency, rate=None, tables_win=wins[currency],
                tables_win_book=books[currency], cage_holdings=cash, cage_holdings_book=cash,
                chips_in_hands=in_hands[currency], chips_in_hands_book=in_hands[currency]))
            continue
        rates = {r for r in TableSession.objects.filter(casino=casino, gaming_day=day,
                                                        currency=currency)
                 .values_list("rate", flat=True) if r is not None}
        holding = held.get(currency)
        lines.append(CurrencyLine(
            currency=currency, rate=rates.pop().normalize() if len(rates) == 1 else None,
            tables_win=wins[currency], tables_win_book=books[currency],
            cage_holdings=holding.amount if holding else ZERO,
            cage_holdings_book=holding.book_value if holding else ZERO,
            chips_in_hands=in_hands[currency],
            chips_in_hands_book=-ledger_balance(casino.code, f"2797.{currency}",
                                          position=state.position)))
    return lines
