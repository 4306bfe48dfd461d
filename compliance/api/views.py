"""``/api/v1/compliance/<casino>/…``: patrons, alerts, reports. One class per operation.

The cage registers, verifies and finds patrons; only the compliance officer sees alerts,
suspicious-transaction reports and personal data (no tipping off). The regulator reads the
selectors of ``docs/patrons.md`` § The regulator: reports sent, identifications per day, the
large-transaction report, by reference, never a name or a document. (The regulator's own
read-only tree, ``/api/regulator/v1/``, will mount the same selectors.)
"""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import InvalidCommand, NotFound
from casino.models import Casino, Role
from casino.money import fmt
from edge.api.base import CommandApi, acting_role
from edge.api.schema import Error, answer_serializer
from eventstore.records import Metadata

from .. import answers, selectors
from .. import services as compliance
from ..models import AmlAlert, Patron, SuspiciousReport
from ..services import linking
from ..services._common import COMPLIANCE_ROLES, REGISTER_ROLES

REGULATOR_READS = (Role.COMPLIANCE_OFFICER, Role.REGULATOR)


# The compliance commands: ``edge.api.base.CommandApi`` with the compliance officer's role
# unless a command says otherwise. (Its docstring is what the schema shows for the commands that
# have none of their own.)
class ComplianceCommandApi(CommandApi):
    """Input (shape only), role and metadata, then one service call; 201 with its answer."""

    roles: ClassVar[tuple[str, ...]] = COMPLIANCE_ROLES


def _patron(p: Patron) -> dict[str, Any]:
    return {"patron_id": str(p.patron_id), "status": p.status, "place": p.place,
            "registered_at": p.registered_at.isoformat(), "registered_by": p.registered_by,
            "verified_at": p.verified_at.isoformat() if p.verified_at else None,
            "shredded_at": p.shredded_at.isoformat() if p.shredded_at else None}


class PatronRegisterApi(ComplianceCommandApi):
    """POST: identify a patron (their data goes encrypted into the vault, never into an event);
    ``verified``: the original document was checked now. To find one: ``patrons/find/``."""

    roles = REGISTER_ROLES

    answer = answers.PatronAnswer

    class InputSerializer(serializers.Serializer[Any]):
        name = serializers.CharField(max_length=200)
        document_type = serializers.CharField(max_length=32)
        document_number = serializers.CharField(max_length=64)
        document_country = serializers.CharField(max_length=2)
        date_of_birth = serializers.CharField(max_length=10)
        nationality = serializers.CharField(max_length=2)
        address = serializers.CharField(max_length=500)
        pep = serializers.BooleanField(default=False,
                                       help_text="a politically exposed person")
        document_image = serializers.CharField(max_length=300, required=False,
                                               allow_blank=True, default="")
        place = serializers.ChoiceField(choices=["cage", "entrance"], default="cage")
        window = serializers.CharField(max_length=64, required=False, allow_blank=True,
                                       default="")
        verified = serializers.BooleanField(default=False)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return compliance.patron_register(metadata=metadata, **data)


class PatronFindApi(APIView):
    """Find a patron by the document they show. POSTed: the document's number is never in an
    address, which access logs keep (issue 35); reads, records nothing."""

    class InputSerializer(serializers.Serializer[Any]):
        document_type = serializers.CharField(max_length=32)
        document_number = serializers.CharField(max_length=64)
        document_country = serializers.CharField(max_length=2)

    @extend_schema(operation_id="compliance_patron_find", request=InputSerializer,
                   responses={200: answer_serializer(answers.PatronFound), 404: Error})
    def post(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, REGISTER_ROLES)
        params = self.InputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        asked = {n: str(v).strip() for n, v in params.validated_data.items()}
        found = selectors.patron_find(casino, **asked)
        if found is None:
            raise NotFound("no patron is registered with this document: register them",
                           code="unknown_patron")
        identity = selectors.patron_identity(found) or {}
        return Response({**_patron(found), "name": identity.get("name")})


