from django.urls import include, path

from . import views

urlpatterns = [
    path("casinos/", views.CasinoListApi.as_view(), name="casino-list"),
    path("events/", views.EventListApi.as_view(), name="event-list"),
    path("events/verify/", views.EventChainVerifyApi.as_view(), name="event-chain-verify"),
    path("pit/", include("games.api.urls")),
    path("cage/", include("casino.cage.api.urls")),
    path("ledger/", include("ledger.api.urls")),
    path("jackpots/", include("jackpots.api.urls")),
]
