"""The jackpot API: one view per operation, thin, calling one selector or service.

Reads are open to the pit (pit boss), the cage (cashier, cage supervisor), the accountant, the
regulator and the administrator of the casino in the URL. ``as_of`` (an ISO date-time) reads a
pool as it stood at that moment. Paying a prize is the cage's (cashier, cage supervisor) and
takes an ``Idempotency-Key`` header. Every refusal has the one error shape
(``edge.api.errors``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.money import fmt
from edge.api.base import CommandApi, acting_role
from edge.api.fields import AmountField
from edge.api.schema import answer_serializer
from eventstore.records import Metadata
from jackpots import answers, selectors, services
from jackpots.models import METERS, JackpotConfigVersion, JackpotMeterReading, JackpotPrize
from jackpots.roles import PAY_ROLES, READ_ROLES
from jackpots.rules import pay_coup

AS_OF = OpenApiParameter("as_of", str, description="ISO 8601 date-time: the pool as it stood "
                                                   "then (default: now)")


class AsOfSerializer(serializers.Serializer[Any]):
    as_of = serializers.DateTimeField(required=False)


def _as_of(request: Request) -> dt.datetime | None:
    params = AsOfSerializer(data=request.query_params)
    params.is_valid(raise_exception=True)
    value: dt.datetime | None = params.validated_data.get("as_of")
    return value


def _prize(p: JackpotPrize) -> dict[str, Any]:
    return {"prize_id": p.prize_id, "pool_id": p.pool_id, "round_id": p.round_id,
            "table": p.table, "seat": p.seat, "player": p.player, "bet_id": p.bet_id,
            "combination": p.combination, "top": p.top, "amount": fmt(p.amount),
            "hit_at": p.hit_at, "paid": p.paid, "paid_amount": fmt(p.paid_amount),
            "owed": fmt(p.owed), "paid_at": p.paid_at, "payout_id": p.payout_id,
            "shift_id": p.shift_id}


def _config(c: JackpotConfigVersion) -> dict[str, Any]:
    return {"version": c.version, "effective_at": c.effective_at, "event_type": c.event_type,
            "changed": c.changed, "config": c.config, "approved_on": c.approved_on,
            "approval_reference": c.approval_reference, "reason": c.reason,
            "recorded_by": c.recorded_by}


class JackpotPoolListApi(APIView):
    """The casino's pools with their meters now."""

    @extend_schema(responses={200: answer_serializer(answers.PoolRow)(many=True)},
                   operation_id="jackpot_pool_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        pools = selectors.pool_list(casinos=[casino])
        return Response([selectors.pool_summary(p)
                         | {"meters": selectors.pool_meters(casino, p.pool_id)} for p in pools])


class JackpotPoolDetailApi(APIView):
    """One pool: its configuration, meters and last hits, now or ``as_of`` a past moment."""

    @extend_schema(parameters=[AS_OF], responses={200: answer_serializer(answers.PoolDetail)},
                   operation_id="jackpot_pool_detail")
    def get(self, request: Request, casino: str, pool: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        as_of = _as_of(request)
        found = selectors.pool_get(casino, pool)
        return Response(selectors.pool_summary(found) | {
            "as_of": as_of,
            "configuration": _config(selectors.pool_config(casino, pool, as_of=as_of)),
            "meters": selectors.pool_meters(casino, pool, as_of=as_of),
            "last_hits": selectors.hit_list(casino, pool, as_of=as_of),
        })


class JackpotHitListApi(APIView):
    """The last hits of a pool, newest first, with table and round (``as_of``, ``limit``)."""

    class FilterSerializer(AsOfSerializer):
        limit = serializers.IntegerField(min_value=1, max_value=1000, default=50)

    @extend_schema(parameters=[AS_OF, OpenApiParameter("limit", int)], responses={200: answer_serializer(answers.Hit)(many=True)},
                   operation_id="jackpot_hit_list")
    def get(self, request: Request, casino: str, pool: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        selectors.pool_get(casino, pool)
        return Response(selectors.hit_list(casino, pool, as_of=params.validated_data.get("as_of"),
                                           limit=params.validated_data["limit"]))


class JackpotMeterHistoryApi(APIView):
    """The meters after every event that moved them (``since``, ``until``)."""

    class FilterSerializer(serializers.Serializer[Any]):
        since = serializers.DateTimeField(required=False)
        until = serializers.DateTimeField(required=False)

    @extend_schema(parameters=[OpenApiParameter("since", str), OpenApiParameter("until", str)],
                   responses={200: answer_serializer(answers.MeterReading)(many=True)},
                   operation_id="jackpot_meter_history")
    def get(self, request: Request, casino: str, pool: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        selectors.pool_get(casino, pool)
        readings = selectors.meter_history(casino, pool, **params.validated_data)
        return Response([_reading(r) for r in readings])


def _reading(r: JackpotMeterReading) -> dict[str, Any]:
    out: dict[str, Any] = {"version": r.version, "position": r.position,
                           "recorded_at": r.recorded_at, "event_type": r.event_type,
                           "round_id": r.round_id, "table": r.table, "change": fmt(r.change)}
    for name in METERS:
        value = getattr(r, name)
        out[name] = value if isinstance(value, int) else fmt(value)
    return out


class JackpotConfigurationListApi(APIView):
    """Every configuration the pool has had, each with its approval and when it took effect."""

    @extend_schema(responses={200: answer_serializer(answers.Configuration)(many=True)},
                   operation_id="jackpot_configuration_list")
    def get(self, request: Request, casino: str, pool: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        selectors.pool_get(casino, pool)
        return Response([_config(c) for c in selectors.pool_config_history(casino, pool)])


class JackpotCoupListApi(APIView):
    """The pool's coups, newest first: each one's recorded request and result."""

    @extend_schema(responses={200: answer_serializer(answers.CoupRow)(many=True)},
                   operation_id="jackpot_coup_list")
    def get(self, request: Request, casino: str, pool: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        selectors.pool_get(casino, pool)
        return Response([{"round_id": c.round_id, "table": c.table, "settled_at": c.settled_at,
                          "config_version": c.config_version, "result": c.result}
                         for c in selectors.coup_list(casino, pool)[:500]])


class JackpotCoupDetailApi(APIView):
    """One coup as data, recomputed now by the same pure code (``recomputed``, ``matches``)."""

    @extend_schema(responses={200: answer_serializer(answers.CoupDetail)},
                   operation_id="jackpot_coup_detail")
    def get(self, request: Request, casino: str, pool: str, round_id: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        coup = selectors.coup_get(casino, pool, round_id)
        recomputed = pay_coup(coup.request)
        return Response({"round_id": coup.round_id, "table": coup.table,
                         "settled_at": coup.settled_at, "settled_by": coup.settled_by,
                         "config_version": coup.config_version, "seats": coup.seats,
                         "request": coup.request, "result": coup.result,
                         "recomputed": recomputed, "matches": recomputed == coup.result})


class JackpotPrizeListApi(APIView):
    """Prizes awarded (the hits), newest first, each with what was paid and what it still owes;
    ``unpaid=true`` for the hits not yet paid in full (what the cage pays against)."""

    class FilterSerializer(serializers.Serializer[Any]):
        unpaid = serializers.BooleanField(required=False, default=False)
        pool = serializers.SlugField(required=False)

    @extend_schema(parameters=[OpenApiParameter("unpaid", bool), OpenApiParameter("pool", str)],
                   responses={200: answer_serializer(answers.Prize)(many=True)},
                   operation_id="jackpot_prize_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        prizes = selectors.prize_list(casino, unpaid_only=params.validated_data["unpaid"],
                                      pool_id=params.validated_data.get("pool"))
        return Response([_prize(p) for p in prizes[:500]])


@extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"},
                      "example": {"100.00": 3, "20.00": 5}})
class CountsField(serializers.Field):  # type: ignore[type-arg]
    """Counts by denomination, handed to the service as sent (it reads them)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                'a count maps each denomination to pieces, such as {"20.00": 5}')
        return data

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_view(post=extend_schema(operation_id="jackpot_prize_pay"))
class JackpotPrizePayApi(CommandApi):
    """The cage pays an awarded prize out of an open window (cash, chips or both): all it still
    owes, or ``amount`` of it (an instalment); never more than it owes."""

    roles = PAY_ROLES
    answer = answers.PrizePayAnswer

    class InputSerializer(serializers.Serializer[Any]):
        shift_id = serializers.CharField(max_length=64)
        amount = AmountField(required=False, blank=True,
                             help_text="this payment (default: all the hit owes)")
        cash = CountsField(required=False)
        chips = CountsField(required=False)
        chip_set = serializers.CharField(required=False, max_length=64)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.jackpot_prize_pay(prize_id=kwargs["prize"], metadata=metadata, **data)


class TableJackpotOptionApi(APIView):
    """A table's ``options.jackpot``, derived from the pool it feeds (``null``: none)."""

    @extend_schema(responses={200: answer_serializer(answers.TableJackpot)},
                   operation_id="jackpot_table_option")
    def get(self, request: Request, casino: str, table: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        found = selectors.table_pool(casino, table)
        return Response({"table": table, "pool_id": found.pool_id if found else None,
                         "jackpot": selectors.table_jackpot_option(casino, table)})
