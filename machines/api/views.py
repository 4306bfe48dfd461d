"""The machines' API, ``/api/v1/machines/<casino>/…``: the floor's reads, a slot data system's
bulk ingest of meter readings, and the cage's ticket redemption and hand pay payment. One view
per operation, thin: parse, call one selector or service."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.models import Casino
from edge.api.base import CommandApi, acting_role
from edge.api.schema import answer_serializer
from eventstore.records import Metadata
from machines import answers, selectors
from machines.roles import FLOOR_ROLES, PAY_ROLES, READ_ROLES
from machines.services.handpays import hand_pay_pay
from machines.services.readings import meter_readings_record
from machines.services.tickets import ticket_redeem


def _today(casino: str) -> Any:
    return Casino.objects.get(code=casino).gaming_day(timezone.now())


class MachineListApi(APIView):
    """The floor: every machine with its status, today's win by meters, its return against its
    certified one and whether it is flagged."""

    @extend_schema(responses={200: answer_serializer(answers.MachineRow)(many=True)},
                   operation_id="machine_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        day = _today(casino)
        return Response([dataclasses.asdict(r) for r in selectors.floor_rows(casino, day)])


class MachineDetailApi(APIView):
    """A machine, its configuration history and its last readings."""

    @extend_schema(responses={200: answer_serializer(answers.MachineDetail)},
                   operation_id="machine_detail")
    def get(self, request: Request, casino: str, machine: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        found = selectors.machine_get(casino, machine)
        return Response(dataclasses.asdict(selectors.machine_detail(found, _today(casino))))


class TicketListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        status = serializers.ChoiceField(["outstanding", "redeemed", "expired"], required=False)

    @extend_schema(parameters=[OpenApiParameter("status", str)],
                   responses={200: answer_serializer(answers.TicketRow)(many=True)},
                   operation_id="machine_ticket_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        return Response([dataclasses.asdict(t) for t in selectors.ticket_rows(
            casino, status=params.validated_data.get("status", ""))])


class HandPayListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        status = serializers.ChoiceField(["recorded", "paid"], required=False)

    @extend_schema(parameters=[OpenApiParameter("status", str)],
                   responses={200: answer_serializer(answers.HandPayRow)(many=True)},
                   operation_id="machine_hand_pay_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        return Response([dataclasses.asdict(h) for h in selectors.hand_pay_rows(
            casino, status=params.validated_data.get("status", ""))])


@extend_schema_view(post=extend_schema(operation_id="meter_readings_record"))
class MeterReadingsApi(CommandApi):
    """A slot data system's readings, in bulk: ``[{machine, reading_id, read_at, meters}]``.
    Answers each reading's fate (recorded, duplicate, refused with its code and reason); the
    same batch again records nothing twice."""

    roles = FLOOR_ROLES
    created = False
    answer = answers.ReadingsAnswer

    class InputSerializer(serializers.Serializer[Any]):
        source = serializers.ChoiceField(  # type: ignore[assignment]  # a field named "source"
            ["sds", "file", "hand"], default="sds")
        readings = serializers.ListField(child=serializers.DictField(), min_length=1,
                                         max_length=20000)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return meter_readings_record(casino=metadata.casino, metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="ticket_redeem"))
class TicketRedeemApi(CommandApi):
    """The cage (or a kiosk) pays a ticket by its validation number: once."""

    roles = PAY_ROLES
    answer = answers.TicketAnswer

    class InputSerializer(serializers.Serializer[Any]):
        window = serializers.CharField(max_length=32)
        place = serializers.CharField(max_length=16, default="cage",
                                      help_text="cage or kiosk")

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return ticket_redeem(casino=metadata.casino, validation=kwargs["validation"],
                             metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="hand_pay_pay"))
class HandPayPayApi(CommandApi):
    """The cage pays a recorded hand pay, with its slip; a second person above the threshold;
    the patron's reference where the law asks for identification."""

    roles = PAY_ROLES
    answer = answers.HandPayAnswer

    class InputSerializer(serializers.Serializer[Any]):
        window = serializers.CharField(max_length=32)
        slip = serializers.CharField(max_length=64)
        witnessed_by = serializers.CharField(max_length=150, required=False, default="")
        patron = serializers.CharField(max_length=64, required=False, default="")

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return hand_pay_pay(casino=metadata.casino, handpay_id=kwargs["handpay"],
                            metadata=metadata, **data)
