"""``/pit/…``: the pit boss's screens (and the accountant's and regulator's reading of them)."""

from django.urls import URLPattern, URLResolver, path

from . import capitals, floor, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.table_list, name="pit-tables"),
    path("sessions/<uuid:session_id>/", views.session_detail, name="pit-session"),
    path("rounds/<uuid:round_id>/", views.round_detail, name="pit-round"),
    path("gaming-days/", views.gaming_days, name="pit-gaming-days"),
    path("<slug:casino>/", views.casino_tables, name="pit-casino"),
    path("<slug:casino>/floor/", floor.floor, name="pit-floor"),
    path("<slug:casino>/capitals/", capitals.capitals, name="pit-capitals"),
    path("<slug:casino>/floor/rows/", floor.floor_fragment, name="pit-floor-rows"),
    path("<slug:casino>/floor/map/", floor.floor_map_fragment, name="pit-floor-map"),
    path("<slug:casino>/tables/<slug:code>/", views.table_detail, name="pit-table"),
]
