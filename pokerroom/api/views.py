"""The poker room's API: one view per operation, thin, calling one selector or service.

Reads are open to the pit, the cage, the accountant and the administrator of the casino in the
URL; recording hands and coups is the floor's (pit boss, administrator), paying a prize the
cage's (cashier, cage supervisor), each with an ``Idempotency-Key`` header. A refusal has the
one error shape (``edge.api.errors``) and names the rule broken."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.api.base import CommandApi, acting_role
from edge.api.fields import AmountField
from edge.api.schema import answer_serializer
from eventstore.answers import as_data
from eventstore.records import Metadata
from pokerroom import answers, selectors
from pokerroom.roles import CAGE_ROLES, FLOOR_ROLES, READ_ROLES
from pokerroom.services.chemin_de_fer import chemmy_coup_record
from pokerroom.services.tables import poker_hands_record
from pokerroom.services.tournaments import tournament_prize_pay


class PokerTableListApi(APIView):
    """The poker room's tables: game, seats taken, charge, the players' money and the rake."""

    @extend_schema(responses={200: answer_serializer(answers.PokerTableRow)(many=True)},
                   operation_id="poker_table_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response(as_data(selectors.table_list(casino)))


class PokerTableDetailApi(APIView):
    """One table: its seats (seat numbers and patron references, never names), last hands."""

    @extend_schema(responses={200: answer_serializer(answers.PokerTableDetail)},
                   operation_id="poker_table_detail")
    def get(self, request: Request, casino: str, table: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response(as_data(selectors.table_detail(casino, table)))


@extend_schema_view(post=extend_schema(operation_id="poker_hands_record"))
class PokerHandsRecordApi(CommandApi):
    """Record hands from the dealer's terminal or a batch: each ``{"contributions": {seat:
    amount}, "awards": {seat: amount}, "rake": amount, "flop_dealt": bool}``; a batch with one
    bad hand records nothing."""

    roles = FLOOR_ROLES
    answer = answers.HandsAnswer

    class InputSerializer(serializers.Serializer[Any]):
        hands = serializers.ListField(child=serializers.DictField(), min_length=1,
                                      max_length=500)
        origin = serializers.ChoiceField(choices=["terminal", "batch"], default="terminal",
                                         help_text="the dealer's terminal, or a batch")

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return poker_hands_record(casino=metadata.casino, table=kwargs["table"],
                                  hands=data["hands"], source=data["origin"], metadata=metadata)


@extend_schema_view(post=extend_schema(operation_id="chemmy_coup_record"))
class ChemmyCoupRecordApi(CommandApi):
    """Record a chemin de fer coup with its cards, settled by the rules (CF-1..CF-6)."""

    roles = FLOOR_ROLES
    answer = answers.CoupAnswer

    class InputSerializer(serializers.Serializer[Any]):
        banker_seat = serializers.IntegerField()
        bank = AmountField()
        stakes = serializers.DictField(child=serializers.CharField())
        punter_cards = serializers.ListField(child=serializers.CharField(max_length=2))
        banker_cards = serializers.ListField(child=serializers.CharField(max_length=2))
        punter_option = serializers.ChoiceField(choices=["draw", "stand"], required=False,
                                                allow_null=True, default=None)

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return chemmy_coup_record(casino=metadata.casino, table=kwargs["table"],
                                  metadata=metadata, **data)


class TournamentListApi(APIView):
    """The casino's tournaments with their clock (level, its end, late registration)."""

    @extend_schema(responses={200: answer_serializer(answers.TournamentRow)(many=True)},
                   operation_id="tournament_list")
    def get(self, request: Request, casino: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response(as_data(selectors.tournament_list(casino)))


class TournamentDetailApi(APIView):
    """One tournament: its clock, payout table, entrants by place and their prizes."""

    @extend_schema(responses={200: answer_serializer(answers.TournamentDetail)},
                   operation_id="tournament_detail")
    def get(self, request: Request, casino: str, tournament: str) -> Response:
        acting_role(request, casino, READ_ROLES)
        return Response(as_data(selectors.tournament_detail(casino, tournament)))


@extend_schema_view(post=extend_schema(operation_id="tournament_prize_pay"))
class TournamentPrizePayApi(CommandApi):
    """The cage pays a finisher's prize against the results (once; the patron identified at or
    above the anti-money-laundering threshold)."""

    roles = CAGE_ROLES
    answer = answers.PrizeAnswer

    class InputSerializer(serializers.Serializer[Any]):
        patron = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                       default="")

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> object:
        return tournament_prize_pay(casino=metadata.casino, tournament=kwargs["tournament"],
                                    entry=int(kwargs["entry"]), metadata=metadata, **data)
