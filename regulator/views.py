"""The regulator's resources, one read-only view per operation (``docs/regulator.md``).

Every view takes the casino from the URL and answers only for a casino of the inspector's
jurisdiction (``RegulatorApi.casino``); collections are cursor-paginated in a stable order.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from typing import Any

import orjson
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast
from django.http import FileResponse, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from access.models import AccessLogEntry
from cage import reports as cage_reports
from cage.api.views import _report_data
from cage.models import Shift, ShiftLine
from cage.selectors import chips_in_circulation, shift_get
from casino.errors import InvalidCommand, NotFound
from casino.jurisdictions import jurisdiction_of
from casino.models import GamingDaySeal
from casino.money import fmt
from compliance import selectors as compliance
from edge.api.schema import answer_serializer
from eventstore import read_stream
from eventstore.hashing import format_time
from eventstore.models import StoredEvent
from eventstore.records import Metadata, exported_position
from games.models import Bet, JackpotBet, Round, Slip, Table, TableSession
from games.replay import round_replay
from jackpots.models import METERS, JackpotMeterReading, JackpotPool
from jackpots.selectors import hit_list, pool_config_history
from ledger import bank
from ledger.models import DayClose, Period
from ledger.reports import trial_balance
from ledger.selectors import day_bounded
from reporting.answers import SealPayload
from reporting.api.serializers import BankClearingOutput
from reporting.seals import seal_public_key

from . import asof, filters, verification
from .base import RegulatorApi, RegulatorListApi, cursor
from .taxes import gaming_tax_return


def _money() -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=18, decimal_places=2)


def _day(value: str, name: str = "day") -> dt.date:
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise InvalidCommand("{value!r} is not a day such as 2025-03-01",
                             params={"value": value}, field=name) from None
    return day_bounded(day, name)


def _instant(request: Request, name: str = "at") -> dt.datetime:
    value = request.query_params.get(name)
    if not value:
        raise InvalidCommand("say the instant: ?{name}=2025-03-01T22:00:00Z",
                             params={"name": name}, field=name)
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        raise InvalidCommand("{value!r} is not an instant such as 2025-03-01T22:00:00Z",
                             params={"value": value},
                             field=name) from None
    if moment.tzinfo is None:
        raise InvalidCommand("give the instant with its time zone (Z for UTC)", field=name)
    try:
        return moment.astimezone(dt.UTC)  # PostgreSQL takes offsets up to 15:59 only
    except OverflowError:
        raise InvalidCommand("{value!r} is out of range",
                             params={"value": value}, field=name) from None


AT = OpenApiParameter("at", dt.datetime, required=True,
                      description="the instant (ISO 8601, with its time zone)")


# --- casinos and their seal keys -----------------------------------------------------------


class CasinoOutput(serializers.Serializer[Any]):
    code = serializers.CharField()
    name = serializers.CharField()
    currency = serializers.CharField()
    time_zone = serializers.CharField()
    gaming_day_closes_at = serializers.IntegerField()
    jurisdiction = serializers.SerializerMethodField()

    def get_jurisdiction(self, casino: Any) -> str:
        return jurisdiction_of(casino.code, casino.currency)


class CasinoListApi(RegulatorApi):
    """The casinos of your jurisdiction."""

    @extend_schema(responses=CasinoOutput(many=True))
    def get(self, request: Request) -> Response:
        casinos = self.casinos()
        return self.answer(CasinoOutput(casinos, many=True).data, len(casinos))


class SealKeyOutput(serializers.Serializer[Any]):
    casino = serializers.CharField()
    algorithm = serializers.CharField()
    key_id = serializers.CharField()
    public_key = serializers.CharField(help_text="SubjectPublicKeyInfo, PEM")


class CasinoDetailApi(RegulatorApi):
    @extend_schema(responses=CasinoOutput)
    def get(self, request: Request, casino: str) -> Response:
        return self.answer(CasinoOutput(self.casino(casino)).data)


class CasinoSealKeyApi(RegulatorApi):
    """The casino's public seal key (Ed25519, PEM) that checks its seals."""

    @extend_schema(responses=SealKeyOutput)
    def get(self, request: Request, casino: str) -> Response:
        self.casino(casino)
        return self.answer(SealKeyOutput(seal_public_key(casino)).data)


# --- gaming days: closes and seals ----------------------------------------------------------


@extend_schema_field(answer_serializer(SealPayload))
class SealPayloadField(serializers.JSONField):
    """What a seal signs: its event's data without the signature."""


