"""The pit API: one view per operation, thin, calling one service or selector.

Commands take an ``Idempotency-Key`` header (a retry answers as at first and records nothing) and
need the pit boss role in the casino the table belongs to; reads are open to the pit boss, the
accountant, the regulator and the administrator. Every refusal has the one error shape
(``edge.api.errors``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import InvalidCommand, NotAllowed, gettext_noop
from casino.selectors import casino_codes_for
from edge.api.base import CommandApi, remember_roles
from edge.bounds import MAX_PLAYER, MAX_SEAT
from eventstore.records import Metadata
from games import answers, selectors, services
from games.roles import CAPITAL_ROLES, COMMAND_ROLES, COUNTER_ROLES, READ_ROLES

DROP_COUNT_AT_CLOSE = gettext_noop("drop_count: the drop box is no longer counted at the close; two "
                                   "counters count it in the count room (POST …/drop-box/count/)")


@extend_schema_field({"type": "string", "pattern": r"^[0-9]+(\.[0-9]{1,2})?$", "example": "10.50"})
class AmountField(serializers.Field):  # type: ignore[type-arg]
    """An amount as a string ("10.50"): a JSON number is refused (a float is never money)."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            raise serializers.ValidationError('write the amount as a string, such as "10.50"')
        return data

    def to_representation(self, value: object) -> str:
        return str(value)


def _reader(request: Request, casino: str) -> None:
    if casino not in casino_codes_for(request.user, *READ_ROLES):
        raise NotAllowed("you may not read the pit of casino {casino!r}",
                         params={"casino": casino})


def _session_casino(request: Request, session_id: str) -> str:
    casino, roles = selectors.session_casino(session_id=session_id,
                                             user_id=_user_id(request))
    remember_roles(request, casino, roles)
    return casino


def _round_casino(request: Request, round_id: str) -> str:
    casino, roles = selectors.round_casino(round_id=round_id, user_id=_user_id(request))
    remember_roles(request, casino, roles)
    return casino


def _user_id(request: Request) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


# --- reads --------------------------------------------------------------------------------------


class TableJackpotOutput(serializers.Serializer[Any]):
    pool_id = serializers.CharField()
    config_version = serializers.IntegerField()
    jackpot = serializers.JSONField(help_text="the options.jackpot the next round opens with")


class TableOutput(serializers.Serializer[Any]):
    code = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField()
    options = serializers.JSONField()
    seats = serializers.IntegerField()
    chip_set = serializers.CharField()
    currency = serializers.CharField(
        help_text="the currency the table plays in (docs/currencies.md); empty: the casino's "
                  "book currency")
    limits = serializers.JSONField()
    max_prize_per_coup = serializers.DecimalField(max_digits=14, decimal_places=2,
                                                  allow_null=True)
    jackpot = serializers.SerializerMethodField(
        help_text="derived from the pool the table feeds (null: none); never typed")
    open_session_id = serializers.UUIDField(allow_null=True)
    last_closing = serializers.JSONField(allow_null=True)
    version = serializers.IntegerField()

    @extend_schema_field(TableJackpotOutput(allow_null=True))
    def get_jackpot(self, table: Any) -> dict[str, Any] | None:
        jackpots = self.context.get("jackpots")
        if jackpots is None:
            return selectors.table_jackpot(casino=table.casino_id, code=table.code)
        found: dict[str, Any] | None = jackpots.get(table.code)
        return found


class TableListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()

    @extend_schema(parameters=[OpenApiParameter("casino", str, required=True)],
                   responses=TableOutput(many=True))
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        casino = params.validated_data["casino"]
        _reader(request, casino)
        return Response(TableOutput(selectors.table_list(casino=casino), many=True,
                                    context={"jackpots": selectors.table_jackpots(casino=casino)}
                                    ).data)


class TableDetailApi(APIView):
    """A table; ``jackpot`` is derived from the pool it feeds (null: none), never typed."""

    @extend_schema(responses=TableOutput)
    def get(self, request: Request, casino: str, code: str) -> Response:
        _reader(request, casino)
        return Response(TableOutput(selectors.table_get(casino=casino, code=code)).data)


