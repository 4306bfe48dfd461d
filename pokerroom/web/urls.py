"""``/poker-room/…``: the poker room, a table (seats, waiting list, the dealer's hand entry) and
a tournament (clock, entrants, payouts, prizes paid at the cage)."""

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "pokerroom"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/", views.room, name="room"),
    path("<slug:casino>/tables/<slug:table>/", views.table_screen, name="table"),
    path("<slug:casino>/tournaments/<slug:tournament>/", views.tournament_screen,
         name="tournament"),
]
