"""A table in a foreign currency, in the books (``docs/currencies.md``): pure, as
``ledger.postings`` is. The pit and the cage count such a table's chips, fills, credits, drop
and win in its own currency; every entry its session's events post is booked in the book
currency at the rate the session opened with (``TableSessionOpened.rate``: the exchange's
posted middle rate in force then, an event with its author). Each line is converted and rounded
half up to the cent (a rounding of ours); what the rounding leaves unbalanced goes to the
exchange result (7891), so an entry always balances. The day's table figures (handle, drop)
are converted the same way: the gaming tax reads the book currency."""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from casino.errors import Words
from eventstore.events import Event
from games.events import TableSessionOpened

from . import postings as p
from .chart import account


def session_rate(event: Event, ctx: p.Context) -> Decimal | None:
    """The rate ``event``'s table session is booked at, None for the book currency."""
    if isinstance(event, TableSessionOpened):
        return event.rate
    session_id = getattr(event, "session_id", None)
    facts = ctx.session(str(session_id)) if session_id else None
    return None if facts is None else facts.rate


def _currency(event: Event, ctx: p.Context) -> str:
    if isinstance(event, TableSessionOpened):
        return event.currency
    facts = ctx.session(str(getattr(event, "session_id", "")))
    return "" if facts is None else facts.currency


def book_value(value: Decimal, rate: Decimal) -> Decimal:
    """``value`` in the table's currency at ``rate``, in the book currency's cents."""
    return (value * rate).quantize(p.CENT, rounding=ROUND_HALF_UP)


def convert(lines: tuple[p.Line, ...], rate: Decimal) -> tuple[p.Line, ...]:
    """Each line at ``rate``; the rounding's imbalance (a cent or so) to the exchange result,
    apart for real and memorandum lines (a memorandum imbalance goes to its largest line)."""
    out = [p.Line(line.account, book_value(line.debit, rate), book_value(line.credit, rate))
           for line in lines]
    out = [line for line in out if line.debit or line.credit]
    for memorandum in (False, True):
        mine = [i for i, line in enumerate(out) if line.account.template.memorandum == memorandum]
        gap = sum((out[i].debit - out[i].credit for i in mine), p.ZERO)
        if gap == 0 or not mine:
            continue
        if not memorandum:
            out.append(p.Line(account("exchange_result"), max(-gap, p.ZERO), max(gap, p.ZERO)))
            continue
        i = max(mine, key=lambda k: out[k].debit + out[k].credit)
        line = out[i]
        out[i] = (replace(line, debit=line.debit - gap) if line.debit
                  else replace(line, credit=line.credit + gap))
    return tuple(out)


def in_book_currency(event: Event, posting: p.Posting, ctx: p.Context) -> p.Posting:
    """``posting`` as booked: unchanged in the book currency, converted for a foreign table."""
    rate = session_rate(event, ctx)
    if rate is None:
        return posting
    currency = _currency(event, ctx)
    changes: dict[str, Any] = {
        "lines": convert(posting.lines, rate),
        "description": Words("{description} [{currency} at {rate}]",
                             description=posting.description, currency=currency, rate=rate)}
    if posting.stats is not None:
        changes["stats"] = replace(posting.stats, handle=book_value(posting.stats.handle, rate),
                                   drop=book_value(posting.stats.drop, rate))
    return replace(posting, **changes)
