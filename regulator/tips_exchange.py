"""The regulator's reads of the tips and of the exchange at the cage (additive: issue 39):
each period's distribution (the fund's share, each category's and each person's, by staff
number), and the exchange's rates (each with its author), deals and revaluations, every amount
in its currency and in the book currency."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from casino.money import fmt
from edge.api.schema import answer_serializer
from eventstore.answers import as_data
from exchange import selectors as exchange
from tips import selectors as tips
from tips.answers import TipPeriodAnswer

from .base import RegulatorApi


class TipPeriodsApi(RegulatorApi):
    """Every period's tips distributed, the last first (``docs/tips.md``)."""

    @extend_schema(responses=answer_serializer(TipPeriodAnswer)(many=True))
    def get(self, request: Request, casino: str) -> Response:
        code = self.casino(casino).code
        rows = [as_data(tips.period_answer(p)) for p in tips.period_list(code)[:120]]
        return self.answer(rows, len(rows))


class ExchangeOutput(serializers.Serializer):  # type: ignore[type-arg]
    book_currency = serializers.CharField()
    holdings = serializers.JSONField(help_text="each currency held, in it and in the book "
                                               "currency")
    rates = serializers.JSONField(help_text="the rates posted, each with its author")
    deals = serializers.JSONField(help_text="foreign notes bought and sold, the last first")
    revaluations = serializers.JSONField()


class ExchangeApi(RegulatorApi):
    """The exchange at the cage (``docs/currencies.md``): holdings, rates, deals,
    revaluations."""

    @extend_schema(responses=ExchangeOutput)
    def get(self, request: Request, casino: str) -> Response:
        found = self.casino(casino)
        deals = [{"deal_id": d.deal_id, "kind": d.kind, "currency": d.currency,
                  "foreign": fmt(d.foreign), "rate": str(d.rate), "mid": str(d.mid),
                  "book_amount": fmt(d.book_amount), "book_value": fmt(d.book_value),
                  "result": fmt(d.result), "gaming_day": d.gaming_day.isoformat(),
                  "by": d.by, "at": d.at.isoformat()}
                 for d in exchange.deal_list(found.code)[:1000]]
        data = {
            "book_currency": found.currency,
            "holdings": [as_data(h) for h in exchange.holdings(found.code)],
            "rates": [{"currency": r.currency, "mid": str(r.mid), "buy": str(r.buy),
                       "sell": str(r.sell), "posted_by": r.posted_by,
                       "proposed_by": r.proposed_by, "posted_at": r.posted_at.isoformat()}
                      for r in exchange.rate_history(found.code)[:500]],
            "deals": deals,
            "revaluations": [{"currency": r.currency, "gaming_day": r.gaming_day.isoformat(),
                              "holding": fmt(r.holding), "rate": str(r.rate),
                              "book_before": fmt(r.book_before),
                              "book_after": fmt(r.book_after),
                              "difference": fmt(r.difference)}
                             for r in exchange.revaluation_list(found.code)[:500]],
        }
        return self.answer(data, len(deals))
