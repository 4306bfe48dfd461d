"""``/api/v1/machines/<casino>/…``: the slot floor's reads, the meter ingest, the cage's ticket
redemption and hand pay payment, the count room, and the slot cashier's shift."""

from django.urls import URLPattern, URLResolver, path

from . import count_views as c
from . import shift_views as s
from . import views as v

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/machines/", v.MachineListApi.as_view(), name="machine-list"),
    path("<slug:casino>/machines/<str:machine>/", v.MachineDetailApi.as_view(),
         name="machine-detail"),
    path("<slug:casino>/readings/", v.MeterReadingsApi.as_view(), name="machine-readings"),
    path("<slug:casino>/tickets/", v.TicketListApi.as_view(), name="machine-ticket-list"),
    path("<slug:casino>/tickets/<str:validation>/redemption/", v.TicketRedeemApi.as_view(),
         name="machine-ticket-redeem"),
    path("<slug:casino>/hand-pays/", v.HandPayListApi.as_view(), name="machine-hand-pay-list"),
    path("<slug:casino>/hand-pays/<str:handpay>/payment/", v.HandPayPayApi.as_view(),
         name="machine-hand-pay-pay"),
    path("<slug:casino>/boxes/", c.BoxCountApi.as_view(), name="machine-box-count"),
    path("<slug:casino>/boxes/<str:drop_id>/confirmation/", c.BoxConfirmApi.as_view(),
         name="machine-box-confirm"),
    path("<slug:casino>/boxes/<str:drop_id>/explanation/", c.BoxExplainApi.as_view(),
         name="machine-box-explain"),
    path("<slug:casino>/machines/<str:machine>/resets/", c.MeterResetApi.as_view(),
         name="machine-meter-reset"),
    path("<slug:casino>/cash-counts/", c.SlotCashCountApi.as_view(), name="slot-cash-count"),
    path("<slug:casino>/parameters/", c.ParameterSetApi.as_view(), name="machine-parameter-set"),
    # the slot cashier's shift (its screen: /machines/<casino>/cashier/shifts/)
    path("<slug:casino>/shifts/", s.SlotShiftOpenApi.as_view(), name="slot-shift-open"),
    path("<slug:casino>/shifts/<str:shift_id>/count/", s.SlotShiftCountApi.as_view(),
         name="slot-shift-count"),
    path("<slug:casino>/shifts/<str:shift_id>/explanation/", s.SlotShiftExplainApi.as_view(),
         name="slot-shift-explain"),
    path("<slug:casino>/shifts/<str:shift_id>/close/", s.SlotShiftCloseApi.as_view(),
         name="slot-shift-close"),
    path("<slug:casino>/windows/<str:window>/shifts/", s.SlotShiftListApi.as_view(),
         name="slot-shift-list"),
]