class SealOutput(serializers.Serializer[Any]):
    gaming_day = serializers.DateField()
    first_position = serializers.IntegerField()
    last_position = serializers.IntegerField()
    last_hash = serializers.CharField()
    key_id = serializers.CharField()
    signature = serializers.CharField()
    payload = SealPayloadField(help_text="what was signed: its canonical JSON")
    position = serializers.IntegerField(help_text="position of the seal's own event")
    sealed_at = serializers.DateTimeField()
    first_sequence = serializers.SerializerMethodField(
        help_text="the casino's first event the seal covers, by its number in the casino's "
                  "chain: the same in every cell (0: a seal of the global chain, before one "
                  "chain per casino)")
    last_sequence = serializers.SerializerMethodField(
        help_text="the casino's last event the seal covers, by its number in its chain")
    prev_hash = serializers.SerializerMethodField(
        help_text="the hash of the casino's event before the first: the offline check's anchor")

    def get_first_sequence(self, seal: Any) -> int:
        return int(seal.payload.get("first_sequence", 0))

    def get_last_sequence(self, seal: Any) -> int:
        return int(seal.payload.get("last_sequence", 0))

    def get_prev_hash(self, seal: Any) -> str:
        return str(seal.payload.get("prev_hash", ""))

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)
        data["payload"] = {k: v for k, v in instance.payload.items() if k != "signature"}
        return data


class PeriodOutput(serializers.Serializer[Any]):
    closed_at = serializers.DateTimeField()
    closed_by = serializers.CharField()
    event_position = serializers.IntegerField()
    entries = serializers.IntegerField()
    debit_total = _money()
    credit_total = _money()


class GamingDayOutput(serializers.Serializer[Any]):
    day = serializers.DateField()
    closed_at = serializers.DateTimeField()
    closed_by = serializers.CharField()
    results = serializers.JSONField()
    jackpots = serializers.JSONField()
    totals = serializers.DictField(child=serializers.CharField(),
                                   help_text="the day's figures by name, decimal strings")
    exceptions = serializers.ListField(child=serializers.CharField(),
                                       help_text="the approvals that excused a difference")
    report_digest = serializers.CharField()
    ledger_period = serializers.SerializerMethodField()
    seal = serializers.SerializerMethodField()

    @extend_schema_field(PeriodOutput(allow_null=True))
    def get_ledger_period(self, close: Any) -> dict[str, Any] | None:
        period = self.context["periods"].get(close.day)
        return PeriodOutput(period).data if period is not None else None

    @extend_schema_field(SealOutput(allow_null=True))
    def get_seal(self, close: Any) -> dict[str, Any] | None:
        seal = self.context["seals"].get(close.day)
        return SealOutput(seal).data if seal is not None else None


def _day_context(casino: str, days: list[dt.date]) -> dict[str, Any]:
    """The ledger periods and seals of ``days``: two queries, whatever their number."""
    return {
        "periods": {p.day: p for p in Period.objects.filter(casino_id=casino, day__in=days)},
        "seals": {s.gaming_day: s for s in GamingDaySeal.objects.filter(casino_id=casino,
                                                                       gaming_day__in=days)},
    }


class GamingDayListApi(RegulatorListApi):
    """The closed gaming days, each with its close, its ledger period and its seal."""

    filterset_class = filters.GamingDayFilter
    pagination_class = cursor("day")
    output = GamingDayOutput
    model = DayClose

    def rows_of(self, casino: str) -> QuerySet[DayClose]:
        return DayClose.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=GamingDayOutput(many=True))
    def get(self, request: Request, casino: str) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        assert page is not None
        self.rows = len(page)
        context = _day_context(casino, [c.day for c in page])
        return self.get_paginated_response(GamingDayOutput(page, many=True,
                                                           context=context).data)


class GamingDayDetailApi(RegulatorApi):
    @extend_schema(responses=GamingDayOutput)
    def get(self, request: Request, casino: str, day: str) -> Response:
        code = self.casino(casino).code
        close = DayClose.objects.filter(casino_id=code, day=_day(day)).first()
        if close is None:
            raise NotFound("gaming day {day} of {code} is not closed",
                           params={"day": day, "code": code})
        return self.answer(GamingDayOutput(close, context=_day_context(code, [close.day])).data)


# --- tables, sessions, rounds, slips --------------------------------------------------------


class TableOutput(serializers.ModelSerializer[Table]):
    class Meta:
        model = Table
        fields = ["code", "name", "game", "options", "seats", "chip_set", "limits",
                  "max_prize_per_coup", "open_session_id", "last_session_id", "version"]


class TableListApi(RegulatorListApi):
    filterset_class = filters.TableFilter
    pagination_class = cursor("code")
    output = TableOutput

    def rows_of(self, casino: str) -> QuerySet[Table]:
        return Table.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=TableOutput(many=True))
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


@extend_schema_field(answer_serializer(Metadata))
class MetadataField(serializers.JSONField):
    """Who did it, for which casino, and why (``eventstore.store.Metadata``)."""


