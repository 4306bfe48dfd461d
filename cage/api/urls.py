"""``/api/v1/cage/<casino>/…``: the cage's commands and reads."""

from django.urls import URLPattern, URLResolver, path

from . import views as v

shift = "<slug:casino>/shifts/<uuid:shift>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/cages/", v.CageListApi.as_view(), name="cage-list"),
    path("<slug:casino>/cages/<slug:code>/minimum-cash/", v.CageMinimumCashChangeApi.as_view(),
         name="cage-minimum-cash"),
    path("<slug:casino>/cages/<slug:code>/previous-count/", v.CagePreviousCountApi.as_view(),
         name="cage-previous-count"),
    path("<slug:casino>/cages/<slug:code>/opening-disputes/", v.ShiftOpeningDisputeApi.as_view(),
         name="cage-opening-dispute"),
    path("<slug:casino>/shifts/", v.ShiftListApi.as_view(), name="cage-shift-list"),
    path(shift, v.ShiftDetailApi.as_view(), name="cage-shift-detail"),
    path(shift + "chip-sales/", v.ChipsSellApi.as_view(), name="cage-chips-sell"),
    path(shift + "chip-redemptions/", v.ChipsRedeemApi.as_view(), name="cage-chips-redeem"),
    path(shift + "fills/", v.FillIssueApi.as_view(), name="cage-fill-issue"),
    path(shift + "credits/", v.CreditReceiveApi.as_view(), name="cage-credit-receive"),
    path(shift + "slip-refusals/", v.SlipRefuseApi.as_view(), name="cage-slip-refuse"),
    path(shift + "transfers/", v.TransferSendApi.as_view(), name="cage-transfer-send"),
    path(shift + "jackpot-payouts/", v.JackpotPayApi.as_view(), name="cage-jackpot-pay"),
    path(shift + "drop-boxes/", v.DropBoxReceiveApi.as_view(), name="cage-drop-box-receive"),
    path(shift + "adjustments/", v.AdjustmentRequestApi.as_view(), name="cage-adjustment-request"),
    path(shift + "chips-into-service/", v.ChipsPutIntoServiceApi.as_view(),
         name="cage-chips-into-service"),
    path(shift + "chips-out-of-service/", v.ChipsTakeOutOfServiceApi.as_view(),
         name="cage-chips-out-of-service"),
    path(shift + "count/", v.ShiftCountApi.as_view(), name="cage-shift-count"),
    path(shift + "variance/explanation/", v.VarianceExplainApi.as_view(),
         name="cage-variance-explain"),
    path(shift + "variance/approval/", v.VarianceApproveApi.as_view(),
         name="cage-variance-approve"),
    path(shift + "variance/refusal/", v.VarianceRefuseApi.as_view(),
         name="cage-variance-refuse"),
    path(shift + "close/", v.ShiftCloseApi.as_view(), name="cage-shift-close"),
    path(shift + "opening-dispute/resolution/", v.ShiftOpeningDisputeResolveApi.as_view(),
         name="cage-opening-dispute-resolve"),
    path(shift + "reconciliation/", v.ShiftReconciliationApi.as_view(),
         name="cage-shift-reconciliation"),
    path("<slug:casino>/adjustments/<uuid:adjustment>/approval/",
         v.AdjustmentApproveApi.as_view(), name="cage-adjustment-approve"),
    path("<slug:casino>/adjustments/<uuid:adjustment>/rejection/",
         v.AdjustmentRejectApi.as_view(), name="cage-adjustment-reject"),
    path("<slug:casino>/chips-in-circulation/", v.ChipsInCirculationApi.as_view(),
         name="cage-chips-in-circulation"),
    path("<slug:casino>/gaming-days/<str:day>/chips-in-circulation/",
         v.GamingDayChipsApi.as_view(), name="cage-gaming-day-chips"),
    path("<slug:casino>/gaming-days/<str:day>/reconciliation/",
         v.GamingDayReconciliationApi.as_view(), name="cage-gaming-day-reconciliation"),
]
