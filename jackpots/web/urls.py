"""``/jackpots/…``: a casino's jackpot pools, their meters and hits, and where a meter
correction is asked for (four eyes: decided on the Approvals page)."""

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "jackpots"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/", views.pool_list, name="pools"),
    path("<slug:casino>/pools/<slug:pool>/", views.pool_screen, name="pool"),
]