class EventOutput(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="where the event was appended: the position "
                                                  "its hash covers")
    cell_position = serializers.IntegerField(
        required=False, help_text="only on an event carried from another cell with its casino: "
                                  "its position in this cell (docs/event-hash.md)")
    stream = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField()
    schema_version = serializers.IntegerField()
    data = serializers.JSONField()  # type: ignore[assignment]  # the event's data
    metadata = MetadataField()
    recorded_at = serializers.CharField(help_text="UTC, six fractional digits, as hashed")
    prev_hash = serializers.CharField()
    hash = serializers.CharField()
    sequence = serializers.IntegerField(help_text="the event's number in its casino's chain: a "
                                                  "page written as JSON Lines verifies offline "
                                                  "(tools/verify_events.py)")


def _event_data(row: dict[str, Any]) -> dict[str, Any]:
    """An event as exported and as hashed (docs/event-hash.md); its data and metadata as the
    database gives them, JSON text not parsed and written again (``orjson.Fragment``)."""
    return {**exported_position(row["position"], row["recorded_position"]),
            "stream": row["stream"], "version": row["version"],
            "type": row["event_type"], "schema_version": row["schema_version"],
            "data": orjson.Fragment(row["data_json"]),
            "metadata": orjson.Fragment(row["metadata_json"]),
            "recorded_at": format_time(row["recorded_at"]), "prev_hash": row["prev_hash"],
            "hash": row["hash"], "sequence": row["sequence"]}


EVENT_FIELDS = ("position", "recorded_position", "stream", "version", "event_type",
                "schema_version", "recorded_at", "prev_hash", "hash", "sequence")


class TableDetailOutput(TableOutput):
    configuration_history = serializers.SerializerMethodField(
        help_text="every event of the table's stream: its configuration as it changed")

    class Meta(TableOutput.Meta):
        fields = [*TableOutput.Meta.fields, "configuration_history"]

    @extend_schema_field(EventOutput(many=True))
    def get_configuration_history(self, table: Table) -> list[dict[str, Any]]:
        return [e.as_export() for e in read_stream(table.stream)]


class TableDetailApi(RegulatorApi):
    @extend_schema(responses=TableDetailOutput)
    def get(self, request: Request, casino: str, code: str) -> Response:
        table = Table.objects.filter(casino_id=self.casino(casino).code, code=code).first()
        if table is None:
            raise NotFound("there is no table {code!r} in {casino}",
                           params={"code": code, "casino": casino})
        return self.answer(TableDetailOutput(table).data)


class SessionOutput(serializers.ModelSerializer[TableSession]):
    class Meta:
        model = TableSession
        fields = ["session_id", "table", "game", "gaming_day", "status", "opened_at",
                  "opened_by", "closed_at", "closed_by", "previous_session_id", "opening",
                  "opening_amount", "float_chips", "fills_amount", "credits_amount",
                  "drop_recorded", "drop_counted", "drop", "drop_basis", "closing",
                  "closing_amount", "handle", "round_result", "table_win", "variance",
                  "hold_percent", "win_handle_percent", "rounds", "rounds_voided",
                  "colour_chips_in", "colour_chips_out", "late_amount", "late_changes",
                  "variance_approved", "variance_approved_by", "version"]


class SessionListApi(RegulatorListApi):
    filterset_class = filters.SessionFilter
    pagination_class = cursor(("opened_at", "session_id"))
    output = SessionOutput

    def rows_of(self, casino: str) -> QuerySet[TableSession]:
        return TableSession.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=SessionOutput(many=True))
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


class SessionDetailApi(RegulatorApi):
    @extend_schema(responses=SessionOutput)
    def get(self, request: Request, casino: str, session_id: str) -> Response:
        found = TableSession.objects.filter(casino_id=self.casino(casino).code,
                                            session_id=session_id).first()
        if found is None:
            raise NotFound("there is no table session {session_id} in {casino}",
                           params={"session_id": session_id, "casino": casino})
        return self.answer(SessionOutput(found).data)


