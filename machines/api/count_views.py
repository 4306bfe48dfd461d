"""``/api/v1/machines/<casino>/…``: the count room's doors (a box dropped and counted by one
counter, confirmed by another, its variance explained and approved by a second person) and a
meter reset (a rollover or a RAM clear, with the second person who witnessed it). One view per
operation, thin: parse, call one service."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from edge.api.base import CommandApi
from eventstore.records import Metadata
from machines import answers, law
from machines.roles import COUNT_ROLES, FLOOR_ROLES, PAY_ROLES, SUPERVISOR_ROLES
from machines.services.cash import slot_cash_count
from machines.services.counts import (
    machine_box_confirm,
    machine_box_count,
    machine_box_variance_explain,
)
from machines.services.parameters import PARAMETER_ROLES, machine_parameter_set
from machines.services.readings import meter_reset_record


@extend_schema_view(post=extend_schema(operation_id="machine_box_count"))
class BoxCountApi(CommandApi):
    """A box dropped from its machine and counted by note (the first counter); answers its
    variance against the bills the meters put in it."""

    roles = COUNT_ROLES
    answer = answers.BoxCountAnswer

    class InputSerializer(serializers.Serializer[Any]):
        machine = serializers.CharField(max_length=32)
        drop_id = serializers.CharField(max_length=64)
        notes = serializers.DictField(child=serializers.IntegerField(min_value=0),
                                      help_text="note denomination (\"20.00\") → count")
        window = serializers.CharField(max_length=32)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return machine_box_count(casino=metadata.casino, metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="machine_box_confirm"))
class BoxConfirmApi(CommandApi):
    """The second counter confirms a box's count (another person than the first)."""

    roles = COUNT_ROLES
    created = False
    answer = answers.BoxCountAnswer

    class InputSerializer(serializers.Serializer[Any]):
        pass

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return machine_box_confirm(casino=metadata.casino, drop_id=kwargs["drop_id"],
                                   metadata=metadata)


@extend_schema_view(post=extend_schema(operation_id="machine_box_variance_explain"))
class BoxExplainApi(CommandApi):
    """A box's variance explained, approved by a second person (``approved_by``)."""

    roles = COUNT_ROLES + SUPERVISOR_ROLES
    created = False
    answer = answers.BoxCountAnswer

    class InputSerializer(serializers.Serializer[Any]):
        explanation = serializers.CharField(max_length=2000)
        approved_by = serializers.CharField(max_length=150)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return machine_box_variance_explain(casino=metadata.casino, drop_id=kwargs["drop_id"],
                                            metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="meter_reset_record"))
class MeterResetApi(CommandApi):
    """A rollover or a RAM clear of a machine's meters: the meters just before it (counted as a
    reading) and just after it (the next reading's start), witnessed by a second person."""

    roles = FLOOR_ROLES
    answer = answers.ResetAnswer

    class InputSerializer(serializers.Serializer[Any]):
        kind = serializers.ChoiceField(["rollover", "ram_clear"])
        reading_id = serializers.CharField(max_length=64)
        read_at = serializers.CharField(max_length=64)
        before = serializers.DictField()
        after = serializers.DictField()
        witnessed_by = serializers.CharField(max_length=150)
        reason = serializers.CharField(max_length=500)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return meter_reset_record(casino=metadata.casino, machine=kwargs["machine"],
                                  metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="slot_cash_count"))
class SlotCashCountApi(CommandApi):
    """The slot cashier's cash at a window counted by note, witnessed by a cage supervisor."""

    roles = PAY_ROLES
    answer = answers.SlotCashCountAnswer

    class InputSerializer(serializers.Serializer[Any]):
        count_id = serializers.CharField(max_length=64)
        window = serializers.CharField(max_length=32)
        notes = serializers.DictField(child=serializers.IntegerField(min_value=0))
        witnessed_by = serializers.CharField(max_length=150)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return slot_cash_count(casino=metadata.casino, metadata=metadata, **data)


@extend_schema_view(post=extend_schema(operation_id="machine_parameter_set"))
class ParameterSetApi(CommandApi):
    """A legal parameter of the slot floor set from a day on, citing the inspection's
    reference (an accountant or an administrator)."""

    roles = PARAMETER_ROLES
    answer = answers.ParameterAnswer

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.ChoiceField(list(law.SETTABLE))
        value = serializers.CharField(max_length=32)
        effective_from = serializers.DateField()
        reference = serializers.CharField(max_length=500)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return machine_parameter_set(casino=metadata.casino, metadata=metadata,
                                     **{**data, "effective_from": data["effective_from"]
                                        .isoformat()})