class SessionOutput(serializers.Serializer[Any]):
    session_id = serializers.UUIDField()
    casino = serializers.CharField(source="casino_id")
    table = serializers.CharField()
    game = serializers.CharField()
    gaming_day = serializers.DateField()
    currency = serializers.CharField(
        help_text="a table in another currency: the session's amounts are in it (empty: the "
                  "book currency)")
    rate = serializers.DecimalField(
        max_digits=14, decimal_places=6, allow_null=True,
        help_text="the exchange's middle rate the ledger books the session at (book currency "
                  "per unit); null: the book currency")
    status = serializers.CharField()
    opened_at = serializers.DateTimeField()
    opened_by = serializers.CharField()
    closed_at = serializers.DateTimeField(allow_null=True)
    opening = serializers.JSONField()
    opening_amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    roll_difference = serializers.JSONField()
    float_chips = serializers.JSONField()
    fills_amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    credits_amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    drop_recorded = serializers.DecimalField(max_digits=14, decimal_places=2)
    drop_counted = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    drop = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    drop_basis = serializers.CharField()
    closing = serializers.JSONField(allow_null=True)
    closing_amount = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    handle = serializers.DecimalField(max_digits=14, decimal_places=2)
    round_result = serializers.DecimalField(max_digits=14, decimal_places=2)
    table_win = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    variance = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    hold_percent = serializers.DecimalField(max_digits=24, decimal_places=4, allow_null=True)
    win_handle_percent = serializers.DecimalField(max_digits=24, decimal_places=4,
                                                  allow_null=True)
    rounds = serializers.IntegerField()
    rounds_voided = serializers.IntegerField()
    current_round_id = serializers.UUIDField(allow_null=True)
    pending_bets = serializers.JSONField()
    craps_point = serializers.IntegerField(allow_null=True)
    colour_chips = serializers.JSONField()
    late_amount = serializers.DecimalField(max_digits=14, decimal_places=2,
                                           help_text="table win moved after the close")
    late_changes = serializers.IntegerField()
    variance_approved = serializers.DecimalField(max_digits=14, decimal_places=2,
                                                 allow_null=True)
    variance_approved_by = serializers.CharField()
    variance_approval_id = serializers.UUIDField(allow_null=True)
    version = serializers.IntegerField()


class TableSessionListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()
        table = serializers.CharField(required=False)
        gaming_day = serializers.DateField(required=False)
        status = serializers.ChoiceField(choices=["open", "closed"], required=False)

    @extend_schema(parameters=[FilterSerializer], responses=SessionOutput(many=True))
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        _reader(request, params.validated_data["casino"])
        sessions = selectors.table_session_list(**params.validated_data)[:500]
        return Response(SessionOutput(sessions, many=True).data)


class TableSessionDetailApi(APIView):
    @extend_schema(responses=SessionOutput)
    def get(self, request: Request, session_id: str) -> Response:
        session = selectors.table_session_get(session_id=session_id)
        _reader(request, session.casino_id)
        data = dict(SessionOutput(session).data)
        data["hold_check"] = _strings(selectors.session_hold_check(session))
        return Response(data)


def _strings(value: Any) -> Any:
    """Decimals as strings, as everywhere in the API (never JSON numbers)."""
    if isinstance(value, dict):
        return {k: _strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_strings(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    return value


class BetOutput(serializers.Serializer[Any]):
    bet_id = serializers.CharField()
    seat = serializers.IntegerField()
    player = serializers.CharField()
    bet_type = serializers.CharField()
    bet = serializers.JSONField()
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    stage = serializers.CharField()
    carried_from = serializers.UUIDField(allow_null=True)
    withdrawn = serializers.BooleanField()
    status = serializers.CharField()
    win = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    returned = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    point = serializers.IntegerField(allow_null=True)


class JackpotBetOutput(serializers.Serializer[Any]):
    bet_id = serializers.CharField()
    seat = serializers.IntegerField()
    player = serializers.CharField()
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    pool_id = serializers.CharField()
    status = serializers.CharField(help_text="placed, returned, void, won, lost")
    combination = serializers.CharField()
    prize = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)


class RoundOutput(serializers.Serializer[Any]):
    round_id = serializers.UUIDField()
    session_id = serializers.UUIDField()
    table = serializers.CharField()
    game = serializers.CharField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    point = serializers.IntegerField(allow_null=True)
    play = serializers.JSONField()
    outcome = serializers.JSONField(allow_null=True)
    handle = serializers.DecimalField(max_digits=14, decimal_places=2)
    result = serializers.DecimalField(max_digits=14, decimal_places=2)
    prizes = serializers.DecimalField(max_digits=14, decimal_places=2)
    jackpot_amount = serializers.DecimalField(max_digits=14, decimal_places=2,
                                              help_text="jackpot chips (not in the handle)")
    jackpot_prizes = serializers.DecimalField(max_digits=14, decimal_places=2)
    void_reason = serializers.CharField()
    void_reason_code = serializers.CharField()
    void_approval_id = serializers.UUIDField(allow_null=True)
    void_requested_by = serializers.CharField()
    voided_by = serializers.CharField()
    corrections = serializers.IntegerField()
    version = serializers.IntegerField()


class RoundListApi(APIView):
    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, session_id: str) -> Response:
        _reader(request, _session_casino(request, session_id))
        return Response(RoundOutput(selectors.round_list(session_id=session_id), many=True).data)


