"""Projections of the exchange's streams into ``exchange.models``: one handler per event
class, returning changes; the holdings' handlers read the holding as every event before left it
(``reader.row``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal

from cage.events import DropBoxReceived, ShiftClosed
from eventstore.changes import Change, Insert, Update, Upsert
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent
from eventstore.writer import Reader

from . import events as ev
from . import rates
from .models import (
    AcceptedCurrency,
    ExchangeDeal,
    ExchangeDesk,
    ExchangeRate,
    ForeignHolding,
    RateProposal,
    Revaluation,
)

Changes = Iterator[Change]
ZERO = Decimal("0.00")


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


def _casino(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("casino", ""))


def _pieces(before: Mapping[str, int], cash: Mapping[str, int], sign: int) -> dict[str, int]:
    after = dict(before)
    for d, n in cash.items():
        after[d] = after.get(d, 0) + sign * int(n)
        if not after[d]:
            del after[d]
    return dict(sorted(after.items(), key=lambda kv: Decimal(kv[0]), reverse=True))


def _holding(recorded: RecordedEvent, currency: str, cash: Mapping[str, int], sign: int,
             foreign: Decimal, book: Decimal, reader: Reader) -> Change:
    key = {"casino_id": _casino(recorded), "currency": currency}
    row = reader.row(ForeignHolding, **key)
    pieces = _pieces(row["pieces"] if row else {}, cash, sign)
    # ``add`` applies to the row inserted too: the values a new row starts from are zeros
    return Upsert(ForeignHolding, key, values={"pieces": pieces, "amount": ZERO,
                                               "book_value": ZERO},
                  set={"pieces": pieces}, add={"amount": sign * foreign, "book_value": sign * book})


@register
class ExchangeProjection(Projection):
    name = "exchange"
    models = (AcceptedCurrency, ExchangeRate, RateProposal, ExchangeDesk, ForeignHolding,
              ExchangeDeal, Revaluation)

    @handles
    def accepted(self, event: ev.CurrencyAccepted, recorded: RecordedEvent) -> Changes:
        yield Insert(AcceptedCurrency, dict(
            casino_id=_casino(recorded), currency=event.currency,
            book_currency=event.book_currency, denominations=list(event.denominations),
            band_percent=event.band_percent, mid=None, spread_percent=None, buy=None,
            sell=None, version=recorded.version))

    @handles
    def proposed(self, event: ev.ExchangeRateProposed, recorded: RecordedEvent) -> Changes:
        casino = _casino(recorded)
        yield Insert(RateProposal, dict(
            proposal_id=event.proposal_id, casino_id=casino, currency=event.currency,
            mid=event.mid, spread_percent=event.spread_percent, last_mid=event.last_mid,
            moved_percent=event.moved_percent, status="proposed",
            proposed_by=_actor(recorded), approved_by=""))
        yield Update(AcceptedCurrency, {"casino_id": casino, "currency": event.currency},
                     set={"version": recorded.version})

    @handles
    def posted(self, event: ev.ExchangeRatePosted, recorded: RecordedEvent) -> Changes:
        casino = _casino(recorded)
        yield Insert(ExchangeRate, dict(
            casino_id=casino, currency=event.currency, mid=event.mid,
            spread_percent=event.spread_percent, buy=event.buy, sell=event.sell,
            posted_by=_actor(recorded), proposed_by=event.proposed_by,
            posted_at=recorded.recorded_at, position=recorded.position))
        yield Update(AcceptedCurrency, {"casino_id": casino, "currency": event.currency}, set={
            "mid": event.mid, "spread_percent": event.spread_percent, "buy": event.buy,
            "sell": event.sell, "version": recorded.version})
        if event.proposal_id:
            yield Update(RateProposal, {"proposal_id": event.proposal_id}, set={
                "status": "posted", "approved_by": _actor(recorded)})

    @handles
    def desk_opened(self, event: ev.ExchangeDeskOpened, recorded: RecordedEvent) -> Changes:
        yield Insert(ExchangeDesk, dict(
            casino_id=_casino(recorded), book_currency=event.book_currency, cash=event.amount,
            opened_by=_actor(recorded), version=recorded.version))

    def _deal(self, event: ev.ForeignCashBought | ev.ForeignCashSold, recorded: RecordedEvent,
              kind: str, book_amount: Decimal) -> Change:
        return Insert(ExchangeDeal, dict(
            deal_id=event.deal_id, casino_id=_casino(recorded), kind=kind,
            currency=event.currency, cash=dict(event.cash), foreign=event.foreign,
            rate=event.rate, mid=event.mid, book_amount=book_amount,
            book_value=event.book_value, result=event.result, gaming_day=event.gaming_day,
            by=_actor(recorded), at=recorded.recorded_at))

    @handles
    def bought(self, event: ev.ForeignCashBought, recorded: RecordedEvent, *,
               reader: Reader) -> Changes:
        yield self._deal(event, recorded, "bought", event.paid)
        yield Update(ExchangeDesk, {"casino_id": _casino(recorded)}, add={"cash": -event.paid},
                     set={"version": recorded.version})
        yield _holding(recorded, event.currency, event.cash, 1, event.foreign,
                       event.book_value, reader)

    @handles
    def sold(self, event: ev.ForeignCashSold, recorded: RecordedEvent, *,
             reader: Reader) -> Changes:
        yield self._deal(event, recorded, "sold", event.received)
        yield Update(ExchangeDesk, {"casino_id": _casino(recorded)},
                     add={"cash": event.received}, set={"version": recorded.version})
        yield _holding(recorded, event.currency, event.cash, -1, event.foreign,
                       event.book_value, reader)

    @handles
    def box_received(self, event: DropBoxReceived, recorded: RecordedEvent, *,
                     reader: Reader) -> Changes:
        """A foreign table's drop box received at a cage window: its notes join the cage's
        holding of that currency, at the session's rate (``docs/currencies.md``); a book
        currency's box is the window's own cash."""
        if not event.currency or event.rate is None:
            return
        yield _holding(recorded, event.currency, event.cash, 1, event.amount,
                       rates.cents(event.amount * event.rate), reader)

    @handles
    def window_closed(self, event: ShiftClosed, recorded: RecordedEvent, *,
                      reader: Reader) -> Changes:
        """A window's close hands its foreign notes to the holding as counted: a variance in a
        currency (counted less received) leaves the holding, or joins it, at the rate the count
        valued it at (``docs/cage.md``, *Foreign notes at a window*)."""
        for currency, variance in sorted(event.foreign_variance.items()):
            yield _holding(recorded, currency, variance["cash"], 1, Decimal(variance["amount"]),
                           Decimal(variance["value"]), reader)

    @handles
    def revalued(self, event: ev.ForeignCashRevalued, recorded: RecordedEvent) -> Changes:
        casino = _casino(recorded)
        yield Insert(Revaluation, dict(
            casino_id=casino, currency=event.currency, gaming_day=event.gaming_day,
            holding=event.holding, rate=event.rate, book_before=event.book_before,
            book_after=event.book_after, difference=event.difference, by=_actor(recorded)))
        yield Update(ForeignHolding, {"casino_id": casino, "currency": event.currency},
                     add={"book_value": event.difference})
        yield Update(ExchangeDesk, {"casino_id": casino}, set={"version": recorded.version})
