"""``/machines/<casino>/…``: the slot floor, meter entry, the count room, the slot cashier."""

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "machines"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/", views.floor, name="floor"),
    path("<slug:casino>/meters/", views.meter_entry, name="meters"),
    path("<slug:casino>/count-room/", views.count_room, name="count"),
    path("<slug:casino>/cashier/", views.cashier, name="cashier"),
    path("<slug:casino>/cashier/shifts/", views.shifts, name="shifts"),
    path("<slug:casino>/parameters/", views.legal_parameters, name="parameters"),
]