class RoundDetailApi(APIView):
    @extend_schema(responses=RoundOutput)
    def get(self, request: Request, round_id: str) -> Response:
        the_round = selectors.round_get(round_id=round_id)
        _reader(request, the_round.casino_id)
        data = dict(RoundOutput(the_round).data)
        data["bets"] = BetOutput(selectors.bet_list(round_id=round_id), many=True).data
        data["jackpot_bets"] = JackpotBetOutput(selectors.jackpot_bet_list(round_id=round_id),
                                                many=True).data
        return Response(data)


class ReplayLineOutput(serializers.Serializer[Any]):
    status = serializers.CharField()
    stake = serializers.CharField()
    win = serializers.CharField()


class ReplayBetOutput(serializers.Serializer[Any]):
    bet_id = serializers.CharField()
    recorded = ReplayLineOutput(help_text="as settled when the round was played")
    replayed = ReplayLineOutput(help_text="as the rules engine settles it now")
    matches = serializers.BooleanField()


class RoundReplayApi(APIView):
    """Settle the round again with the rules engine and compare with its recorded settlements."""

    class OutputSerializer(serializers.Serializer[Any]):
        round_id = serializers.CharField()
        game = serializers.CharField()
        status = serializers.CharField()
        bets = ReplayBetOutput(many=True)
        matches = serializers.BooleanField(allow_null=True,
                                           help_text="null: the round is not settled")
        reason = serializers.CharField(required=False,
                                       help_text="why nothing was compared, when nothing was")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, round_id: str) -> Response:
        from games.replay import round_replay

        the_round = selectors.round_get(round_id=round_id)
        _reader(request, the_round.casino_id)
        return Response(round_replay(round_id=round_id))


class SlipOutput(serializers.Serializer[Any]):
    kind = serializers.CharField()
    number = serializers.CharField()
    session_id = serializers.UUIDField()
    table = serializers.CharField()
    chips = serializers.JSONField()
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    status = serializers.CharField()
    shift_id = serializers.CharField(allow_null=True)


class SlipFilter(serializers.Serializer[Any]):
    casino = serializers.CharField()
    kind = serializers.ChoiceField(choices=["fill", "credit"], required=False)


class SlipListApi(APIView):
    @extend_schema(parameters=[SlipFilter], responses=SlipOutput(many=True))
    def get(self, request: Request) -> Response:
        params = SlipFilter(data=request.query_params)
        params.is_valid(raise_exception=True)
        _reader(request, params.validated_data["casino"])
        return Response(SlipOutput(selectors.slip_list(**params.validated_data), many=True).data)