class RoundOutput(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["round_id", "session_id", "table", "game", "options", "number", "status",
                  "point", "play", "outcome", "outcome_by", "settled_outcome", "handle",
                  "stakes", "result", "prizes", "void_reason", "void_reason_code", "voided_by",
                  "corrections", "jackpot_amount", "jackpot_prizes", "opened_at", "opened_by",
                  "version"]


class BetOutput(serializers.ModelSerializer[Bet]):
    class Meta:
        model = Bet
        fields = ["bet_id", "seat", "bet_type", "bet", "amount", "stage", "withdrawn",
                  "status", "win", "returned", "capped_win", "settled_version"]


class JackpotBetOutput(serializers.ModelSerializer[JackpotBet]):
    class Meta:
        model = JackpotBet
        fields = ["bet_id", "seat", "amount", "pool_id", "status", "combination", "prize"]


class RoundDetailOutput(RoundOutput):
    bets = BetOutput(many=True, source="regulator_bets")
    jackpot_bets = JackpotBetOutput(many=True, source="regulator_jackpot_bets")

    class Meta(RoundOutput.Meta):
        fields = [*RoundOutput.Meta.fields, "bets", "jackpot_bets"]


class RoundListApi(RegulatorListApi):
    filterset_class = filters.RoundFilter
    pagination_class = cursor(("opened_at", "round_id"))
    output = RoundOutput

    def rows_of(self, casino: str) -> QuerySet[Round]:
        return Round.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


def _round(view: RegulatorApi, casino: str, round_id: str) -> Round:
    found = Round.objects.filter(casino_id=view.casino(casino).code, round_id=round_id).first()
    if found is None:
        raise NotFound("there is no round {round_id} in {casino}",
                       params={"round_id": round_id, "casino": casino})
    return found


class RoundDetailApi(RegulatorApi):
    """A round with its bets, its outcome and each bet's settlement."""

    @extend_schema(responses=RoundDetailOutput)
    def get(self, request: Request, casino: str, round_id: str) -> Response:
        found = _round(self, casino, round_id)
        found.regulator_bets = list(  # type: ignore[attr-defined]
            Bet.objects.filter(round_id=found.round_id).order_by("bet_id"))
        found.regulator_jackpot_bets = list(  # type: ignore[attr-defined]
            JackpotBet.objects.filter(round_id=found.round_id).order_by("bet_id"))
        return self.answer(RoundDetailOutput(found).data)


class ReplayLine(serializers.Serializer[Any]):
    status = serializers.CharField()
    stake = serializers.CharField()
    win = serializers.CharField()


class ReplayOutput(serializers.Serializer[Any]):
    class BetLine(serializers.Serializer[Any]):
        bet_id = serializers.CharField()
        recorded = ReplayLine(allow_null=True)
        replayed = ReplayLine()
        matches = serializers.BooleanField()

    round_id = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    matches = serializers.BooleanField(allow_null=True)
    reason = serializers.CharField(required=False)
    bets = BetLine(many=True)


class RoundReplayApi(RegulatorApi):
    """The round settled again by the rules engine, beside its recorded settlement."""

    @extend_schema(responses=ReplayOutput)
    def get(self, request: Request, casino: str, round_id: str) -> Response:
        found = _round(self, casino, round_id)
        answer = round_replay(round_id=str(found.round_id))
        return self.answer(answer, len(answer["bets"]))


class SlipOutput(serializers.ModelSerializer[Slip]):
    class Meta:
        model = Slip
        fields = ["kind", "number", "session_id", "table", "chip_set", "chips", "amount",
                  "status", "shift_id", "window", "requested_at", "requested_by",
                  "void_reason"]


class SlipListApi(RegulatorListApi):
    filterset_class = filters.SlipFilter
    pagination_class = cursor("id")
    output = SlipOutput

    def rows_of(self, casino: str) -> QuerySet[Slip]:
        return Slip.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=SlipOutput(many=True))
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


# --- the cage ---------------------------------------------------------------------------------


class ShiftLineOutput(serializers.ModelSerializer[ShiftLine]):
    class Meta:
        model = ShiftLine
        fields = ["kind", "chip_set", "denomination", "opening", "receipts", "payments",
                  "counted"]


class ShiftOutput(serializers.ModelSerializer[Shift]):
    class Meta:
        model = Shift
        fields = ["id", "cage", "cage_kind", "gaming_day", "status", "basis",
                  "previous_shift_id", "opened_by", "opened_at", "count_number", "counted_by",
                  "counted_at", "variance_value", "explanation", "explained_by",
                  "approved_count", "approved_by", "closed_by", "closed_at", "version"]


class ShiftListApi(RegulatorListApi):
    filterset_class = filters.ShiftFilter
    pagination_class = cursor(("opened_at", "id"))
    output = ShiftOutput

    def rows_of(self, casino: str) -> QuerySet[Shift]:
        return Shift.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=ShiftOutput(many=True))
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


class ShiftDetailOutput(ShiftOutput):
    lines = ShiftLineOutput(many=True, source="regulator_lines")
    reconciliation = serializers.JSONField(source="regulator_reconciliation",
                                           help_text="the shift's reconciliation, counted "
                                                     "against expected (none while open)")

    class Meta(ShiftOutput.Meta):
        fields = [*ShiftOutput.Meta.fields, "lines", "reconciliation"]


class ShiftDetailApi(RegulatorApi):
    """A cage shift with its lines and its reconciliation."""

    @extend_schema(responses=ShiftDetailOutput)
    def get(self, request: Request, casino: str, shift: str) -> Response:
        found = shift_get(casino=self.casino(casino).code, shift_id=shift)
        found.regulator_lines = list(found.lines.order_by(  # type: ignore[attr-defined]
            "kind", "chip_set", "-denomination"))
        found.regulator_reconciliation = (  # type: ignore[attr-defined]
            _report_data(cage_reports.shift_reconciliation(found))
            if found.counted_at is not None else None)
        return self.answer(ShiftDetailOutput(found).data)


