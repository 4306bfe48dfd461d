"""The tips' API: one view per operation, thin, calling one selector or service. Reads are for
the pit, the cage, the accountant, the regulator and the administrator of the casino in the
URL; each command names its roles (``tips.roles``). Every refusal has the one error shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.money import fmt
from edge.api.base import CommandApi, acting_role
from edge.api.fields import AmountField
from edge.api.schema import answer_serializer
from eventstore.answers import as_data
from eventstore.records import Metadata
from tips import answers, selectors, services
from tips.models import TipBox, TipCorrection, TipStaff
from tips.roles import (
    CONFIGURE_ROLES,
    CORRECTION_ROLES,
    COUNTER_ROLES,
    DISTRIBUTE_ROLES,
    DROP_ROLES,
    READ_ROLES,
)


@extend_schema_field({"type": "object", "additionalProperties": {"type": "integer"},
                      "example": {"20.00": 5, "5.00": 2}})
class CountsField(serializers.Field):  # type: ignore[type-arg]
    """Pieces by denomination, handed to the service as sent (it reads them)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                'a count maps each denomination to pieces, such as {"20.00": 5}')
        return data

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field({"type": "object", "additionalProperties": {"type": "string"},
                      "example": {"croupier": "10", "chefe": "14"}})
class MappingField(CountsField):
    """A map handed to the service as sent (categories and points, days worked)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError("this is a map (an object)")
        return data


def _box(b: TipBox) -> dict[str, Any]:
    return {"casino": b.casino_id, "gaming_day": b.gaming_day.isoformat(), "box": b.box,
            "place": b.place, "code": b.code, "currency": b.currency, "status": b.status,
            "count_number": b.count_number,
            "amount": None if b.amount is None else fmt(b.amount),
            "counted_by": [p for p in (b.counted_by, b.confirmed_by) if p], "period": "",
            "version": b.version}


def _staff(s: TipStaff) -> dict[str, Any]:
    return {"casino": s.casino_id, "staff_number": s.staff_number, "category": s.category,
            "since": s.since.isoformat(), "until": None if s.until is None else s.until.isoformat(),
            "version": s.version}


def _correction(c: TipCorrection) -> dict[str, Any]:
    return {"casino": c.casino_id, "correction_id": c.correction_id, "direction": c.direction,
            "table": c.table, "gaming_day": c.gaming_day.isoformat(), "currency": c.currency,
            "amount": fmt(c.amount), "status": c.status, "reported_by": c.reported_by,
            "confirmed_by": c.confirmed_by}


# --- reads ---------------------------------------------------------------------------------------


class TipBoxListApi(APIView):
    """The casino's tip boxes, the last gaming days first: dropped, counted, confirmed."""

    @extend_schema(responses={200: answer_serializer(answers.TipBoxAnswer)(many=True)},
                   operation_id="tip_box_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response([_box(b) for b in selectors.box_list(casino)[:500]])


class TipStaffListApi(APIView):
    """Who shares in the tips: staff numbers and categories (no names)."""

    @extend_schema(responses={200: answer_serializer(answers.TipStaffAnswer)(many=True)},
                   operation_id="tip_staff_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response([_staff(s) for s in selectors.staff_list(casino)])


class TipCorrectionListApi(APIView):
    """Misplaced tips and drops, reported and confirmed."""

    @extend_schema(responses={200: answer_serializer(answers.TipCorrectionAnswer)(many=True)},
                   operation_id="tip_correction_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response([_correction(c) for c in selectors.correction_list(casino)[:500]])


class TipPeriodListApi(APIView):
    """The periods distributed, the last first: each with its categories and people."""

    @extend_schema(responses={200: answer_serializer(answers.TipPeriodAnswer)(many=True)},
                   operation_id="tip_period_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response([as_data(selectors.period_answer(p))
                         for p in selectors.period_list(casino)[:60]])


class TipPeriodDetailApi(APIView):
    """One period's distribution: the fund's share, each category's and each person's."""

    @extend_schema(responses={200: answer_serializer(answers.TipPeriodAnswer)},
                   operation_id="tip_period_detail")
    def get(self, request: Request, casino: str, period: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response(as_data(selectors.period_get(casino, period)))


class TipPersonSharesApi(APIView):
    """One person's share of every period distributed (the report per person)."""

    @extend_schema(responses={200: answer_serializer(answers.TipPersonPeriodRow)(many=True)},
                   operation_id="tip_person_shares")
    def get(self, request: Request, casino: str, staff: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response([as_data(r) for r in selectors.person_shares(casino, staff)])


# --- commands ------------------------------------------------------------------------------------


@extend_schema_view(post=extend_schema(operation_id="tip_rule_set"))
class TipRuleSetApi(CommandApi):
    """The casino's rule of distribution (in Portugal: by the month, the fund's share the
    law's)."""

    roles = CONFIGURE_ROLES
    answer = answers.TipRuleAnswer

    class InputSerializer(serializers.Serializer[Any]):
        period = serializers.CharField(max_length=8)
        categories = MappingField()
        # the rule's legal source: DRF's metaclass takes declared fields out of the class, so
        # this does not shadow ``Field.source`` at run time; mypy sees the class attribute
        source = serializers.CharField(max_length=500)  # type: ignore[assignment]
        effective_from = serializers.CharField(max_length=10)
        fund_percent = serializers.CharField(required=False, allow_blank=True, max_length=12)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_rule_set(metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="tip_staff_register"))
class TipStaffRegisterApi(CommandApi):
    """A member of staff who shares in the tips: a staff number and a category."""

    roles = CONFIGURE_ROLES
    answer = answers.TipStaffAnswer

    class InputSerializer(serializers.Serializer[Any]):
        staff_number = serializers.CharField(max_length=32)
        category = serializers.CharField(max_length=64)
        since = serializers.CharField(max_length=10)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_staff_register(metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="tip_staff_change"))
class TipStaffChangeApi(CommandApi):
    """A new category, or the last day the person shares in the tips."""

    roles = CONFIGURE_ROLES
    answer = answers.TipStaffAnswer
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        category = serializers.CharField(required=False, allow_blank=True, max_length=64)
        leaves_on = serializers.CharField(required=False, allow_blank=True, max_length=10)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_staff_change(staff_number=kwargs["staff"], metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="tip_box_drop"))
class TipBoxDropApi(CommandApi):
    """A tip box taken from its table or room to the count room."""

    roles = DROP_ROLES
    answer = answers.TipBoxAnswer

    class InputSerializer(serializers.Serializer[Any]):
        place = serializers.CharField(max_length=8)
        code = serializers.CharField(max_length=64)
        gaming_day = serializers.CharField(required=False, allow_blank=True, max_length=10)
        currency = serializers.CharField(required=False, allow_blank=True, max_length=3)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_box_drop(metadata=metadata, **data)


class _CountInput(serializers.Serializer[Any]):
    cash = CountsField()


@extend_schema_view(post=extend_schema(operation_id="tip_box_count"))
class TipBoxCountApi(CommandApi):
    """The first counter's count of a tip box, by denomination."""

    roles = COUNTER_ROLES
    answer = answers.TipBoxAnswer
    created = False

    class InputSerializer(_CountInput):
        currency = serializers.CharField(required=False, allow_blank=True, max_length=3)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_box_count(gaming_day=kwargs["day"], box=kwargs["box"],
                                      metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="tip_box_count_confirm"))
