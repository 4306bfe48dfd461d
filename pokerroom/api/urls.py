"""``/api/v1/poker-room/<casino>/…``: the poker room's tables, hands, coups and tournaments."""

from django.urls import URLPattern, URLResolver, path

from . import views as v

table = "<slug:casino>/tables/<slug:table>/"
tournament = "<slug:casino>/tournaments/<slug:tournament>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/tables/", v.PokerTableListApi.as_view(), name="poker-table-list"),
    path(table, v.PokerTableDetailApi.as_view(), name="poker-table-detail"),
    path(table + "hands/", v.PokerHandsRecordApi.as_view(), name="poker-hands-record"),
    path(table + "coups/", v.ChemmyCoupRecordApi.as_view(), name="chemmy-coup-record"),
    path("<slug:casino>/tournaments/", v.TournamentListApi.as_view(), name="tournament-list"),
    path(tournament, v.TournamentDetailApi.as_view(), name="tournament-detail"),
    path(tournament + "prizes/<int:entry>/payment/", v.TournamentPrizePayApi.as_view(),
         name="tournament-prize-pay"),
]