class CirculationOutput(serializers.Serializer[Any]):
    class Line(serializers.Serializer[Any]):
        chip_set = serializers.CharField()
        denomination = serializers.CharField()
        in_service = serializers.IntegerField()
        in_cages = serializers.IntegerField()
        in_vaults = serializers.IntegerField()
        in_table_trays = serializers.IntegerField()
        in_transit = serializers.IntegerField()
        in_circulation = serializers.IntegerField()
        value = serializers.CharField()

    casino = serializers.CharField()
    value = serializers.CharField()
    position = serializers.IntegerField(help_text="the last event the figure folds")
    open_tables = serializers.CharField()
    jackpot_slots = serializers.CharField()
    rows = Line(many=True)


class ChipsInCirculationApi(RegulatorApi):
    """Chips in players' hands, worked out from the events, now or just before ``at``."""

    params = frozenset({"at"})

    @extend_schema(parameters=[OpenApiParameter("at", dt.datetime, required=False)],
                   responses=CirculationOutput)
    def get(self, request: Request, casino: str) -> Response:
        code = self.casino(casino).code
        at = _instant(request) if "at" in request.query_params else None
        figure = chips_in_circulation(casino=code, before=at)
        rows = [{"chip_set": r.chip_set, "denomination": fmt(r.denomination),
                 "in_service": r.in_service, "in_cages": r.in_cages, "in_vaults": r.in_vaults,
                 "in_table_trays": r.in_table_trays, "in_transit": r.in_transit,
                 "in_circulation": r.in_circulation, "value": fmt(r.value)}
                for r in figure.rows]
        return self.answer({"casino": code, "value": fmt(figure.value),
                            "position": figure.position, "open_tables": fmt(figure.open_tables),
                            "jackpot_slots": fmt(figure.jackpot_slots), "rows": rows}, len(rows))


class AsOfOutput(serializers.Serializer[Any]):
    casino = serializers.CharField()
    at = serializers.DateTimeField()
    position = serializers.IntegerField(help_text="the last event folded")
    events = serializers.IntegerField(help_text="how many events were folded")
    figures = serializers.DictField(child=serializers.CharField())
    behind = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()),
                                   help_text="each figure: the positions of the events that "
                                             "moved it")


def _as_of_data(casino: str, at: dt.datetime, found: asof.AsOf) -> dict[str, Any]:
    return {"casino": casino, "at": at, "position": found.position, "events": found.events,
            "figures": found.figures, "behind": found.behind}


class CageAsOfApi(RegulatorApi):
    """The chips in a cage at an instant, rebuilt from the events before it."""

    params = frozenset({"at"})

    @extend_schema(parameters=[AT], responses=AsOfOutput)
    def get(self, request: Request, casino: str, cage: str) -> Response:
        code = self.casino(casino).code
        at = _instant(request)
        found = asof.cage_as_of(casino=code, cage=cage, at=at)
        return self.answer(_as_of_data(code, at, found), len(found.figures))


class TableAsOfApi(RegulatorApi):
    """A table's tray at an instant, rebuilt from the events before it."""

    params = frozenset({"at"})

    @extend_schema(parameters=[AT], responses=AsOfOutput)
    def get(self, request: Request, casino: str, code: str) -> Response:
        casino_code = self.casino(casino).code
        if not Table.objects.filter(casino_id=casino_code, code=code).exists():
            raise NotFound("there is no table {code!r} in {casino}",
                           params={"code": code, "casino": casino})
        at = _instant(request)
        found = asof.table_as_of(casino=casino_code, table=code, at=at)
        return self.answer(_as_of_data(casino_code, at, found), len(found.figures))


# --- jackpots ------------------------------------------------------------------------------


class PoolOutput(serializers.ModelSerializer[JackpotPool]):
    class Meta:
        model = JackpotPool
        fields = ["pool_id", "name", "game", "tables", "bet", "increment_percent", "start",
                  "paytable", "reserve_percent", "cap", "approved_on", "approval_reference",
                  "config_version", "amount", "reserve", "coups", "bets_count", "bets_amount",
                  "contributions", "reserve_contributions", "diverted", "retained", "hits",
                  "wins", "prizes_unpaid", "last_hit_at", "created_at", "version"]


class PoolListApi(RegulatorListApi):
    filterset_class = filters.PoolFilter
    pagination_class = cursor("pool_id")
    output = PoolOutput

    def rows_of(self, casino: str) -> QuerySet[JackpotPool]:
        return JackpotPool.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=PoolOutput(many=True))
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


def _pool(view: RegulatorApi, casino: str, pool: str) -> JackpotPool:
    found = JackpotPool.objects.filter(casino_id=view.casino(casino).code, pool_id=pool).first()
    if found is None:
        raise NotFound("there is no jackpot pool {pool!r} in {casino}",
                       params={"pool": pool, "casino": casino})
    return found


class PoolDetailOutput(PoolOutput):
    hits = serializers.JSONField(source="regulator_hits", help_text="the last hits, newest first")
    configuration_history = serializers.JSONField(source="regulator_configurations")

    class Meta(PoolOutput.Meta):
        fields = [*PoolOutput.Meta.fields, "hits", "configuration_history"]


