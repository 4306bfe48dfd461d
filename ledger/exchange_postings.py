"""The exchange's postings (``docs/currencies.md``): pure, as ``ledger.postings`` is. Every
amount is in the book currency: a deal's foreign notes at their book value (the middle rate of
the moment), the desk's cash at what it paid or received, the spread as the exchange result;
the holdings' revaluation at the day's closing rate."""

from __future__ import annotations

from casino.errors import Words
from exchange.events import (
    ExchangeDeskOpened,
    ForeignCashBought,
    ForeignCashRevalued,
    ForeignCashSold,
)

from . import postings as p
from .chart import account


@p.posts
def exchange_desk_opened(event: ExchangeDeskOpened, ctx: p.Context) -> p.Posting:
    value = p.amount(event.amount)
    p._same(p.counts_value(event.cash), value, "exchange desk opened: its count and amount")
    e = p._Entry().move(account("exchange_desk_cash"), account("opening_counts"), value)
    return p.Posting(Words("Exchange desk opened with its float"), e.lines())


@p.posts
def foreign_cash_bought(event: ForeignCashBought, ctx: p.Context) -> p.Posting:
    paid, value, result = p.amount(event.paid), p.amount(event.book_value), p.amount(event.result)
    p._same(value - paid, result, "foreign notes bought: book value less paid, and the result")
    e = p._Entry().move(account("foreign_cash", event.currency), account("exchange_desk_cash"),
                        paid)
    e.move(account("foreign_cash", event.currency), account("exchange_result"), result)
    return p.Posting(Words("{foreign} {currency} bought at {rate}", foreign=event.foreign,
                             currency=event.currency, rate=event.rate), e.lines())


@p.posts
def foreign_cash_sold(event: ForeignCashSold, ctx: p.Context) -> p.Posting:
    received = p.amount(event.received)
    value, result = p.amount(event.book_value), p.amount(event.result)
    p._same(received - value, result, "foreign notes sold: received less book value, and the "
                                      "result")
    e = p._Entry().move(account("exchange_desk_cash"), account("foreign_cash", event.currency),
                        value)
    e.move(account("exchange_desk_cash"), account("exchange_result"), result)
    return p.Posting(Words("{foreign} {currency} sold at {rate}", foreign=event.foreign,
                             currency=event.currency, rate=event.rate), e.lines())


@p.posts
def foreign_cash_revalued(event: ForeignCashRevalued, ctx: p.Context) -> p.Posting | None:
    e = p._Entry().move(account("foreign_cash", event.currency), account("revaluation_result"),
                        p.amount(event.difference))
    lines = e.lines()
    return p.Posting(Words("{holding} {currency} revalued at {rate}", holding=event.holding,
                             currency=event.currency, rate=event.rate),
                     lines) if lines else None


NOT_POSTED: dict[str, str] = {
    "CurrencyAccepted": "configuration",
    "ExchangeRateProposed": "a rate waiting for a second person: no money moves",
    "ExchangeRatePosted": "a rate: the deals at it post",
}
