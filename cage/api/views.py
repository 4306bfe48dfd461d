"""The cage API: commands (cashier and cage supervisor) and reads, one class per operation.

Every command names the roles that may call it; the casino is in the URL; an
``Idempotency-Key`` header makes a retry return the first answer and record nothing new. Input
serializers check shape only: amounts and counts are read by the services (``casino.money``),
which refuse floats, three decimals, negative figures and unknown denominations in one error
shape (``edge.api.errors``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cage.roles import CAGE_ROLES, READ_ROLES, SEES_EXPECTED, SUPERVISOR_ROLES
from casino.errors import NotAllowed
from casino.models import Role
from casino.money import ZERO, fmt
from casino.selectors import roles_in
from edge.api.base import CommandApi, acting_role
from edge.api.fields import AmountField
from edge.api.schema import answer_serializer
from eventstore.records import Metadata
from jackpots.services import PrizePayAnswer, jackpot_prize_pay  # the one path of a payment

from .. import answers, circulation, reports, selectors
from .. import services as cage
from ..models import OpeningDispute, Shift, ShiftStatus
from ..services.transactions import PAYOUT_PAYMENTS, SALE_PAYMENTS

CONFIGURE_ROLES = (Role.CAGE_SUPERVISOR, Role.ADMINISTRATOR)


@extend_schema_field({"type": "string", "example": "125.00"})
class RawField(serializers.Field):  # type: ignore[type-arg]
    """A value handed to the service as sent (amounts, counts): the service reads it."""

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field({"type": "object", "example": {"100.00": 3, "20.00": 5},
                     "description": "pieces by denomination; for several chip sets, "
                                    '{"<chip set>": {"25.00": 40}}'})
class CountsField(RawField):
    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                'a count maps each denomination to pieces, such as {"20.00": 5}')
        return data


PATRON_HELP = ("the identified patron's id (POST /api/v1/compliance/<casino>/patrons/, or found by "
               "their document): required at the anti-money-laundering threshold")


# --- commands ----------------------------------------------------------------------------------


# The cage's commands: ``edge.api.base.CommandApi`` with the cage's roles. (Its docstring is
# what the schema shows for the commands that have none of their own.)
class CageCommandApi(CommandApi):
    """Base of the command APIs: input, role and metadata, then one service call."""

    roles: ClassVar[tuple[str, ...]] = CAGE_ROLES


class CageConfigureApi(CageCommandApi):
    roles = CONFIGURE_ROLES
    answer = answers.CageConfigureAnswer

    class InputSerializer(serializers.Serializer[Any]):
        code = serializers.CharField(max_length=64)
        name = serializers.CharField(max_length=200)
        kind = serializers.CharField(max_length=16)
        minimum_cash = AmountField(allow_zero=True, required=False, default=ZERO)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.cage_configure(metadata=metadata, **data)


class CageMinimumCashChangeApi(CageCommandApi):
    roles = CONFIGURE_ROLES
    answer = answers.MinimumCashChangeAnswer

    class InputSerializer(serializers.Serializer[Any]):
        minimum_cash = AmountField(allow_zero=True)
        reason = serializers.CharField()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.cage_minimum_cash_change(code=kwargs["code"], metadata=metadata, **data)


class ShiftOpenApi(CageCommandApi):
    answer = answers.ShiftOpenAnswer
    class InputSerializer(serializers.Serializer[Any]):
        cage = serializers.CharField(max_length=64)
        accept_previous = serializers.CharField(required=False, allow_blank=True)
        cash = CountsField(required=False)
        chips = CountsField(required=False)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.shift_open(metadata=metadata, **data)


class ShiftOpeningDisputeApi(CageCommandApi):
    """Dispute the previous closing count of a cage: your own full count and why."""

    answer = answers.OpeningDisputeAnswer
    class InputSerializer(serializers.Serializer[Any]):
        previous_shift = serializers.CharField(max_length=64)
        cash = CountsField()
        chips = CountsField(required=False)
        reason = serializers.CharField()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.shift_opening_dispute(cage=kwargs["code"], metadata=metadata, **data)


class ShiftOpeningDisputeResolveApi(CageCommandApi):
    """A cage supervisor who did not dispute chooses the count a disputed shift opens on."""

    roles = SUPERVISOR_ROLES
    answer = answers.OpeningDisputeResolveAnswer

    class InputSerializer(serializers.Serializer[Any]):
        accept = serializers.CharField(help_text="previous_count or disputed_count")
        note = serializers.CharField()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.shift_opening_dispute_resolve(shift_id=kwargs["shift"], metadata=metadata,
                                                  **data)


SALE_PAYMENT_HELP = ("cash (the default), card, or cheque (the player's own): by card or cheque "
                     "no cash comes in (leave cash and change out)")
PAYOUT_PAYMENT_HELP = ("cash (the default) or casino_cheque: the whole payment by the casino "
                       "cheque cheque_number, to the identified patron (docs/cage.md)")
MARK_HELP = ("the cashier's mark for one unidentified player (the pit's pseudonym, P- and 4 to 16 "
             "hexadecimal digits such as P-7f3a, never a name): movements with one mark are linked as one patron's toward the "
             "identification threshold (docs/patrons.md)")
CHEQUE_HELP = "the number printed on the casino cheque (each number used once)"


class ChipsSellApi(CageCommandApi):
    answer = answers.ChipsSellAnswer
    class InputSerializer(serializers.Serializer[Any]):
        amount = AmountField()
        chip_set = serializers.CharField(required=False)
        chips = CountsField()
        cash = CountsField(required=False)
        change = CountsField(required=False)
        patron = serializers.CharField(required=False, allow_blank=True,
                                       help_text=PATRON_HELP)
        payment = serializers.ChoiceField(choices=SALE_PAYMENTS, required=False,
                                          help_text=SALE_PAYMENT_HELP)
        mark = serializers.CharField(required=False, allow_blank=True, max_length=100,
                                     help_text=MARK_HELP)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.chips_sell(shift_id=kwargs["shift"], metadata=metadata, **data)


class ChipsRedeemApi(CageCommandApi):
    answer = answers.ChipsRedeemAnswer
    class InputSerializer(serializers.Serializer[Any]):
        amount = AmountField()
        chip_set = serializers.CharField(required=False)
        chips = CountsField()
        cash = CountsField(required=False)
        patron = serializers.CharField(required=False, allow_blank=True,
                                       help_text=PATRON_HELP)
        payment = serializers.ChoiceField(choices=PAYOUT_PAYMENTS, required=False,
                                          help_text=PAYOUT_PAYMENT_HELP)
        cheque_number = serializers.CharField(required=False, allow_blank=True, max_length=32,
                                              help_text=CHEQUE_HELP)
        mark = serializers.CharField(required=False, allow_blank=True, max_length=100,
                                     help_text=MARK_HELP)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.chips_redeem(shift_id=kwargs["shift"], metadata=metadata, **data)


class FillIssueApi(CageCommandApi):
    answer = answers.SlipAnswer
    class InputSerializer(serializers.Serializer[Any]):
        slip = serializers.CharField(max_length=64)
        chip_set = serializers.CharField(required=False)
        chips = CountsField(required=False)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.fill_issue(shift_id=kwargs["shift"], metadata=metadata, **data)


class CreditReceiveApi(FillIssueApi):
    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.credit_receive(shift_id=kwargs["shift"], metadata=metadata, **data)


class SlipRefuseApi(CageCommandApi):
    answer = answers.SlipRefuseAnswer
    class InputSerializer(serializers.Serializer[Any]):
        kind = serializers.ChoiceField(choices=["fill", "credit"])
        slip = serializers.CharField(max_length=64)
        reason = serializers.CharField()
        chip_set = serializers.CharField(required=False)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.slip_refuse(shift_id=kwargs["shift"], metadata=metadata, **data)


class TransferSendApi(CageCommandApi):
    answer = answers.TransferSendAnswer
    class InputSerializer(serializers.Serializer[Any]):
        to_cage = serializers.CharField(max_length=64)
        cash = CountsField(required=False)
        chips = CountsField(required=False, help_text='{"<chip set>": {"25.00": 40}}')

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.transfer_send(shift_id=kwargs["shift"], metadata=metadata, **data)


class JackpotPayApi(CageCommandApi):
    """Pay a recorded jackpot hit (``prize_id``, from ``GET /api/v1/jackpots/<casino>/prizes/
    ?unpaid=true``) out of this shift's window: all it still owes, or ``amount`` of it. The pool,
    round and winner come from the hit (``jackpots.services.jackpot_prize_pay``)."""

    answer = PrizePayAnswer

    class InputSerializer(serializers.Serializer[Any]):
        prize_id = serializers.CharField(max_length=64)
        amount = AmountField(required=False, blank=True,
                             help_text="this payment (default: all the hit owes)")
        cash = CountsField(required=False)
        chip_set = serializers.CharField(required=False)
        chips = CountsField(required=False)
        patron = serializers.CharField(required=False, allow_blank=True,
                                       help_text=PATRON_HELP)
        payment = serializers.ChoiceField(choices=PAYOUT_PAYMENTS, required=False,
                                          help_text=PAYOUT_PAYMENT_HELP)
        cheque_number = serializers.CharField(required=False, allow_blank=True, max_length=32,
                                              help_text=CHEQUE_HELP)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return jackpot_prize_pay(shift_id=kwargs["shift"], metadata=metadata, **data)


class DropBoxReceiveApi(CageCommandApi):
    answer = answers.DropBoxReceiveAnswer
    class InputSerializer(serializers.Serializer[Any]):
        session_id = serializers.CharField(
            max_length=64, help_text="the session whose drop box the count room counted")
        table = serializers.CharField(max_length=64, required=False,
                                      help_text="if given, must be the session's table")
        drop_box = serializers.CharField(max_length=64, required=False, allow_blank=True)
        amount = AmountField(required=False, blank=True, allow_zero=True,
                             help_text="if given, must be the cash's value")
        cash = CountsField(help_text="the notes and coins received, by denomination")

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.drop_box_receive(shift_id=kwargs["shift"], metadata=metadata, **data)


class AdjustmentRequestApi(CageCommandApi):
    answer = answers.AdjustmentRequestAnswer
    class InputSerializer(serializers.Serializer[Any]):
        direction = serializers.ChoiceField(choices=["in", "out"])
        reason = serializers.CharField()
        cash = CountsField(required=False)
        chips = CountsField(required=False)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.adjustment_request(shift_id=kwargs["shift"], metadata=metadata, **data)


class AdjustmentApproveApi(CageCommandApi):
    roles = SUPERVISOR_ROLES
    answer = answers.AdjustmentDecisionAnswer

    class InputSerializer(serializers.Serializer[Any]):
        note = serializers.CharField(required=False, allow_blank=True, default="")

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.adjustment_approve(adjustment_id=kwargs["adjustment"], metadata=metadata,
                                       **data)


class AdjustmentRejectApi(CageCommandApi):
    roles = SUPERVISOR_ROLES
    answer = answers.AdjustmentDecisionAnswer

    class InputSerializer(serializers.Serializer[Any]):
        note = serializers.CharField()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.adjustment_reject(adjustment_id=kwargs["adjustment"], metadata=metadata,
                                      **data)


class ChipsPutIntoServiceApi(CageCommandApi):
    roles = SUPERVISOR_ROLES
    answer = answers.ChipsServiceAnswer

    class InputSerializer(serializers.Serializer[Any]):
        chip_set = serializers.CharField(required=False)
        chips = CountsField()
        reference = serializers.CharField(max_length=200)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.chips_put_into_service(shift_id=kwargs["shift"], metadata=metadata, **data)


class ChipsTakeOutOfServiceApi(CageCommandApi):
    roles = SUPERVISOR_ROLES
    answer = answers.ChipsServiceAnswer

    class InputSerializer(serializers.Serializer[Any]):
        chip_set = serializers.CharField(required=False)
        chips = CountsField()
        reason = serializers.CharField()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.chips_take_out_of_service(shift_id=kwargs["shift"], metadata=metadata,
                                              **data)


class ShiftCountApi(CageCommandApi):
    """The blind closing count; the answer says whether it matched (and by how much not)."""

    answer = answers.ShiftCountAnswer
    class InputSerializer(serializers.Serializer[Any]):
        cash = CountsField()
        chips = CountsField(required=False)
        foreign = CountsField(required=False, help_text=(
            'the foreign notes the window received, per currency: {"HKD": {"100.00": 9}}'))

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.shift_count(shift_id=kwargs["shift"], metadata=metadata, **data)


class VarianceExplainApi(CageCommandApi):
    answer = answers.VarianceExplainAnswer
    class InputSerializer(serializers.Serializer[Any]):
        explanation = serializers.CharField()

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.variance_explain(shift_id=kwargs["shift"], metadata=metadata, **data)


class VarianceApproveApi(CageCommandApi):
    roles = SUPERVISOR_ROLES
    answer = answers.VarianceApproveAnswer

    class InputSerializer(serializers.Serializer[Any]):
        note = serializers.CharField(required=False, allow_blank=True, default="")

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.variance_approve(shift_id=kwargs["shift"], metadata=metadata, **data)


class VarianceRefuseApi(CageCommandApi):
    roles = SUPERVISOR_ROLES
    answer = answers.VarianceRefuseAnswer

    class InputSerializer(serializers.Serializer[Any]):
        note = serializers.CharField(allow_blank=True)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.variance_refuse(shift_id=kwargs["shift"], metadata=metadata, **data)


class ShiftCloseApi(CageCommandApi):
    answer = answers.ShiftCloseAnswer
    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.shift_close(shift_id=kwargs["shift"], metadata=metadata)


class GamingDayChipsRecordApi(CageCommandApi):
    roles = (Role.CAGE_SUPERVISOR, Role.ADMINISTRATOR)
    answer = answers.GamingDayChipsRecordAnswer

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> object:
        return cage.gaming_day_chips_record(gaming_day=selectors.parse_day(kwargs["day"]),
                                            metadata=metadata)


# --- reads -------------------------------------------------------------------------------------


def _sees_expected(request: Request, casino: str) -> bool:
    user = request.user
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return bool(roles_in(user, casino) & set(SEES_EXPECTED))


def _sight(request: Request, shift: Shift, supervisor: bool) -> str:
    return selectors.expected_sight(shift, viewer=request.user.get_username(),
                                    supervisor=supervisor)


def _money(value: Any) -> str | None:
    return None if value is None else fmt(value)


class CageListApi(CageConfigureApi):
    """GET: every cage, what it holds now and whether its cash is below the minimum.

    What a cage with a live shift holds is that shift's expected contents: a reader who does
    not oversee the cage (a cashier) gets ``null`` there (the blind count); between shifts it
    is the last closing count, which the next cashier is shown anyway.
    """

    @extend_schema(responses={200: answer_serializer(answers.CageRow)(many=True)})
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        sees = _sees_expected(request, casino)
        out = []
        for v in selectors.cage_list(casino=casino):
            shown = sees or v.shift is None or v.shift.status == ShiftStatus.CLOSED
            out.append(
                {"code": v.cage.code, "name": v.cage.name, "kind": v.cage.kind,
                 "minimum_cash": fmt(v.cage.minimum_cash),
                 "cash_value": fmt(v.cash_value) if shown else None,
                 "chips_value": fmt(v.chips_value) if shown else None,
                 "below_minimum": v.below_minimum,
                 "shift_id": str(v.shift.id) if v.shift else None,
                 "shift_status": v.shift.status if v.shift else None})
        return Response(out)


def _counts_data(lines: list[selectors.LineFigures]) -> dict[str, Any]:
    cash: dict[str, int] = {}
    chips: dict[str, dict[str, int]] = {}
    for f in lines:
        if f.kind == "cash":
            cash[fmt(f.denomination)] = f.counted or 0
        else:
            chips.setdefault(f.chip_set, {})[fmt(f.denomination)] = f.counted or 0
    return {"cash": cash, "chips": chips}


class CagePreviousCountApi(APIView):
    """GET: what the next cashier accepts or disputes: the cage's last closing count, by
    denomination, and the shift to name when accepting it (``accept_previous``)."""

    @extend_schema(responses={200: answer_serializer(answers.PreviousCount)})
    def get(self, request: Request, casino: str, code: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        found = selectors.previous_count(casino=casino, cage=code)
        previous = found.shift
        dispute = found.dispute
        return Response({
            "cage": code,
            "previous_shift_id": str(previous.id) if previous else None,
            "closed_by": previous.closed_by if previous else None,
            "closed_at": previous.closed_at if previous else None,
            "count_number": previous.count_number if previous else None,
            **_counts_data(found.lines), "value": fmt(found.value),
            "dispute": None if dispute is None else {
                "shift_id": str(dispute.shift_id), "disputed_by": dispute.disputed_by,
                "reason": dispute.reason, "cash": dispute.cash, "chips": dispute.chips},
        })


def _shift_summary(shift: Shift, sight: str) -> dict[str, Any]:
    blind = sight == selectors.SIGHT_NONE
    return {
        "id": str(shift.id), "cage": shift.cage, "kind": shift.cage_kind,
        "gaming_day": shift.gaming_day.isoformat(), "status": shift.status,
        "basis": shift.basis, "opened_by": shift.opened_by, "opened_at": shift.opened_at,
        "previous_shift_id": str(shift.previous_shift_id) if shift.previous_shift_id else None,
        "count_number": shift.count_number, "counted_by": shift.counted_by,
        "variance_value": None if blind else _money(shift.variance_value),
        "explanation": shift.explanation, "approved_by": shift.approved_by,
        "closed_by": shift.closed_by, "closed_at": shift.closed_at, "version": shift.version,
    }


class ShiftListApi(ShiftOpenApi):
    """GET: the shifts of a casino (filter by ``gaming_day`` and ``cage``). POST: open one."""

    class FilterSerializer(serializers.Serializer[Any]):
        gaming_day = serializers.DateField(required=False)
        cage = serializers.CharField(required=False)

    @extend_schema(parameters=[OpenApiParameter("gaming_day", str), OpenApiParameter("cage", str)],
                   responses={200: answer_serializer(answers.ShiftSummary)(many=True)}, operation_id="cage_shift_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        shifts = selectors.shift_list(casino=casino, **filters.validated_data)
        sees = _sees_expected(request, casino)
        return Response([_shift_summary(s, _sight(request, s, sees)) for s in shifts])


class ShiftDetailApi(APIView):
    """A shift with its movements and, per denomination, its accountability.

    The blind count (``selectors.expected_sight``): a cashier sees no expected figure while the
    shift is open, or counted and not approved, except the one who counted, who sees the answer
    to their count (expected, counted, variance); cage supervisors, accountants, regulators and
    administrators see everything.
    """

    @extend_schema(responses={200: answer_serializer(answers.ShiftDetail)})
    def get(self, request: Request, casino: str, shift: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        found = selectors.shift_get(casino=casino, shift_id=shift)
        sight = _sight(request, found, _sees_expected(request, casino))
        lines = []
        for f in selectors.shift_figures(found):
            line: dict[str, Any] = {"kind": f.kind, "chip_set": f.chip_set,
                                    "denomination": fmt(f.denomination)}
            if sight == selectors.SIGHT_ALL:
                line |= {"opening": f.opening, "receipts": f.receipts, "payments": f.payments,
                         "expected": f.expected, "counted": f.counted, "variance": f.variance}
            elif sight == selectors.SIGHT_OWN_COUNT:
                line |= {"expected": f.expected, "counted": f.counted, "variance": f.variance}
            lines.append(line)
        entries = [{"version": e.version, "type": e.event_type, "reference": e.reference,
                    "amount_in": fmt(e.amount_in), "amount_out": fmt(e.amount_out),
                    "actor": e.actor, "recorded_at": e.recorded_at}
                   for e in selectors.shift_entries_for(found, sight)]
        adjustments = [{"id": str(a.id), "direction": a.direction, "amount": fmt(a.amount),
                        "reason": a.reason, "status": a.status, "requested_by": a.requested_by,
                        "decided_by": a.decided_by}
                       for a in selectors.adjustment_list(found)]
        dispute = OpeningDispute.objects.filter(shift=found).first()
        return Response({**_shift_summary(found, sight),
                         "expected_visible": sight != selectors.SIGHT_NONE, "sight": sight,
                         "lines": lines, "entries": entries, "adjustments": adjustments,
                         "opening_dispute": None if dispute is None else {
                             "previous_shift_id": str(dispute.previous_shift_id),
                             "cash": dispute.cash, "chips": dispute.chips,
                             "reason": dispute.reason, "status": dispute.status,
                             "disputed_by": dispute.disputed_by, "outcome": dispute.outcome,
                             "note": dispute.note, "resolved_by": dispute.resolved_by}})


def _report_data(report: reports.Reconciliation) -> dict[str, Any]:
    return {
        "casino": report.casino, "scope": report.scope,
        "gaming_day": report.gaming_day.isoformat(),
        "sections": [
            {"title": s.title, "cage": s.cage, "shifts": s.shift_ids, "status": s.status,
             "balanced": s.balanced,
             "totals": {k: _money(v) for k, v in s.totals.items()},
             "movements": {k: {"in": fmt(v[0]), "out": fmt(v[1])} for k, v in s.movements.items()},
             "lines": [{"kind": line.kind, "chip_set": line.chip_set,
                        "denomination": fmt(line.denomination), "opening": line.opening,
                        "receipts": line.receipts, "payments": line.payments,
                        "expected": line.expected, "counted": line.counted,
                        "variance": line.variance} for line in s.lines]}
            for s in report.sections
        ],
    }


class ShiftReconciliationApi(APIView):
    @extend_schema(responses={200: answer_serializer(answers.Reconciliation)})
    def get(self, request: Request, casino: str, shift: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        found = selectors.shift_get(casino=casino, shift_id=shift)
        if _sight(request, found, _sees_expected(request, casino)) == selectors.SIGHT_NONE:
            raise NotAllowed("the shift is open and its cashiers count blind: its "
                             "reconciliation is shown once it is counted", code="blind_count")
        return Response(_report_data(reports.shift_reconciliation(found)))


class GamingDayReconciliationApi(APIView):
    """GET: every shift of the day, open ones included: for those who oversee the cage."""

    @extend_schema(responses={200: answer_serializer(answers.Reconciliation)})
    def get(self, request: Request, casino: str, day: str) -> Response:
        acting_role(request, casino, SEES_EXPECTED)
        report = reports.gaming_day_reconciliation(casino=casino,
                                                   gaming_day=selectors.parse_day(day))
        return Response(_report_data(report))


def _circulation_data(casino: str, figure: circulation.Figure) -> dict[str, Any]:
    return {
        "casino": casino, "value": fmt(figure.value), "position": figure.position,
        "open_tables": fmt(figure.open_tables), "jackpot_slots": fmt(figure.jackpot_slots),
        "taken_over": fmt(figure.taken_over), "table_trays_known": True,
        "denominations": [
            {"chip_set": r.chip_set, "denomination": fmt(r.denomination),
             "in_service": r.in_service, "in_cages": r.in_cages, "in_vaults": r.in_vaults,
             "in_table_trays": r.in_table_trays, "in_transit": r.in_transit,
             "in_circulation": r.in_circulation, "value": fmt(r.value)}
            for r in figure.rows
        ],
    }


class ChipsInCirculationApi(APIView):
    """Chips in players' hands now, by denomination (what the cages hold in it is their live
    shifts' expected contents: for those who oversee the cage, not for cashiers counting blind)."""

    @extend_schema(responses={200: answer_serializer(answers.ChipsInCirculation)})
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, SEES_EXPECTED)
        return Response(_circulation_data(casino, selectors.chips_in_circulation(casino=casino)))


class GamingDayChipsApi(GamingDayChipsRecordApi):
    """GET: the figure recorded at a gaming day's close. POST: record it (idempotent)."""

    @extend_schema(responses={200: answer_serializer(answers.ChipLiabilityRow)(many=True)})
    def get(self, request: Request, casino: str, day: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        rows = selectors.chip_liability_list(casino=casino, gaming_day=selectors.parse_day(day))
        return Response([
            {"denomination": fmt(r.denomination), "in_service": r.in_service,
             "in_cages": r.in_cages, "in_vaults": r.in_vaults,
             "in_table_trays": r.in_table_trays, "in_transit": r.in_transit,
             "in_circulation": r.in_circulation, "table_trays_known": r.table_trays_known}
            for r in rows
        ])