class PoolDetailApi(RegulatorApi):
    """A jackpot pool: its meters, its hit history and its configuration history."""

    @extend_schema(responses=PoolDetailOutput)
    def get(self, request: Request, casino: str, pool: str) -> Response:
        found = _pool(self, casino, pool)
        found.regulator_hits = hit_list(found.casino_id, found.pool_id)  # type: ignore[attr-defined]
        found.regulator_configurations = [  # type: ignore[attr-defined]
            {"version": v.version, "event_type": v.event_type, "config": v.config,
             "changed": v.changed, "approved_on": v.approved_on,
             "approval_reference": v.approval_reference, "reason": v.reason,
             "effective_at": v.effective_at, "position": v.position}
            for v in pool_config_history(found.casino_id, found.pool_id)]
        return self.answer(PoolDetailOutput(found).data)


class PoolAsOfApi(RegulatorApi):
    """A pool's meters at an instant: the meter reading left by the last event before it, with
    its position."""

    params = frozenset({"at"})

    @extend_schema(parameters=[AT], responses=AsOfOutput)
    def get(self, request: Request, casino: str, pool: str) -> Response:
        found = _pool(self, casino, pool)
        at = _instant(request)
        readings = JackpotMeterReading.objects.filter(
            casino_id=found.casino_id, pool_id=found.pool_id, recorded_at__lt=at)
        last = readings.order_by("-version").first()
        if last is None:
            raise NotFound("pool {pool} had no meter yet at {at}",
                           params={"pool": pool, "at": at.isoformat()})
        meters = [name for name in METERS if hasattr(last, name)]
        figures = {name: str(getattr(last, name)) for name in meters}
        behind: dict[str, list[int]] = {}
        for name in meters:
            moved = (readings.exclude(**{name: getattr(last, name)})
                     .order_by("-version").values_list("position", flat=True).first())
            behind[name] = [p for p in (moved,) if p is not None]
        data = {"casino": found.casino_id, "at": at, "position": last.position,
                "events": readings.count(), "figures": figures, "behind": behind}
        return self.answer(data, len(figures))


# --- the ledger --------------------------------------------------------------------------------


PERIOD = [OpenApiParameter("from", dt.date, required=True),
          OpenApiParameter("to", dt.date, required=True)]


def _period(request: Request) -> tuple[dt.date, dt.date]:
    day_from = _day(request.query_params.get("from", ""), "from")
    day_to = _day(request.query_params.get("to", ""), "to")
    if day_to < day_from:
        raise InvalidCommand("the period ends before it starts", field="to")
    if (day_to - day_from).days > 366:
        raise InvalidCommand("ask for at most a year at a time", field="to")
    return day_from, day_to


class TrialBalanceOutput(serializers.Serializer[Any]):
    class Account(serializers.Serializer[Any]):
        code = serializers.CharField()
        name = serializers.CharField()
        kind = serializers.CharField()
        opening = _money()
        debit = _money()
        credit = _money()
        closing = _money()

    casino = serializers.CharField()
    currency = serializers.CharField()
    debit = serializers.CharField()
    credit = serializers.CharField()
    balanced = serializers.BooleanField()
    accounts = Account(many=True)


class TrialBalanceApi(RegulatorApi):
    params = frozenset({"from", "to"})

    @extend_schema(parameters=PERIOD, responses=TrialBalanceOutput)
    def get(self, request: Request, casino: str) -> Response:
        code = self.casino(casino).code
        day_from, day_to = _period(request)
        report = trial_balance(casino=code, day_from=day_from, day_to=day_to)
        accounts = TrialBalanceOutput.Account(report.rows, many=True).data
        return self.answer({"casino": code, "currency": report.currency,
                            "debit": str(report.debit), "credit": str(report.credit),
                            "balanced": report.balanced, "accounts": accounts}, len(accounts))


class BankClearingApi(RegulatorApi):
    """Clearing against the bank (docs/ledger.md § Clearing against the bank): the casino cheques
    not yet presented, their total beside what the ledger owes on 2785 (read at one instant),
    the card and cheque receipts outstanding on 1220, the cheques the bank paid and the batches
    it credited. A cheque names no patron."""

    @extend_schema(responses=BankClearingOutput)
    def get(self, request: Request, casino: str) -> Response:
        code = self.casino(casino).code
        data = BankClearingOutput(bank.clearing(casino=code)).data
        return self.answer(data, len(data["cheques_outstanding"]) + len(data["presented"])
                           + len(data["credited"]))


class GamingTaxOutput(serializers.Serializer[Any]):
    casino = serializers.CharField()
    currency = serializers.CharField()
    jurisdiction = serializers.CharField()
    months = serializers.JSONField(help_text="each month: revenue, its parts and each tax")


