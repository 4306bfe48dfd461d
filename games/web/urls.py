from django.urls import URLPattern, URLResolver, path

from . import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.table_list, name="pit-tables"),
    path("sessions/<uuid:session_id>/", views.session_detail, name="pit-session"),
    path("rounds/<uuid:round_id>/", views.round_detail, name="pit-round"),
    path("gaming-days/", views.gaming_days, name="pit-gaming-days"),
]
