"""``/api/v1/machines/<casino>/…``: the slot cashier's shift (``docs/machines.md``, *The slot
cashier's shift*), as its screen (``/machines/<casino>/cashier/shifts/``): opened on a blind
count, counted blind, its differences explained with a cage supervisor's approval, closed; and
a window's shifts with their figures. One view per operation, thin: parse, call one service or
selector; the roles are the screen's (``machines.roles``: reads ``READ_ROLES``, the commands
``PAY_ROLES``, checked again by each service)."""

from __future__ import annotations

import dataclasses
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.api.base import CommandApi, acting_role
from edge.api.schema import answer_serializer
from eventstore.records import Metadata
from machines import answers, selectors
from machines.roles import PAY_ROLES, READ_ROLES
from machines.services.shifts import (
    slot_shift_close,
    slot_shift_count,
    slot_shift_open,
    slot_shift_variance_explain,
)

NOTES_HELP = "note denomination in the casino's currency (\"20.00\") → count, counted blind"


def _notes() -> serializers.DictField:
    return serializers.DictField(child=serializers.IntegerField(min_value=0),
                                 help_text=NOTES_HELP)


@extend_schema_view(post=extend_schema(operation_id="slot_shift_open"))
class SlotShiftOpenApi(CommandApi):
    """Open a shift at a window on a blind count of its cash by note; the answer gives the
    window's book and the opening difference only afterwards. Refused (409) while the window
    has a shift not closed."""

    roles = PAY_ROLES
    answer = answers.SlotShiftAnswer

    class InputSerializer(serializers.Serializer[Any]):
        window = serializers.CharField(max_length=32)
        notes = _notes()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return slot_shift_open(casino=metadata.casino, metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="slot_shift_count"))
class SlotShiftCountApi(CommandApi):
    """The blind closing count by note; the answer (expected, counted, variance) comes after it.
    A recount is allowed until the shift closes."""

    roles = PAY_ROLES
    created = False
    answer = answers.SlotShiftAnswer

    class InputSerializer(serializers.Serializer[Any]):
        notes = _notes()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return slot_shift_count(casino=metadata.casino, shift_id=kwargs["shift_id"],
                                metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="slot_shift_variance_explain"))
class SlotShiftExplainApi(CommandApi):
    """The shift's differences explained, approved by name by a cage supervisor who did not
    count it (``approved_by``)."""

    roles = PAY_ROLES
    created = False
    answer = answers.SlotShiftAnswer

    class InputSerializer(serializers.Serializer[Any]):
        explanation = serializers.CharField(max_length=2000)
        approved_by = serializers.CharField(max_length=150)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return slot_shift_variance_explain(casino=metadata.casino, shift_id=kwargs["shift_id"],
                                           metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="slot_shift_close"))
class SlotShiftCloseApi(CommandApi):
    """Close a counted shift: refused (409) while a difference is not explained and approved;
    its count's difference is posted to the slot cashier's over/short (7870.W)."""

    roles = PAY_ROLES
    created = False
    answer = answers.SlotShiftAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return slot_shift_close(casino=metadata.casino, shift_id=kwargs["shift_id"],
                                metadata=metadata)


class SlotShiftListApi(APIView):
    """A window's shifts, the latest first, with their figures (blind while open: the opening
    count only)."""

    class FilterSerializer(serializers.Serializer[Any]):
        status = serializers.ChoiceField(["open", "counted", "closed"], required=False)

    @extend_schema(parameters=[OpenApiParameter("status", str)],
                   responses={200: answer_serializer(answers.SlotShiftRow)(many=True)},
                   operation_id="slot_shift_list")
    def get(self, request: Request, casino: str, window: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        return Response([dataclasses.asdict(s) for s in selectors.slot_shift_rows(
            casino, window, status=params.validated_data.get("status", ""))])