class GamingTaxApi(RegulatorApi):
    """The gaming-tax returns of a period, month by month."""

    params = frozenset({"from", "to"})

    @extend_schema(parameters=PERIOD, responses=GamingTaxOutput)
    def get(self, request: Request, casino: str) -> Response:
        code = self.casino(casino).code
        day_from, day_to = _period(request)
        data = gaming_tax_return(casino=code, day_from=day_from, day_to=day_to)
        return self.answer(data, len(data["months"]))


# --- the event stream and verification ------------------------------------------------------------


class EventListApi(RegulatorListApi):
    """The casino's events by position, with their hashes (docs/event-hash.md)."""

    filterset_class = filters.EventFilter
    pagination_class = cursor("position", size=1000, largest=5000)
    output = EventOutput
    model = StoredEvent

    def rows_of(self, casino: str) -> QuerySet[Any]:
        return StoredEvent.objects.filter(casino_id=self.casino(casino).code)

    def filter_queryset(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return super().filter_queryset(queryset).values(
            *EVENT_FIELDS, data_json=Cast("data", TextField()),
            metadata_json=Cast("metadata", TextField()))

    @extend_schema(responses=EventOutput(many=True))
    def get(self, request: Request, casino: str) -> HttpResponse:
        """A page written by orjson, the events' JSON passed through: a day of a casino is
        read in seconds (bench/bench_regulator.py)."""
        paginator = self.paginator
        assert isinstance(paginator, CursorPagination)
        page = paginator.paginate_queryset(self.filter_queryset(self.get_queryset()), request,
                                           view=self)
        assert page is not None
        self.rows = len(page)
        body = {"next": paginator.get_next_link(), "previous": paginator.get_previous_link(),
                "results": [_event_data(row) for row in page]}
        return HttpResponse(orjson.dumps(body), content_type="application/json")


class ChainOutput(serializers.Serializer[Any]):
    ok = serializers.BooleanField()
    first_position = serializers.IntegerField()
    last_position = serializers.IntegerField()
    first_sequence = serializers.IntegerField(help_text="the casino's first event checked, by "
                                                        "its number in the casino's chain")
    last_sequence = serializers.IntegerField(help_text="the casino's last event checked")
    checked = serializers.IntegerField(help_text="the casino's events checked")
    last_hash = serializers.CharField()
    bad_position = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)


class ChainVerifyApi(RegulatorApi):
    """The hash chain recomputed between two positions of this database (``from``, ``to``) or
    two of the casino's own numbers (``sequence_from``, ``sequence_to``: a seal's, the same in
    every cell), at most 100,000 events apart."""

    params = frozenset({"from", "to", "sequence_from", "sequence_to"})

    class Params(serializers.Serializer[Any]):
        from_ = serializers.IntegerField(min_value=1, required=False,
                                         help_text="the first position")
        to = serializers.IntegerField(min_value=1, required=False, help_text="the last position")
        sequence_from = serializers.IntegerField(
            min_value=1, required=False, help_text="instead of positions: the casino's first "
                                                   "event, by its number in its chain")
        sequence_to = serializers.IntegerField(min_value=1, required=False,
                                               help_text="and its last")

        def get_fields(self) -> dict[str, Any]:
            fields = super().get_fields()
            fields["from"] = fields.pop("from_")
            return fields

    @extend_schema(parameters=[Params], responses=ChainOutput)
    def get(self, request: Request, casino: str) -> Response:
        code = self.casino(casino).code
        given = request.query_params
        by, names = (("sequence", ("sequence_from", "sequence_to"))
                     if "sequence_from" in given or "sequence_to" in given
                     else ("position", ("from", "to")))
        if by == "sequence" and ("from" in given or "to" in given):
            raise InvalidCommand("give positions (from, to) or the casino's numbers "
                                 "(sequence_from, sequence_to), not both", field="sequence_from")
        bounds = []
        for name in names:
            value = given.get(name, "")
            if not value.isdigit() or int(value) < 1:
                raise InvalidCommand("{name}: a whole number, 1 or more",
                                     params={"name": name}, field=name)
            bounds.append(int(value))
        first, last = bounds
        if last < first or last - first >= 100_000:
            raise InvalidCommand("{first} must not be after {last}, and at most 100,000 apart",
                                 params={"first": names[0], "last": names[1]}, field=names[1])
        check = verification.chain_verify(casino=code, first=first, last=last, by=by)
        return self.answer({"ok": check.ok, "first_position": check.first_position,
                            "last_position": check.last_position,
                            "first_sequence": check.first_sequence,
                            "last_sequence": check.last_sequence, "checked": check.checked,
                            "last_hash": check.last_hash, "bad_position": check.bad_position,
                            "reason": check.reason}, check.checked)


class SealVerifyOutput(serializers.Serializer[Any]):
    casino = serializers.CharField()
    gaming_day = serializers.DateField()
    ok = serializers.BooleanField()
    problem = serializers.CharField(allow_blank=True)


