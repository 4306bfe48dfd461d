"""The regulator's reads of the poker room (``/api/regulator/v1/casinos/<casino>/poker-room/…``;
docs/regulator.md): its tables with their approved charge and figures, every hand with its pot
and rake, the rake box counts, the chemin de fer coups with their cards, the tournaments and
their entries. Read-only, scoped to the inspector's jurisdiction, logged (``RegulatorApi``)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from pokerroom.models import (
    ChemmyCoup,
    PokerHand,
    PokerTable,
    RakeBoxCount,
    Tournament,
    TournamentEntry,
)

from .base import RegulatorListApi, cursor


class PokerTableOutput(serializers.ModelSerializer[PokerTable]):
    class Meta:
        model = PokerTable
        fields = ["code", "game", "seats", "min_buy_in", "max_buy_in", "charge", "rake_percent",
                  "rake_cap", "minimum_pot", "no_flop_no_drop", "time_rate", "period_minutes",
                  "commission_percent", "approval_reference", "hands", "buy_ins", "cashed_out",
                  "players_money", "pots", "rake_recorded", "time_charges", "rake_counted",
                  "commission", "version"]


class PokerHandOutput(serializers.ModelSerializer[PokerHand]):
    class Meta:
        model = PokerHand
        fields = ["table", "hand", "pot", "rake", "flop_dealt", "source", "contributions",
                  "awards", "recorded_at", "position"]


class RakeBoxCountOutput(serializers.ModelSerializer[RakeBoxCount]):
    class Meta:
        model = RakeBoxCount
        fields = ["table", "recorded", "counted", "variance", "counted_by", "counted_at",
                  "position"]


class ChemmyCoupOutput(serializers.ModelSerializer[ChemmyCoup]):
    class Meta:
        model = ChemmyCoup
        fields = ["table", "coup", "banker_seat", "punter_cards", "banker_cards",
                  "punter_option", "bank", "stakes", "winner", "punter_total", "banker_total",
                  "banker_result", "commission", "bank_after", "settled_at", "position"]


class TournamentOutput(serializers.ModelSerializer[Tournament]):
    class Meta:
        model = Tournament
        fields = ["code", "game", "status", "buy_in", "entry_fee", "rebuy", "rebuy_fee",
                  "addon", "addon_fee", "guarantee", "payout_percents",
                  "late_registration_levels", "level_minutes", "approval_reference",
                  "started_at", "entries", "remaining", "rebuys", "addons", "collected", "fees",
                  "pool", "overlay", "prizes_paid", "version"]


class TournamentEntryOutput(serializers.ModelSerializer[TournamentEntry]):
    class Meta:
        model = TournamentEntry
        fields = ["tournament", "entry", "patron", "late", "rebuys", "addons", "place", "prize",
                  "paid"]


class PokerTableListApi(RegulatorListApi):
    pagination_class = cursor(("code", "id"))
    output = PokerTableOutput

    def rows_of(self, casino: str) -> QuerySet[PokerTable]:
        return PokerTable.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=PokerTableOutput(many=True), operation_id="regulator_poker_tables")
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


class PokerHandListApi(RegulatorListApi):
    pagination_class = cursor("position")
    output = PokerHandOutput

    def rows_of(self, casino: str) -> QuerySet[PokerHand]:
        return PokerHand.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=PokerHandOutput(many=True), operation_id="regulator_poker_hands")
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


class RakeBoxCountListApi(RegulatorListApi):
    pagination_class = cursor("position")
    output = RakeBoxCountOutput

    def rows_of(self, casino: str) -> QuerySet[RakeBoxCount]:
        return RakeBoxCount.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=RakeBoxCountOutput(many=True),
                   operation_id="regulator_rake_box_counts")
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


class ChemmyCoupListApi(RegulatorListApi):
    pagination_class = cursor("position")
    output = ChemmyCoupOutput

    def rows_of(self, casino: str) -> QuerySet[ChemmyCoup]:
        return ChemmyCoup.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=ChemmyCoupOutput(many=True), operation_id="regulator_chemmy_coups")
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


class TournamentListApi(RegulatorListApi):
    pagination_class = cursor(("code", "id"))
    output = TournamentOutput

    def rows_of(self, casino: str) -> QuerySet[Tournament]:
        return Tournament.objects.filter(casino_id=self.casino(casino).code)

    @extend_schema(responses=TournamentOutput(many=True), operation_id="regulator_tournaments")
    def get(self, request: Request, casino: str) -> Response:
        return self.list()


class TournamentEntryListApi(RegulatorListApi):
    pagination_class = cursor(("entry", "id"))
    output = TournamentEntryOutput

    def rows_of(self, casino: str, tournament: str) -> QuerySet[TournamentEntry]:
        return TournamentEntry.objects.filter(casino_id=self.casino(casino).code,
                                              tournament=tournament)

    @extend_schema(responses=TournamentEntryOutput(many=True),
                   operation_id="regulator_tournament_entries")
    def get(self, request: Request, casino: str, tournament: str) -> Response:
        return self.list()


room = "casinos/<slug:casino>/poker-room/"

urlpatterns: list[URLPattern] = [
    path(room + "tables/", PokerTableListApi.as_view(), name="regulator-poker-table-list"),
    path(room + "hands/", PokerHandListApi.as_view(), name="regulator-poker-hand-list"),
    path(room + "rake-box-counts/", RakeBoxCountListApi.as_view(),
         name="regulator-rake-box-count-list"),
    path(room + "coups/", ChemmyCoupListApi.as_view(), name="regulator-chemmy-coup-list"),
    path(room + "tournaments/", TournamentListApi.as_view(), name="regulator-tournament-list"),
    path(room + "tournaments/<slug:tournament>/entries/", TournamentEntryListApi.as_view(),
         name="regulator-tournament-entry-list"),
]
