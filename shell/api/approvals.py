"""Four eyes through the API: ask for a change after the fact, list what awaits approval,
approve, refuse or withdraw (``casino.services.approvals``).

Who may ask and who may decide depends on the kind (``GET approvals/kinds/`` lists them, with
their reasons); the person acting is the one logged in, never a name in the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.answers import ApprovalAnswer
from casino.approvals import Kind
from casino.errors import NotAllowed
from casino.models import Approval, ApprovalStatus, Role
from casino.selectors import approval_get, approval_list, casino_codes_for
from casino.services import approvals as service
from edge.api.base import CommandApi
from edge.api.schema import answer_serializer
from eventstore.records import Metadata

READ_ROLES = tuple(Role)


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


class ApprovalListApi(CommandApi):
    """GET: the requests; POST: ask for a change after the fact (the kind decides who may ask).
    Nothing moves until another person approves."""

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

    answer = ApprovalAnswer
    _kind: Kind

    @extend_schema(parameters=[FilterSerializer], responses=ApprovalSerializer(many=True))
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        filters = dict(params.validated_data)
        _reader(request, filters["casino"])
        return Response(ApprovalSerializer(approval_list(**filters), many=True).data)

    def casino(self, request: Request, **kwargs: Any) -> str:
        """The casino the body names; the body's shape is checked first, for its kind decides
        who may ask."""
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        self._kind = service.procedure_of(data.validated_data["kind"]).kind
        return str(data.validated_data["casino"])

    def acting_roles(self, request: Request, **kwargs: Any) -> Sequence[str]:
        return sorted(self._kind.request_roles)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return service.approval_request(
            kind=data["kind"], subject=data["subject"], reason=data["reason"],
            explanation=data["explanation"], details=data["details"], metadata=metadata)


class ApprovalDetailApi(APIView):
    @extend_schema(responses=ApprovalSerializer)
    def get(self, request: Request, approval_id: str) -> Response:
        approval = approval_get(approval_id=approval_id)
        _reader(request, approval.casino_id)
        return Response(ApprovalSerializer(approval).data)


class _Decision(CommandApi):
    """A decision on a request, in the approval's casino: its kind decides who may grant or
    refuse; only the person who asked may withdraw."""

    decision: ClassVar[str] = ""
    created = False
    answer = ApprovalAnswer
    _approval: Approval

    class InputSerializer(serializers.Serializer[Any]):
        note = serializers.CharField(allow_blank=True, default="")

    def casino(self, request: Request, **kwargs: Any) -> str:
        self._approval = approval_get(approval_id=kwargs["approval_id"])
        self.InputSerializer(data=request.data).is_valid(raise_exception=True)  # before the role
        return self._approval.casino_id

    def acting_roles(self, request: Request, **kwargs: Any) -> Sequence[str]:
        if self.decision == "withdraw":
            return READ_ROLES
        return sorted(service.procedure_of(self._approval.kind).kind.approve_roles)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        approval_id, note = kwargs["approval_id"], data["note"]
        if self.decision == "grant":
            return service.approval_grant(approval_id=approval_id, note=note, metadata=metadata)
        if self.decision == "refuse":
            return service.approval_refuse(approval_id=approval_id, note=note, metadata=metadata)
        return service.approval_withdraw(approval_id=approval_id, note=note, metadata=metadata)


class ApprovalGrantApi(_Decision):
    decision = "grant"


class ApprovalRefuseApi(_Decision):
    decision = "refuse"


class ApprovalWithdrawApi(_Decision):
    decision = "withdraw"
