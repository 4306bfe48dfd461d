from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("pit/", include("games.web.urls")),
    path("cage/", include("casino.cage.web.urls")),
    path("ledger/", include("ledger.web.urls")),
]