class SealVerifyApi(RegulatorApi):
    """The day's seal checked: its event unchanged, the last event it covers with the hash it
    signed, and its signature the casino's key's."""

    @extend_schema(responses=SealVerifyOutput)
    def get(self, request: Request, casino: str, day: str) -> Response:
        code = self.casino(casino).code
        found = verification.seal_verify(casino=code, gaming_day=_day(day))
        return self.answer({"casino": code, "gaming_day": found.gaming_day, "ok": found.ok,
                            "problem": found.problem})


class GamingDayArchiveApi(RegulatorApi):
    """The sealed gaming day as one zip that ``tools/verify_events.py`` verifies alone, with no
    other day and no other casino: the casino's events the seal covers, the seal, the public
    key, the results, the close report, the regulator file and a manifest
    (``docs/event-hash.md`` § A day's archive)."""

    @extend_schema(responses={(200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY)})
    def get(self, request: Request, casino: str, day: str) -> FileResponse:
        code = self.casino(casino).code
        spool = tempfile.TemporaryFile()  # noqa: SIM115  (the response closes it once sent)
        try:
            name = verification.day_archive(casino=code, gaming_day=_day(day), out=spool)
        except BaseException:
            spool.close()
            raise
        spool.seek(0)
        response = FileResponse(spool, as_attachment=True, content_type="application/zip",
                                filename=name)
        self.rows = 1  # one archive, in the access log
        return response


class GamingDayRegulatorFileApi(RegulatorApi):
    """The sealed gaming day's regulator file: XML against ``reporting/xsd/regulator-day-1.xsd``
    (sessions, rounds, results, slips, drop, jackpots, the seal; ``docs/regulator-file.md``)."""

    @extend_schema(responses={(200, "application/xml"): OpenApiResponse(OpenApiTypes.BINARY)})
    def get(self, request: Request, casino: str, day: str) -> HttpResponse:
        code = self.casino(casino).code
        body, name = verification.day_regulator_file(casino=code, gaming_day=_day(day))
        response = HttpResponse(body, content_type="application/xml; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        self.rows = 1
        return response


# --- anti-money-laundering: what the law gives the regulator (docs/patrons.md) ---------------------

DAY = [OpenApiParameter("day", dt.date, required=True)]


class ComplianceDayOutput(serializers.Serializer[Any]):
    casino = serializers.CharField()
    gaming_day = serializers.DateField()
    rows = serializers.JSONField(help_text="by patron reference: no name, no document")


class LargeTransactionsApi(RegulatorApi):
    """The gaming day's large-transaction report (Macau: each cash movement of MOP 500,000 or
    more), the patron by reference."""

    params = frozenset({"day"})

    @extend_schema(parameters=DAY, responses=ComplianceDayOutput)
    def get(self, request: Request, casino: str) -> Response:
        code, day = self.casino(casino).code, _day(request.query_params.get("day", ""))
        rows = compliance.large_transactions(code, day)
        return self.answer({"casino": code, "gaming_day": day, "rows": rows}, len(rows))


class IdentificationsApi(RegulatorApi):
    """The patrons identified who moved money in the gaming day, with their sums, by
    reference."""

    params = frozenset({"day"})

    @extend_schema(parameters=DAY, responses=ComplianceDayOutput)
    def get(self, request: Request, casino: str) -> Response:
        code, day = self.casino(casino).code, _day(request.query_params.get("day", ""))
        rows = [vars(i) for i in compliance.identifications(code, day)]
        return self.answer({"casino": code, "gaming_day": day, "rows": rows}, len(rows))


class ReportsSentOutput(serializers.Serializer[Any]):
    casino = serializers.CharField()
    rows = serializers.JSONField(help_text="reference, day and grounds; never the narrative")


class ReportsSentApi(RegulatorApi):
    """The suspicious-transaction reports the casino sent: their reference, day and grounds,
    never the narrative."""

    params = frozenset({"day"})

    @extend_schema(parameters=[OpenApiParameter("day", dt.date)], responses=ReportsSentOutput)
    def get(self, request: Request, casino: str) -> Response:
        code = self.casino(casino).code
        day = request.query_params.get("day")
        rows = compliance.reports_sent(code, day=_day(day) if day else None)
        return self.answer({"casino": code, "rows": rows}, len(rows))


# --- the access log ------------------------------------------------------------------------------


class AccessLogOutput(serializers.ModelSerializer[AccessLogEntry]):
    class Meta:
        model = AccessLogEntry
        fields = ["id", "at", "username", "token_key", "method", "path", "query", "status",
                  "rows"]


class AccessLogApi(RegulatorListApi):
    """Every request to this API by your jurisdiction's inspectors, newest first."""

    filterset_class = filters.AccessLogFilter
    pagination_class = cursor("-id")
    output = AccessLogOutput

    def rows_of(self) -> QuerySet[AccessLogEntry]:
        return AccessLogEntry.objects.filter(jurisdiction=self.jurisdiction())

    @extend_schema(responses=AccessLogOutput(many=True))
    def get(self, request: Request) -> Response:
        return self.list()