class PatronVerifyApi(ComplianceCommandApi):
    roles = REGISTER_ROLES

    answer = answers.PatronAnswer

    class InputSerializer(serializers.Serializer[Any]):
        document_image = serializers.CharField(max_length=300)
        place = serializers.ChoiceField(choices=["cage", "entrance"], default="cage")

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return compliance.patron_verify(patron_id=kwargs["patron"], metadata=metadata, **data)


class PatronShredApi(ComplianceCommandApi):
    """Destroy the patron's data key (their retention period over): crypto-shredding."""

    answer = answers.PatronShredAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return compliance.patron_shred(patron_id=kwargs["patron"], metadata=metadata)


class PatronDetailApi(APIView):
    """The patron with their personal data (null once shredded) and their days: the
    compliance officer only."""

    @extend_schema(responses={200: answer_serializer(answers.PatronDetail)})
    def get(self, request: Request, casino: str, patron: str) -> Response:
        acting_role(request, casino, COMPLIANCE_ROLES)
        found = selectors.patron_get(casino, patron)
        return Response({**_patron(found), "identity": selectors.patron_identity(found),
                         "days": [{"gaming_day": d.gaming_day.isoformat(),
                                   "purchases": fmt(d.purchases),
                                   "redemptions": fmt(d.redemptions), "payouts": fmt(d.payouts),
                                   "buy_ins": fmt(d.buy_ins), "cash": fmt(d.cash),
                                   "transactions": d.transactions}
                                  for d in selectors.patron_days(found)]})


def _alert(a: AmlAlert) -> dict[str, Any]:
    return {"alert_id": str(a.alert_id), "kind": a.kind, "rule": a.rule,
            "patron_id": str(a.patron_id) if a.patron_id else None,
            "gaming_day": a.gaming_day.isoformat(), "movement": a.movement,
            "reference": a.reference, "where": a.where, "amount": fmt(a.amount),
            "cash": fmt(a.cash), "threshold": fmt(a.threshold), "day_total": fmt(a.day_total),
            "status": a.status, "report_id": str(a.report_id) if a.report_id else None,
            "raised_at": a.raised_at.isoformat(),
            # a table in another currency than the law's (issue 39): the movement in it
            "currency": a.currency or None,
            "original_amount": fmt(a.original_amount) if a.original_amount is not None else None,
            "rate": str(a.rate) if a.rate is not None else None}


def _day(request: Request, *, required: bool) -> Any:
    raw = request.query_params.get("day", "")
    if not raw:
        if required:
            raise InvalidCommand("say which gaming day (day=YYYY-MM-DD)", field="day")
        return None
    return selectors.day_of(raw)


class AlertListApi(APIView):
    @extend_schema(parameters=[OpenApiParameter("day", str), OpenApiParameter("kind", str),
                               OpenApiParameter("status", str)], responses={200: answer_serializer(answers.Alert)(many=True)})
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, COMPLIANCE_ROLES)
        found = selectors.alert_list(casino, day=_day(request, required=False),
                                     kind=request.query_params.get("kind", ""),
                                     status=request.query_params.get("status", ""))
        return Response([_alert(a) for a in found])


def _report(r: SuspiciousReport, due: selectors.ReportDue) -> dict[str, Any]:
    return {"report_id": str(r.report_id), "patron_id": str(r.patron_id),
            "alert_ids": list(r.alert_ids), "status": r.status, "drafted_by": r.drafted_by,
            "drafted_at": r.drafted_at.isoformat(), "reviewed_by": r.reviewed_by or None,
            "sent_on": r.sent_on.isoformat() if r.sent_on else None,
            "reference": r.reference or None,
            "suspected_on": due.suspected_on.isoformat(), "due_on": due.due_on.isoformat(),
            "due_state": due.state, "deadline_source": due.source,
            "deadline_flagged": due.flagged}


def _reports(casino: str, found: Any) -> list[dict[str, Any]]:
    listed = list(found)
    dues = selectors.report_dues(Casino.objects.get(code=casino), listed)
    return [_report(r, dues[r.report_id]) for r in listed]


