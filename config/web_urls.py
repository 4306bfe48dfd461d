from django.urls import include, path

from shell.web import approvals, history, roles, seals, tokens, views

urlpatterns = [
    path("", views.home, name="home"),
    path("waiting/<slug:casino>/", views.home_waiting, name="home-waiting"),
    path("approvals/<slug:casino>/", approvals.approvals, name="approvals"),
    path("history/<slug:casino>/<slug:kind>/<str:ident>/", history.history, name="history"),
    path("roles/<slug:casino>/", roles.roles, name="roles"),
    path("seals/<slug:casino>/", seals.seals, name="seals"),
    path("seals/<slug:casino>/key.pem", seals.seal_key, name="seal-key"),
    path("tokens/", tokens.tokens, name="tokens"),
    path("pit/", include("games.web.urls")),
    path("cage/", include("cage.web.urls")),
    path("ledger/", include("reporting.web.urls")),
    path("jackpots/", include("jackpots.web.urls")),
    path("tips/", include("tips.web.urls")),
    path("exchange/", include("exchange.web.urls")),
    path("poker-room/", include("pokerroom.web.urls")),
    path("machines/", include("machines.web.urls")),
]
