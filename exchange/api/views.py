"""The exchange's API: one view per operation, thin. Reads are for the cage, the accountant,
the regulator and the administrator of the casino in the URL; each command names its roles
(``exchange.roles``). Amounts of the holdings are given in their currency and in the book
currency."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.money import fmt
from edge.api.base import CommandApi, acting_role
from edge.api.schema import answer_serializer
from eventstore.answers import as_data
from eventstore.records import Metadata
from exchange import answers, selectors, services
from exchange.roles import CONFIGURE_ROLES, DESK_ROLES, RATE_ROLES, READ_ROLES, REVALUE_ROLES


@extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"},
                      "example": {"500.00": 2, "100.00": 5}})
class CountsField(serializers.Field):  # type: ignore[type-arg]
    """Pieces by denomination, handed to the service as sent (it reads them)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                'a count maps each denomination to pieces, such as {"500.00": 2}')
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class ExchangeHoldingListApi(APIView):
    """The foreign notes held, by currency: in their currency and in the book currency."""

    @extend_schema(responses={200: answer_serializer(answers.HoldingRow)(many=True)},
                   operation_id="exchange_holding_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response([as_data(h) for h in selectors.holdings(casino)])


class ExchangeCurrencyListApi(APIView):
    """The currencies the casino accepts besides its book currency, with their rates now."""

    @extend_schema(responses={200: answer_serializer(answers.CurrencyAnswer)(many=True)},
                   operation_id="exchange_currency_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response([{
            "casino": c.casino_id, "currency": c.currency, "book_currency": c.book_currency,
            "denominations": c.denominations, "band_percent": str(c.band_percent),
            "mid": None if c.mid is None else str(c.mid), "buy": None if c.buy is None
            else str(c.buy), "sell": None if c.sell is None else str(c.sell)}
            for c in selectors.currency_list(casino)])


class ExchangeDealListApi(APIView):
    """The deals, the last first: in the foreign currency and in the book currency."""

    @extend_schema(responses={200: answer_serializer(answers.DealAnswer)(many=True)},
                   operation_id="exchange_deal_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response([{
            "casino": d.casino_id, "deal_id": d.deal_id, "kind": d.kind, "currency": d.currency,
            "foreign": fmt(d.foreign), "rate": str(d.rate), "mid": str(d.mid),
            "book_currency": "", "book_amount": fmt(d.book_amount),
            "book_value": fmt(d.book_value), "result": fmt(d.result), "desk_cash": ""}
            for d in selectors.deal_list(casino)[:500]])


@extend_schema_view(post=extend_schema(operation_id="currency_accept"))
class CurrencyAcceptApi(CommandApi):
    """The casino accepts a currency besides its book currency."""

    roles = CONFIGURE_ROLES
    answer = answers.CurrencyAnswer

    class InputSerializer(serializers.Serializer[Any]):
        currency = serializers.CharField(max_length=3)
        band_percent = serializers.CharField(required=False, max_length=12)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.currency_accept(metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="exchange_rate_post"))
class ExchangeRatePostApi(CommandApi):
    """A new middle rate and spread; beyond the band it waits for a second person."""

    roles = RATE_ROLES
    answer = answers.RateAnswer

    class InputSerializer(serializers.Serializer[Any]):
        mid = serializers.CharField(max_length=20)
        spread_percent = serializers.CharField(required=False, max_length=12)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.exchange_rate_post(currency=kwargs["currency"], metadata=metadata,
                                           **data)


@extend_schema_view(post=extend_schema(operation_id="exchange_rate_approve"))
class ExchangeRateApproveApi(CommandApi):
    """A second person approves a rate beyond the band."""

    roles = RATE_ROLES
    answer = answers.RateAnswer
    created = False

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.exchange_rate_approve(proposal_id=kwargs["proposal"], metadata=metadata)


@extend_schema_view(post=extend_schema(operation_id="exchange_desk_open"))
class ExchangeDeskOpenApi(CommandApi):
    """The desk's float of book-currency notes, counted."""

    roles = DESK_ROLES
    answer = answers.DeskAnswer

    class InputSerializer(serializers.Serializer[Any]):
        cash = CountsField()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.exchange_desk_open(metadata=metadata, **data)


class _DealInput(serializers.Serializer[Any]):
    currency = serializers.CharField(max_length=3)
    cash = CountsField()


@extend_schema_view(post=extend_schema(operation_id="foreign_cash_buy"))
class ForeignCashBuyApi(CommandApi):
    """Foreign notes bought from a patron at the buying rate."""

    roles = DESK_ROLES
    answer = answers.DealAnswer

    class InputSerializer(_DealInput):
        pass

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.foreign_cash_buy(metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="foreign_cash_sell"))
class ForeignCashSellApi(CommandApi):
    """Foreign notes the desk holds sold to a patron at the selling rate."""

    roles = DESK_ROLES
    answer = answers.DealAnswer

    class InputSerializer(_DealInput):
        pass

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.foreign_cash_sell(metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="foreign_cash_revalue"))
class ForeignCashRevalueApi(CommandApi):
    """The holdings revalued at the day's closing rate."""

    roles = REVALUE_ROLES
    answer = answers.RevalueAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.foreign_cash_revalue(metadata=metadata)
