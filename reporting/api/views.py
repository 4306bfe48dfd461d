"""The ledger's API: reads and streamed exports only (an accountant changes nothing).

Periods are gaming days, ``?from=YYYY-MM-DD&to=YYYY-MM-DD``, both included. Every view checks
the person's role in the casino once, through ``selectors.casino_get_for``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import FileResponse, StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import InvalidCommand
from edge.api.schema import answer_serializer
from ledger import bank, reports, selectors
from reporting import close_report, reconciliation

from .. import answers
from ..downloads import close_report_download, journal_download, trial_balance_download
from .serializers import BankClearingOutput

PERIOD = [OpenApiParameter("from", dt.date, required=True, description="first gaming day"),
          OpenApiParameter("to", dt.date, required=True, description="last gaming day")]


def _money() -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=18, decimal_places=2)


class _PeriodSerializer(serializers.Serializer[Any]):
    day_from = serializers.DateField()
    day_to = serializers.DateField()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        selectors.period_bounds(attrs["day_from"], attrs["day_to"])
        return attrs


def _period(request: Request) -> tuple[dt.date, dt.date]:
    params = _PeriodSerializer(data={"day_from": request.query_params.get("from"),
                                     "day_to": request.query_params.get("to")})
    params.is_valid(raise_exception=True)
    return selectors.period_bounds(params.validated_data["day_from"],
                                   params.validated_data["day_to"])


class AccountListApi(APIView):
    """The casino's chart of accounts, with each account's SNC and Macau mapping."""

    class OutputSerializer(serializers.Serializer[Any]):
        code = serializers.CharField()
        name = serializers.CharField()
        name_pt = serializers.CharField()
        kind = serializers.CharField()
        normal = serializers.CharField()
        snc = serializers.CharField()
        macau = serializers.CharField()

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request, casino: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        return Response(self.OutputSerializer(selectors.account_list(casino=casino),
                                              many=True).data)


class _LineSerializer(serializers.Serializer[Any]):
    line_no = serializers.IntegerField()
    account_code = serializers.CharField()
    debit = serializers.DecimalField(max_digits=14, decimal_places=2)
    credit = serializers.DecimalField(max_digits=14, decimal_places=2)


class _EntrySerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    day = serializers.DateField()
    event_day = serializers.DateField()
    description = serializers.CharField()
    event_type = serializers.CharField()
    event_position = serializers.IntegerField()
    stream = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    corrects = serializers.IntegerField(source="corrects.number", allow_null=True,
                                        default=None)
    lines = _LineSerializer(many=True)


class JournalEntryListApi(APIView):
    """The journal entries of a period with their lines, paginated (``limit``, ``offset``)."""

    pagination_class = LimitOffsetPagination  # the schema's page shape (count, next, results)

    @extend_schema(parameters=PERIOD, responses=_EntrySerializer(many=True))
    def get(self, request: Request, casino: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        day_from, day_to = _period(request)
        paginator = LimitOffsetPagination()
        page = paginator.paginate_queryset(
            selectors.entry_list(casino=casino, day_from=day_from, day_to=day_to), request,
            view=self)
        return paginator.get_paginated_response(_EntrySerializer(page, many=True).data)


class JournalEntryDetailApi(APIView):
    class OutputSerializer(_EntrySerializer):
        corrected_by = serializers.SerializerMethodField()

        def get_corrected_by(self, entry: Any) -> list[int]:
            return [c.number for c in entry.corrections.all()]

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, casino: str, number: int) -> Response:
        selectors.casino_get_for(request.user, casino)
        entry = selectors.entry_get(casino=casino, number=number)
        return Response(self.OutputSerializer(entry).data)


class JournalExportApi(APIView):
    """The general-ledger journal of a period as CSV or XLSX, streamed."""

    @extend_schema(parameters=PERIOD, responses={200: bytes})
    def get(self, request: Request, casino: str, file: str
            ) -> StreamingHttpResponse | FileResponse:
        selectors.casino_get_for(request.user, casino)
        day_from, day_to = _period(request)
        return journal_download(casino=casino, day_from=day_from, day_to=day_to, file=file)


class TrialBalanceApi(APIView):
    class OutputSerializer(serializers.Serializer[Any]):
        code = serializers.CharField()
        name = serializers.CharField()
        kind = serializers.CharField()
        snc = serializers.CharField()
        macau = serializers.CharField()
        opening = serializers.DecimalField(max_digits=18, decimal_places=2)
        debit = serializers.DecimalField(max_digits=18, decimal_places=2)
        credit = serializers.DecimalField(max_digits=18, decimal_places=2)
        closing = serializers.DecimalField(max_digits=18, decimal_places=2)

    @extend_schema(parameters=PERIOD, responses={200: inline_serializer("TrialBalance", {
        "casino": serializers.CharField(), "currency": serializers.CharField(),
        "from": serializers.DateField(), "to": serializers.DateField(),
        "debit": _money(), "credit": _money(), "balanced": serializers.BooleanField(),
        "accounts": OutputSerializer(many=True)})})
    def get(self, request: Request, casino: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        day_from, day_to = _period(request)
        report = reports.trial_balance(casino=casino, day_from=day_from, day_to=day_to)
        return Response({
            "casino": casino, "currency": report.currency, "from": day_from, "to": day_to,
            "debit": str(report.debit), "credit": str(report.credit),
            "balanced": report.balanced,
            "accounts": self.OutputSerializer(report.rows, many=True).data,
        })


class BankClearingApi(APIView):
    """Clearing against the bank (``docs/ledger.md`` § Clearing against the bank): the casino
    cheques not yet presented and their total beside what the ledger owes on 2785 at the same
    instant; what is outstanding on 1220; the cheques the bank paid and the batches it credited.
    A cheque names no patron here. Accountants record on the web page; this reads."""

    @extend_schema(responses=BankClearingOutput)
    def get(self, request: Request, casino: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        return Response(BankClearingOutput(bank.clearing(casino=casino)).data)


class ReconciliationApi(APIView):
    """Every reconciliation of a gaming day against the ledger (``reconcile``)."""

    @extend_schema(responses={200: answer_serializer(answers.LedgerReconciliation)})
    def get(self, request: Request, casino: str, day: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        try:
            gaming_day = dt.date.fromisoformat(day)
        except ValueError:
            raise InvalidCommand("{day!r} is not a gaming day such as 2025-03-01",
                                 params={"day": day},
                                 field="day") from None
        return Response(reconciliation.reconcile(casino=casino, gaming_day=gaming_day).as_dict())


def _gaming_day(day: str) -> dt.date:
    try:
        return dt.date.fromisoformat(day)
    except ValueError:
        raise InvalidCommand("{day!r} is not a gaming day such as 2025-03-01", params={"day": day},
                             field="day") from None


# the close report's own schema (built from its dataclass) and its digest
CloseReportAnswerSerializer = type("CloseReportAnswerSerializer", (
    answer_serializer(close_report.CloseReport),), {
    "__module__": __name__, "__doc__": "The close report and its digest (what the day's seal signs).",
    "digest": serializers.CharField(help_text="SHA-256 (hex) of the report's canonical JSON")})


class CloseReportApi(APIView):
    """The gaming day's close report (``reporting.close_report``) and its digest, the one the
    day's seal signs."""

    @extend_schema(responses={200: CloseReportAnswerSerializer})
    def get(self, request: Request, casino: str, day: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        report = close_report.close_report(casino=casino, gaming_day=_gaming_day(day))
        return Response({**report.as_data(), "digest": close_report.report_digest(report)})


class CloseReportExportApi(APIView):
    """The close report as a CSV (its sections one after the other) or a PDF, streamed."""

    @extend_schema(responses={200: bytes})
    def get(self, request: Request, casino: str, day: str, file: str) -> StreamingHttpResponse:
        selectors.casino_get_for(request.user, casino)
        return close_report_download(casino=casino, gaming_day=_gaming_day(day), file=file)


class TrialBalanceExportApi(APIView):
    @extend_schema(parameters=PERIOD, responses={200: bytes})
    def get(self, request: Request, casino: str, file: str
            ) -> StreamingHttpResponse | FileResponse:
        selectors.casino_get_for(request.user, casino)
        day_from, day_to = _period(request)
        return trial_balance_download(casino=casino, day_from=day_from, day_to=day_to,
                                      file=file)


class TableResultListApi(APIView):
    """Handle, drop, win and hold % by table and day, by table, or by game."""

    class OutputSerializer(serializers.Serializer[Any]):
        day = serializers.DateField(allow_null=True)
        table = serializers.CharField()
        game = serializers.CharField()
        sessions = serializers.IntegerField()
        rounds = serializers.IntegerField()
        handle = serializers.DecimalField(max_digits=18, decimal_places=2)
        drop = serializers.DecimalField(max_digits=18, decimal_places=2)
        revenue = serializers.DecimalField(max_digits=18, decimal_places=2)
        variance = serializers.DecimalField(max_digits=18, decimal_places=2)
        win = serializers.DecimalField(max_digits=18, decimal_places=2)
        hold_percent = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
        win_handle_percent = serializers.DecimalField(max_digits=9, decimal_places=2,
                                                      allow_null=True)

    @extend_schema(parameters=[*PERIOD, OpenApiParameter("by", str, enum=["day", "table",
                                                                          "game"])],
                   responses=OutputSerializer(many=True))
    def get(self, request: Request, casino: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        day_from, day_to = _period(request)
        by = request.query_params.get("by", "day")
        if by not in ("day", "table", "game"):
            raise serializers.ValidationError({"by": "day, table or game"})
        rows = reports.table_results(casino=casino, day_from=day_from, day_to=day_to, by=by)
        return Response(self.OutputSerializer(rows, many=True).data)


class GrossGamingRevenueApi(APIView):
    """The gross gaming revenue by month and the gaming tax of its closed days (the return,
    with each tax and its legal source: ``ledger.taxes.monthly_return``)."""

    @extend_schema(parameters=PERIOD, responses={200: answer_serializer(answers.GrossGamingRevenue)})
    def get(self, request: Request, casino: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        day_from, day_to = _period(request)
        report = reports.gross_gaming_revenue(casino=casino, day_from=day_from, day_to=day_to)
        return Response({
            "casino": casino, "currency": report.currency, "jurisdiction": report.jurisdiction,
            "months": [{
                "month": m.month.strftime("%Y-%m"),
                "table_revenue": str(m.table_revenue), "table_variance": str(m.table_variance),
                "table_win": str(m.table_win), "jackpot_retained": str(m.jackpot_retained),
                "jackpot_funding": str(m.jackpot_funding),
                "gross_gaming_revenue": str(m.gross_gaming_revenue),
                "days_closed": m.days_closed,
                "tax_total": str(m.tax_total),
            } for m in report.months],
        })


class PeriodListApi(APIView):
    class OutputSerializer(serializers.Serializer[Any]):
        day = serializers.DateField()
        closed_at = serializers.DateTimeField()
        closed_by = serializers.CharField()
        entries = serializers.IntegerField()
        debit_total = serializers.DecimalField(max_digits=18, decimal_places=2)
        credit_total = serializers.DecimalField(max_digits=18, decimal_places=2)

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request, casino: str) -> Response:
        selectors.casino_get_for(request.user, casino)
        return Response(self.OutputSerializer(selectors.period_list(casino=casino),
                                              many=True).data)
