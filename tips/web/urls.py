"""``/tips/…``: a casino's tip boxes, their count, misplaced tips and each period's
distribution, by category and by person."""

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "tips"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/", views.tips_screen, name="tips"),
    path("<slug:casino>/periods/<str:period>/", views.period_screen, name="period"),
    path("<slug:casino>/staff/<str:staff>/", views.person_screen, name="person"),
]