class ReportListApi(ComplianceCommandApi):
    """GET: the suspicious-transaction reports; POST: draft one from alerts of one patron."""

    answer = answers.ReportDraftAnswer

    class InputSerializer(serializers.Serializer[Any]):
        alert_ids = serializers.ListField(child=serializers.CharField(max_length=64),
                                          allow_empty=False)
        narrative = serializers.CharField(max_length=20_000)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return compliance.suspicious_report_draft(metadata=metadata, **data)

    @extend_schema(operation_id="compliance_report_list",
                   parameters=[OpenApiParameter("status", str)], responses={200: answer_serializer(answers.Report)(many=True)})
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, COMPLIANCE_ROLES)
        found = selectors.report_list(casino, status=request.query_params.get("status", ""))
        return Response(_reports(casino, found))


class ReportDetailApi(APIView):
    @extend_schema(responses={200: answer_serializer(answers.ReportDetail)})
    def get(self, request: Request, casino: str, report: str) -> Response:
        acting_role(request, casino, COMPLIANCE_ROLES)
        found = selectors.report_get(casino, report)
        return Response({**_reports(casino, [found])[0],
                         "narrative": selectors.report_narrative(found)})


class ReportReviewApi(ComplianceCommandApi):
    answer = answers.ReportReviewAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return compliance.suspicious_report_review(report_id=kwargs["report"],
                                                   metadata=metadata)


class ReportSendApi(ComplianceCommandApi):
    answer = answers.ReportSendAnswer

    class InputSerializer(serializers.Serializer[Any]):
        reference = serializers.CharField(max_length=120)
        sent_on = serializers.CharField(max_length=10, required=False, allow_blank=True)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return compliance.suspicious_report_send(report_id=kwargs["report"], metadata=metadata,
                                                 **data)


class LinkingPeriodApi(ComplianceCommandApi):
    """GET: the linking period in force on a gaming day (``day``) and its source; POST: a new
    version from ``from_day`` (docs/patrons.md, Linked transactions)."""

    answer = answers.LinkingPeriodAnswer

    class InputSerializer(serializers.Serializer[Any]):
        days = serializers.IntegerField(min_value=1, max_value=366,
                                        help_text="gaming days ending with the movement's")
        from_day = serializers.CharField(max_length=10, help_text="YYYY-MM-DD")
        reason = serializers.CharField(max_length=500)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return compliance.linking_period_set(metadata=metadata, **data)

    @extend_schema(operation_id="compliance_linking_period_get",
                   parameters=[OpenApiParameter("day", str, required=True)],
                   responses={200: answer_serializer(answers.LinkingPeriodInForce)})
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, COMPLIANCE_ROLES)
        found = linking.period_for(casino, _day(request, required=True))
        return Response({"days": found.days, "first_day": found.first_day.isoformat(),
                         "source": found.source})


# --- the regulator's selectors (read-only; by reference) -------------------------------------


class LargeTransactionReportApi(APIView):
    """The day's large-transaction report (Macau: cash movements of MOP 500,000 or more)."""

    @extend_schema(parameters=[OpenApiParameter("day", str, required=True)],
                   responses={200: answer_serializer(answers.LargeTransactionReport)})
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, REGULATOR_READS)
        day = _day(request, required=True)
        return Response({"casino": casino, "gaming_day": day.isoformat(),
                         "transactions": selectors.large_transactions(casino, day)})


class IdentificationListApi(APIView):
    """The patrons identified who made movements in the gaming day, with their sums."""

    @extend_schema(parameters=[OpenApiParameter("day", str, required=True)],
                   responses={200: answer_serializer(answers.IdentificationList)})
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, REGULATOR_READS)
        day = _day(request, required=True)
        return Response({"casino": casino, "gaming_day": day.isoformat(),
                         "patrons": [vars(i) for i in selectors.identifications(casino, day)]})


class ReportSentListApi(APIView):
    """Suspicious-transaction reports sent: reference, day and grounds, never the narrative."""

    @extend_schema(parameters=[OpenApiParameter("day", str)], responses={200: answer_serializer(answers.ReportSent)(many=True)})
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, REGULATOR_READS)
        return Response(selectors.reports_sent(casino, day=_day(request, required=False)))
