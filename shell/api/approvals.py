"""Four eyes through the API: ask for a change after the fact, list what awaits approval,
approve, refuse or withdraw (``casino.services.approvals``).

Who may ask and who may decide depends on the kind (``GET approvals/kinds/`` lists them, with
their reasons); the person acting is the one logged in, never a name in the body.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.answers import ApprovalAnswer
from casino.errors import NotAllowed
from casino.models import Approval, ApprovalStatus, Role
from casino.selectors import approval_get, approval_list, casino_codes_for
from casino.services import approvals as service
from edge.api.base import request_metadata
from edge.api.schema import answer_serializer
from eventstore.answers import as_data

READ_ROLES = tuple(Role)
IDEMPOTENCY = OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                               description="a retry with the same key answers as the first "
                                           "time and records nothing")


class ApprovalSerializer(serializers.ModelSerializer[Approval]):
    casino = serializers.CharField(source="casino_id")
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True,
                                      coerce_to_string=True)

    class Meta:
        model = Approval
        fields = ["id", "casino", "kind", "subject", "reason", "explanation", "summary",
                  "amount", "details", "status", "requested_by", "requested_at", "decided_by",
                  "decided_at", "note"]


def _reader(request: Request, casino: str) -> None:
    if casino not in casino_codes_for(request.user, *READ_ROLES):
        raise NotAllowed("you may not read the approvals of casino {casino!r}",
                         params={"casino": casino})


@dataclass(frozen=True)
class ApprovalReason:
    code: str
    label: str


@dataclass(frozen=True)
class ApprovalKind:
    """A kind of change after the fact: its reasons, who may ask and who may approve."""

    kind: str
    label: str
    reasons: list[ApprovalReason]
    request_roles: list[str]
    approve_roles: list[str]


class ApprovalKindListApi(APIView):
    @extend_schema(responses={200: answer_serializer(ApprovalKind)(many=True)})
    def get(self, request: Request) -> Response:
        return Response([{
            "kind": p.kind.name, "label": p.kind.label,
            "reasons": [{"code": r.code, "label": r.label} for r in p.kind.reasons],
            "request_roles": sorted(p.kind.request_roles),
            "approve_roles": sorted(p.kind.approve_roles),
        } for p in sorted(service.PROCEDURES.values(), key=lambda p: p.kind.name)])


class ApprovalListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()
        status = serializers.ChoiceField(choices=ApprovalStatus.choices, required=False)
        kind = serializers.CharField(required=False)
        subject = serializers.CharField(required=False)

    class InputSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()
        kind = serializers.CharField()
        subject = serializers.CharField(allow_blank=True, default="")
        reason = serializers.CharField()
        explanation = serializers.CharField()
        details = serializers.DictField(required=False, default=dict)

    @extend_schema(parameters=[FilterSerializer], responses=ApprovalSerializer(many=True))
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        filters = dict(params.validated_data)
        _reader(request, filters["casino"])
        return Response(ApprovalSerializer(approval_list(**filters), many=True).data)

    @extend_schema(request=InputSerializer, responses={201: answer_serializer(ApprovalAnswer)},
                   parameters=[IDEMPOTENCY])
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = dict(data.validated_data)
        kind = service.procedure_of(body["kind"]).kind
        metadata = request_metadata(request, body["casino"], sorted(kind.request_roles))
        result = service.approval_request(
            kind=body["kind"], subject=body["subject"], reason=body["reason"],
            explanation=body["explanation"], details=body["details"], metadata=metadata)
        return Response(as_data(result), status=status.HTTP_201_CREATED)


class ApprovalDetailApi(APIView):
    @extend_schema(responses=ApprovalSerializer)
    def get(self, request: Request, approval_id: str) -> Response:
        approval = approval_get(approval_id=approval_id)
        _reader(request, approval.casino_id)
        return Response(ApprovalSerializer(approval).data)


class _Decision(APIView):
    decision = ""

    class InputSerializer(serializers.Serializer[Any]):
        note = serializers.CharField(allow_blank=True, default="")

    @extend_schema(request=InputSerializer, responses={200: answer_serializer(ApprovalAnswer)},
                   parameters=[IDEMPOTENCY])
    def post(self, request: Request, approval_id: str) -> Response:
        approval = approval_get(approval_id=approval_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        note = data.validated_data["note"]
        if self.decision == "withdraw":
            metadata = request_metadata(request, approval.casino_id, READ_ROLES)
            return Response(as_data(service.approval_withdraw(
                approval_id=approval_id, note=note, metadata=metadata)))
        kind = service.procedure_of(approval.kind).kind
        metadata = request_metadata(request, approval.casino_id, sorted(kind.approve_roles))
        if self.decision == "grant":
            return Response(as_data(service.approval_grant(
                approval_id=approval_id, note=note, metadata=metadata)))
        return Response(as_data(service.approval_refuse(
            approval_id=approval_id, note=note, metadata=metadata)))


class ApprovalGrantApi(_Decision):
    decision = "grant"


class ApprovalRefuseApi(_Decision):
    decision = "refuse"


class ApprovalWithdrawApi(_Decision):
    decision = "withdraw"
