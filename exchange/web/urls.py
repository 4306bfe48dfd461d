"""``/exchange/…``: the exchange at the cage, a page of its own."""

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "exchange"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/", views.exchange_screen, name="desk"),
]
