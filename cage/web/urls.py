"""``/cage/…``: the cashier's and cage supervisor's screens."""

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "cage"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.casino_list, name="casinos"),
    path("<slug:casino>/", views.cage_overview, name="overview"),
    path("<slug:casino>/cages/<slug:code>/dispute/", views.opening_dispute_form,
         name="opening-dispute"),
    path("<slug:casino>/shifts/<uuid:shift>/", views.shift_screen, name="shift"),
    path("<slug:casino>/shifts/<uuid:shift>/slips/<int:version>.pdf", views.slip_print,
         name="slip-pdf"),
    path("<slug:casino>/shifts/<uuid:shift>/receipts/<int:version>.pdf", views.receipt_print,
         name="receipt-pdf"),
    path("<slug:casino>/shifts/<uuid:shift>/count/", views.count_form, name="count"),
    path("<slug:casino>/shifts/<uuid:shift>/variance/", views.variance_screen, name="variance"),
    path("<slug:casino>/shifts/<uuid:shift>/closing/<uuid:task>/", views.shift_closing,
         name="closing"),
    path("<slug:casino>/shifts/<uuid:shift>/reconciliation/", views.shift_reconciliation,
         name="shift-reconciliation"),
    path("<slug:casino>/shifts/<uuid:shift>/reconciliation.csv", views.shift_reconciliation,
         {"fmt_": "csv"}, name="shift-reconciliation-csv"),
    path("<slug:casino>/days/<str:day>/reconciliation/", views.day_reconciliation,
         name="day-reconciliation"),
    path("<slug:casino>/days/<str:day>/reconciliation.csv", views.day_reconciliation,
         {"fmt_": "csv"}, name="day-reconciliation-csv"),
    path("<slug:casino>/count-room/", views.count_room, name="count-room"),
    path("<slug:casino>/chips-in-circulation/", views.chips_in_circulation,
         name="circulation"),
]