class TipBoxConfirmApi(CommandApi):
    """The second counter's count: the same figures confirm it, and the tips are held."""

    roles = COUNTER_ROLES
    answer = answers.TipBoxAnswer
    created = False

    class InputSerializer(_CountInput):
        pass

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_box_count_confirm(gaming_day=kwargs["day"], box=kwargs["box"],
                                              metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="tip_misplacement_report"))
class TipMisplacementReportApi(CommandApi):
    """A tip found in a drop box, or a drop in a tip box: a second person confirms it."""

    roles = CORRECTION_ROLES
    answer = answers.TipCorrectionAnswer

    class InputSerializer(serializers.Serializer[Any]):
        direction = serializers.CharField(max_length=16)
        table = serializers.CharField(max_length=64)
        gaming_day = serializers.CharField(max_length=10)
        amount = AmountField()
        reason = serializers.CharField(max_length=1000)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_misplacement_report(metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="tip_misplacement_confirm"))
class TipMisplacementConfirmApi(CommandApi):
    """The second person confirms a misplaced tip or drop."""

    roles = CORRECTION_ROLES
    answer = answers.TipCorrectionAnswer
    created = False

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_misplacement_confirm(correction_id=kwargs["correction"],
                                                 metadata=metadata)


@extend_schema_view(post=extend_schema(operation_id="tip_period_distribute"))
class TipPeriodDistributeApi(CommandApi):
    """A period's tips shared: the fund's share, each category's and each person's."""

    roles = DISTRIBUTE_ROLES
    answer = answers.TipPeriodAnswer

    class InputSerializer(serializers.Serializer[Any]):
        days = MappingField(required=False)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.tip_period_distribute(period=kwargs["period"], metadata=metadata,
                                              **data)