class SlipMissingApi(APIView):
    """Slip numbers missing between the first and the last used, per series."""

    class SeriesOutput(serializers.Serializer[Any]):
        series = serializers.CharField(help_text="the numbers' prefix")
        first = serializers.CharField()
        last = serializers.CharField()
        missing = serializers.ListField(child=serializers.CharField())

    @extend_schema(parameters=[SlipFilter], responses=inline_serializer(
        "SlipMissingOutput", {"fill": SeriesOutput(many=True, required=False),
                              "credit": SeriesOutput(many=True, required=False)}))
    def get(self, request: Request) -> Response:
        params = SlipFilter(data=request.query_params)
        params.is_valid(raise_exception=True)
        casino = params.validated_data["casino"]
        _reader(request, casino)
        kinds = [params.validated_data["kind"]] if "kind" in params.validated_data else [
            "fill", "credit"]
        return Response({kind: selectors.slip_missing_numbers(casino=casino, kind=kind)
                         for kind in kinds})


class SessionVarianceListApi(APIView):
    """Each closed session of a gaming day with its table variance and its approval's state
    (``none``, ``awaiting_approval``, ``requested``, ``approved``: docs/approvals.md). A variance
    is asked for and approved through ``/api/v1/approvals/`` (kind ``table_variance``)."""

    class FilterSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()
        gaming_day = serializers.DateField()

    class OutputSerializer(serializers.Serializer[Any]):
        session_id = serializers.UUIDField()
        table = serializers.CharField()
        game = serializers.CharField()
        gaming_day = serializers.DateField()
        table_win = serializers.DecimalField(max_digits=14, decimal_places=2)
        round_result = serializers.DecimalField(max_digits=14, decimal_places=2)
        variance = serializers.DecimalField(max_digits=14, decimal_places=2)
        state = serializers.CharField()
        approval_id = serializers.UUIDField(allow_null=True)
        requested_by = serializers.CharField()
        approved_by = serializers.CharField()
        late_amount = serializers.DecimalField(max_digits=14, decimal_places=2)

    @extend_schema(parameters=[FilterSerializer], responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        casino = params.validated_data["casino"]
        _reader(request, casino)
        rows = selectors.session_variances(casino=casino,
                                           gaming_day=params.validated_data["gaming_day"])
        return Response(self.OutputSerializer(rows, many=True).data)


class GamingDayResultApi(APIView):
    """Results of the gaming days by table, or by game (``by=game``)."""

    class FilterSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()
        gaming_day = serializers.DateField(required=False)
        by = serializers.ChoiceField(choices=["table", "game"], default="table")

    class OutputSerializer(serializers.Serializer[Any]):
        """Amounts as strings; ``table`` and the opening, closing and late amounts by table,
        ``tables`` by game."""

        gaming_day = serializers.CharField()
        table = serializers.CharField(required=False)
        game = serializers.CharField()
        tables = serializers.CharField(required=False)
        sessions = serializers.CharField()
        rounds = serializers.CharField()
        opening_amount = serializers.CharField(required=False, allow_null=True)
        closing_amount = serializers.CharField(required=False, allow_null=True)
        fills = serializers.CharField(allow_null=True)
        credits = serializers.CharField(allow_null=True)
        drop = serializers.CharField(allow_null=True)
        handle = serializers.CharField(allow_null=True)
        round_result = serializers.CharField(allow_null=True)
        table_win = serializers.CharField(allow_null=True)
        late_amount = serializers.CharField(required=False, allow_null=True)

    @extend_schema(parameters=[FilterSerializer], responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        casino = params.validated_data["casino"]
        _reader(request, casino)
        day = params.validated_data.get("gaming_day")
        if params.validated_data["by"] == "game":
            rows = selectors.gaming_day_by_game(casino=casino, gaming_day=day)
        else:
            rows = [dict(row) for row in selectors.gaming_day_by_table(
                casino=casino, gaming_day=day).values(
                "gaming_day", "table", "game", "sessions", "rounds", "opening_amount",
                "closing_amount", "fills", "credits", "drop", "handle", "round_result",
                "table_win", "late_amount")]
        return Response([{k: str(v) if v is not None else None for k, v in row.items()}
                         for row in rows])


# --- commands -----------------------------------------------------------------------------------
# The pit's commands: ``edge.api.base.CommandApi``, as the cage's, with the pit boss's role.
# The casino is the one of the table, session or round the URL names; a change to what exists
# answers 200, what records something new 201.


class PitCommandApi(CommandApi):
    roles: ClassVar[tuple[str, ...]] = COMMAND_ROLES


class SessionCommandApi(PitCommandApi):
    """A command on the session the URL names (``session_id``), in that session's casino."""

    def casino(self, request: Request, **kwargs: Any) -> str:
        return _session_casino(request, kwargs["session_id"])


class RoundCommandApi(PitCommandApi):
    """A command on the round the URL names (``round_id``), in that round's casino."""

    def casino(self, request: Request, **kwargs: Any) -> str:
        return _round_casino(request, kwargs["round_id"])


# --- commands: sessions -------------------------------------------------------------------------


class TableSessionOpenApi(PitCommandApi):
    class InputSerializer(serializers.Serializer[Any]):
        opening = serializers.DictField(child=serializers.IntegerField(min_value=0),
                                        required=False, allow_null=True,
                                        help_text="pieces by denomination; omit to roll over")
        rate = serializers.CharField(
            required=False, allow_blank=True,
            help_text="a table in a foreign currency: the rate to book the session at (book "
                      "currency per unit); omit for the exchange's middle rate in force. Beyond "
                      "the currency's band from the last posted rate it is refused: ask for a "
                      "session_rate approval")

    answer = answers.SessionOpenAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.table_session_open(casino=metadata.casino, table=kwargs["code"],
                                           opening=data.get("opening"), metadata=metadata,
                                           rate=data.get("rate") or None)


class TableCapitalApproveApi(PitCommandApi):
    """The table's capital em giro inicial as the gaming inspection approved it, with the
    approval's reference (the IEJ's least base from then on: docs/gaming-tax.md)."""

    roles = CAPITAL_ROLES
    answer = answers.TableAnswer

    class InputSerializer(serializers.Serializer[Any]):
        capital = serializers.CharField(max_length=32, help_text="the amount approved, e.g. 75340.00")
        reference = serializers.CharField(max_length=200,
                                          help_text="the inspection's act, letter or order")
        reason = serializers.CharField(max_length=500, required=False, allow_blank=True)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.table_approve_capital(casino=metadata.casino, code=kwargs["code"],
                                              metadata=metadata, **data)


class TableSessionCloseApi(SessionCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        closing = serializers.DictField(child=serializers.IntegerField(min_value=0))

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "drop_count" in self.initial_data:
                raise InvalidCommand(DROP_COUNT_AT_CLOSE, field="drop_count")
            return attrs

    answer = answers.SessionCloseAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.table_session_close(session_id=kwargs["session_id"],
                                            closing=data["closing"], metadata=metadata)


# --- commands: the count room (cashiers and cage supervisors) -----------------------------------


class DropBoxCountApi(SessionCommandApi):
    """The first counter records the count of a closed session's drop box; ``confirm/``: the
    second counter counts it too and confirms it."""

    roles = COUNTER_ROLES

    class InputSerializer(serializers.Serializer[Any]):
        cash = serializers.DictField(child=serializers.IntegerField(min_value=0),
                                     help_text="notes and coins by denomination ({} if empty)")

    answer: ClassVar[type | None] = answers.DropBoxCountAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.drop_box_count(session_id=kwargs["session_id"], cash=data["cash"],
                                       metadata=metadata)


class DropBoxConfirmApi(DropBoxCountApi):
    """The second counter counts a drop box too and confirms it: the session's drop, win and
    hold are known now."""

    created = False

    answer = answers.DropBoxConfirmAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.drop_box_count_confirm(session_id=kwargs["session_id"],
                                               cash=data["cash"], metadata=metadata)


class DropBoxOutput(serializers.Serializer[Any]):
    session_id = serializers.CharField()
    table = serializers.CharField()
    gaming_day = serializers.DateField()
    status = serializers.CharField()
    count_number = serializers.IntegerField()
    cash = serializers.DictField(child=serializers.IntegerField())
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    counted_by = serializers.CharField()
    confirmed_by = serializers.CharField()
    received_amount = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    received_by = serializers.CharField()
    window = serializers.CharField()
    variance_value = serializers.DecimalField(max_digits=14, decimal_places=2)
    variance_cash = serializers.DictField(child=serializers.IntegerField())
    variance_approval_id = serializers.UUIDField(allow_null=True)
    variance_approved_by = serializers.CharField()


class DropBoxListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()
        gaming_day = serializers.DateField(required=False)

    @extend_schema(parameters=[FilterSerializer], responses=DropBoxOutput(many=True))
    def get(self, request: Request) -> Response:
        f = self.FilterSerializer(data=request.query_params)
        f.is_valid(raise_exception=True)
        casino = f.validated_data["casino"]
        if casino not in casino_codes_for(request.user, *READ_ROLES, *COUNTER_ROLES):
            raise NotAllowed("you may not read the count room of casino {casino!r}",
                             params={"casino": casino})
        boxes = selectors.drop_box_list(casino=casino,
                                        gaming_day=f.validated_data.get("gaming_day"))
        return Response(DropBoxOutput(boxes, many=True).data)


class SlipInput(serializers.Serializer[Any]):
    slip = serializers.CharField(max_length=32)
    chips = serializers.DictField(child=serializers.IntegerField(min_value=0))


class FillRequestApi(SessionCommandApi):
    class InputSerializer(SlipInput):
        pass

    answer = answers.SlipRequestAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.fill_request(session_id=kwargs["session_id"], slip=data["slip"],
                                     chips=data["chips"], metadata=metadata)


class CreditRequestApi(SessionCommandApi):
    class InputSerializer(SlipInput):
        pass

    answer = answers.SlipRequestAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.credit_request(session_id=kwargs["session_id"], slip=data["slip"],
                                       chips=data["chips"], metadata=metadata)


class SlipVoidApi(PitCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        reason = serializers.CharField()

    answer = answers.SlipVoidAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.slip_void(casino=metadata.casino, kind=kwargs["kind"],
                                  slip=kwargs["number"], reason=data["reason"],
                                  metadata=metadata)


class DropRecordApi(SessionCommandApi):
    class InputSerializer(serializers.Serializer[Any]):
        amount = AmountField()
        seat = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                        max_value=MAX_SEAT)
        player = serializers.CharField(required=False, allow_blank=True, default="",
                                       max_length=MAX_PLAYER)
        patron = serializers.CharField(required=False, allow_blank=True, default="",
                                       help_text="the identified patron's id (at the "
                                                 "anti-money-laundering threshold)")

    answer = answers.DropRecordAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.drop_record(session_id=kwargs["session_id"], amount=data["amount"],
                                    seat=data.get("seat"), player=data["player"],
                                    patron=data["patron"], metadata=metadata)


class ColourChipsIssueApi(SessionCommandApi):
    class InputSerializer(serializers.Serializer[Any]):
        colour = serializers.CharField(max_length=32)
        player = serializers.CharField(max_length=100)
        chip_value = AmountField()
        chips = serializers.IntegerField(min_value=1)
        paid_with = serializers.ChoiceField(choices=["chips", "cash"], default="chips")
        patron = serializers.CharField(required=False, allow_blank=True, default="",
                                       help_text="paid in cash: the identified patron's id (at "
                                                 "the anti-money-laundering threshold)")

    answer = answers.ColourChipsIssueAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.colour_chips_issue(session_id=kwargs["session_id"], metadata=metadata,
                                           **data)


class ColourChipsExchangeApi(SessionCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        colour = serializers.CharField(max_length=32)
        chips = serializers.IntegerField(min_value=1)
        late = serializers.BooleanField(default=False)

    answer = answers.ColourChipsExchangeAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.colour_chips_exchange(session_id=kwargs["session_id"],
                                              metadata=metadata, **data)


# --- commands: rounds ---------------------------------------------------------------------------

_BETS_HELP = ('bets: [{"seat": 1, "player": "seat-1", "type": "straight", "numbers": [17], '
              '"amount": "10.00"}]: the seat, the player, the engine\'s bet fields')


class RoundOpenApi(SessionCommandApi):
    class InputSerializer(serializers.Serializer[Any]):
        bets = serializers.ListField(child=serializers.DictField(), default=list,
                                     help_text=_BETS_HELP)

    answer = answers.RoundOpenAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.round_open(session_id=kwargs["session_id"], bets=data["bets"],
                                   metadata=metadata)


_JACKPOT_HELP = ('jackpot bets: [{"seat": 1, "player": "seat-1", "amount": "1.00"}]: one chip of '
                 "exactly the pool's bet per player, on the seat of that player's main bet")


class RoundRecordApi(SessionCommandApi):
    """A whole round in one command (an electronic table): bets, jackpot chips, outcome,
    settlement, and the pool's coup."""

    class InputSerializer(serializers.Serializer[Any]):
        bets = serializers.ListField(child=serializers.DictField(), help_text=_BETS_HELP)
        outcome = serializers.DictField()
        jackpot_bets = serializers.ListField(child=serializers.DictField(), required=False,
                                             help_text=_JACKPOT_HELP)

    answer = answers.RoundRecordAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        extra = {"jackpot_bets": data["jackpot_bets"]} if data.get("jackpot_bets") else {}
        return services.round_record(session_id=kwargs["session_id"], bets=data["bets"],
                                     outcome=data["outcome"], metadata=metadata, **extra)


class BetPlaceApi(RoundCommandApi):
    class InputSerializer(serializers.Serializer[Any]):
        bets = serializers.ListField(child=serializers.DictField(), min_length=1,
                                     help_text=_BETS_HELP)

    answer = answers.BetPlaceAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.bet_place(round_id=kwargs["round_id"], bets=data["bets"],
                                  metadata=metadata)


class JackpotBetPlaceApi(RoundCommandApi):
    """Jackpot chips (apostas no acumulado), before «jogo feito, nada mais» (BJ n.º 48,
    SP n.º 16)."""

    class InputSerializer(serializers.Serializer[Any]):
        bets = serializers.ListField(child=serializers.DictField(), min_length=1,
                                     help_text=_JACKPOT_HELP)

    answer = answers.JackpotBetPlaceAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.jackpot_bet_place(round_id=kwargs["round_id"], bets=data["bets"],
                                          metadata=metadata)


class BetWithdrawApi(RoundCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        reason = serializers.CharField(required=False, allow_blank=True, default="")

    answer = answers.BetWithdrawAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.bet_withdraw(round_id=kwargs["round_id"], bet_id=kwargs["bet_id"],
                                     reason=data["reason"], metadata=metadata)


class RoundCloseBettingApi(RoundCommandApi):
    """«Jogo feito. Nada mais.»"""

    created = False

    answer = answers.RoundStatusAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.round_close_betting(round_id=kwargs["round_id"], metadata=metadata)


class DealRecordApi(RoundCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        upcard = serializers.CharField(max_length=2)
        seats = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))

    answer = answers.DealRecordAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.deal_record(round_id=kwargs["round_id"], upcard=data["upcard"],
                                    seats=data["seats"], metadata=metadata)


class DecisionRecordApi(RoundCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        seat = serializers.IntegerField(min_value=1, max_value=MAX_SEAT)
        hand = serializers.IntegerField(min_value=1, default=1)
        decision = serializers.CharField(max_length=16)
        cards = serializers.ListField(child=serializers.CharField(max_length=2), default=list)
        bet_id = serializers.CharField(required=False, allow_null=True, default=None)
        amount = AmountField(required=False, allow_null=True, default=None)
        followers = serializers.ListField(child=serializers.CharField(), default=list)

    answer = answers.DecisionRecordAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.decision_record(round_id=kwargs["round_id"], metadata=metadata, **data)


class OutcomeRecordApi(RoundCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        outcome = serializers.DictField(help_text="the game's own form: {\"number\": 17}, "
                                                  "{\"dice\": [3, 4]} ...")

    answer = answers.RoundStatusAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.outcome_record(round_id=kwargs["round_id"], outcome=data["outcome"],
                                       metadata=metadata)


class RoundSettleApi(RoundCommandApi):
    created = False

    answer = answers.RoundSettleAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.round_settle(round_id=kwargs["round_id"], metadata=metadata)


class RoundVoidApi(RoundCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        reason = serializers.CharField()

    answer = answers.RoundVoidAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.round_void(round_id=kwargs["round_id"], reason=data["reason"],
                                   metadata=metadata)


class RoundCorrectApi(RoundCommandApi):
    created = False

    class InputSerializer(serializers.Serializer[Any]):
        outcome = serializers.DictField()
        reason = serializers.CharField()

    answer = answers.RoundCorrectAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return services.round_correct(round_id=kwargs["round_id"], outcome=data["outcome"],
                                      reason=data["reason"], metadata=metadata)
