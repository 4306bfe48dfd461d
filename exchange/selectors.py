"""Reads of the exchange: the currencies and their rates, the rates' history, the holdings in
their currency and in the book currency, the deals and revaluations."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import QuerySet

from casino.money import fmt

from . import rates
from .answers import HoldingRow
from .models import (
    AcceptedCurrency,
    ExchangeDeal,
    ExchangeDesk,
    ExchangeRate,
    ForeignHolding,
    RateProposal,
    Revaluation,
)


def currency_list(casino: str) -> QuerySet[AcceptedCurrency]:
    return AcceptedCurrency.objects.filter(casino_id=casino).order_by("currency")


def rate_history(casino: str) -> QuerySet[ExchangeRate]:
    return ExchangeRate.objects.filter(casino_id=casino).order_by("-position")


def proposals_open(casino: str) -> QuerySet[RateProposal]:
    return RateProposal.objects.filter(casino_id=casino, status="proposed")


def desk_get(casino: str) -> ExchangeDesk | None:
    return ExchangeDesk.objects.filter(casino_id=casino).first()


def deal_list(casino: str) -> QuerySet[ExchangeDeal]:
    return ExchangeDeal.objects.filter(casino_id=casino).order_by("-at")


def revaluation_list(casino: str) -> QuerySet[Revaluation]:
    return Revaluation.objects.filter(casino_id=casino).order_by("-gaming_day", "currency")


def holdings(casino: str) -> list[HoldingRow]:
    """Each currency held: pieces and amount in its currency, its book value, and its value at
    the middle rate now (in the book currency)."""
    mids = dict(AcceptedCurrency.objects.filter(casino_id=casino)
                .values_list("currency", "mid"))
    rows = []
    for h in ForeignHolding.objects.filter(casino_id=casino).order_by("currency"):
        mid = mids.get(h.currency)
        rows.append(HoldingRow(
            currency=h.currency, pieces=dict(h.pieces), amount=fmt(h.amount),
            book_value=fmt(h.book_value),
            mid=None if mid is None else str(mid.normalize()),
            at_mid=None if mid is None else fmt(rates.cents(h.amount * mid))))
    return rows


def accepted_currencies(casino: str) -> list[str]:
    """The currencies the casino accepts besides its book currency (``CurrencyAccepted``)."""
    return list(AcceptedCurrency.objects.filter(casino_id=casino).order_by("currency")
                .values_list("currency", flat=True))


def middle_rate(casino: str, currency: str) -> Decimal | None:
    """The middle rate in force for ``currency`` (book currency per unit), None if none is
    posted yet: what a table playing in that currency is booked at (docs/currencies.md)."""
    row = AcceptedCurrency.objects.filter(casino_id=casino, currency=currency).first()
    return None if row is None else row.mid


def rate_band(casino: str, currency: str) -> tuple[Decimal | None, Decimal] | None:
    """The last posted middle rate of ``currency`` (None if none yet) and the band (in %) a rate
    may move from it without a second person; None when the casino does not accept it."""
    row = AcceptedCurrency.objects.filter(casino_id=casino, currency=currency).first()
    return None if row is None else (row.mid, row.band_percent)
