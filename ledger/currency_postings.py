"""A table in a foreign currency, in the books (``docs/currencies.md``): pure, as
``ledger.postings`` is. The pit and the cage count such a table's chips, fills, credits, drop
and win in its own currency; every entry its session's events post is booked in the book
currency at the rate the session opened with (``TableSessionOpened.rate``: the exchange's
posted middle rate in force then, an event with its author), and kept at face value in its own
currency in memorandum (``convert``). The day's table figures (handle, drop)
are converted the same way: the gaming tax reads the book currency."""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from casino.errors import Words
from eventstore.events import Event
from games.events import TableSessionOpened

from . import postings as p
from .chart import AccountRef, account
from .events import ForeignChipsRevalued


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


def _booked(ref: AccountRef, currency: str) -> AccountRef:
    """Where a real line of a foreign table is booked: its own account, but the chips in
    players' hands of that currency apart from the book currency's (2797.<currency>)."""
    if ref.key == "chips_in_circulation":
        return account("foreign_chips_in_circulation", currency)
    return ref


def convert(lines: tuple[p.Line, ...], rate: Decimal, currency: str) -> tuple[p.Line, ...]:
    """A foreign table's lines as booked. The chips at face value (class 0, memorandum) stay as
    they are: class 0 counts chips, whatever their currency. The real lines are the money: each
    at ``rate`` in the book currency (what the rounding leaves unbalanced, a cent or so, to the
    exchange result 7891), and each again at face value in memorandum of its currency
    (0900.<currency>.<account>), where what the pit and the count room count in that currency
    is reconciled."""
    memo = [line for line in lines if line.account.template.memorandum]
    real = [line for line in lines if not line.account.template.memorandum]
    out = [p.Line(_booked(line.account, currency), book_value(line.debit, rate),
                  book_value(line.credit, rate)) for line in real]
    out = [line for line in out if line.debit or line.credit]
    gap = sum((line.debit - line.credit for line in out), p.ZERO)
    if gap:
        out.append(p.Line(account("exchange_result"), max(-gap, p.ZERO), max(gap, p.ZERO)))
    out += memo
    out += [p.Line(account("foreign_figures", f"{currency}.{line.account.code}"), line.debit,
                   line.credit) for line in real]
    return tuple(out)


def posted(poster: p.Poster, event: Event, ctx: p.Context) -> p.Posting | None:
    """What ``poster`` posts of ``event``: as it is in the book currency; for a foreign
    table's session, worked in its currency and booked as ``convert`` says."""
    rate = session_rate(event, ctx)
    if rate is None:
        return poster(event, ctx)
    currency = _currency(event, ctx)
    posting = poster(event, ctx)
    if posting is None:
        return None
    changes: dict[str, Any] = {
        "lines": convert(posting.lines, rate, currency),
        "description": Words("{description} [{currency} at {rate}]",
                             description=posting.description, currency=currency, rate=rate)}
    if posting.stats is not None:
        changes["stats"] = replace(posting.stats, handle=book_value(posting.stats.handle, rate),
                                   drop=book_value(posting.stats.drop, rate))
    return replace(posting, **changes)


@p.posts
def foreign_chips_revalued(event: ForeignChipsRevalued, ctx: p.Context) -> p.Posting | None:
    """The foreign chips in players' hands at the day's closing rate: the liability grows
    (a loss, Dr 7892) or shrinks (a gain, reversed) by ``difference``."""
    p._same(p.amount(event.book_after) - p.amount(event.book_before),
            p.amount(event.difference), "chips revalued: after less before, and the difference")
    e = p._Entry().move(account("revaluation_result"),
                        account("foreign_chips_in_circulation", event.currency),
                        p.amount(event.difference))
    lines = e.lines()
    return p.Posting(Words("{in_hands} {currency} of chips in players' hands revalued at "
                           "{rate}", in_hands=event.in_hands, currency=event.currency,
                           rate=event.rate), lines) if lines else None


NOT_POSTED: dict[str, str] = {
    "TableCurrencyChanged": "configuration: the table's sessions post at their rate",
}
