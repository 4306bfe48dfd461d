"""``/api/v1/tips/<casino>/…``: the tip boxes, their count, misplaced tips, the rule, the staff
and each period's distribution."""

from django.urls import URLPattern, URLResolver, path

from . import views as v

c = "<slug:casino>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(c + "rule/", v.TipRuleSetApi.as_view(), name="tip-rule-set"),
    path(c + "staff/", v.TipStaffListApi.as_view(), name="tip-staff-list"),
    path(c + "staff/register/", v.TipStaffRegisterApi.as_view(), name="tip-staff-register"),
    path(c + "staff/<str:staff>/change/", v.TipStaffChangeApi.as_view(), name="tip-staff-change"),
    path(c + "staff/<str:staff>/shares/", v.TipPersonSharesApi.as_view(),
         name="tip-person-shares"),
    path(c + "boxes/", v.TipBoxListApi.as_view(), name="tip-box-list"),
    path(c + "boxes/drop/", v.TipBoxDropApi.as_view(), name="tip-box-drop"),
    path(c + "boxes/<str:day>/<str:box>/count/", v.TipBoxCountApi.as_view(),
         name="tip-box-count"),
    path(c + "boxes/<str:day>/<str:box>/confirm/", v.TipBoxConfirmApi.as_view(),
         name="tip-box-confirm"),
    path(c + "corrections/", v.TipCorrectionListApi.as_view(), name="tip-correction-list"),
    path(c + "corrections/report/", v.TipMisplacementReportApi.as_view(),
         name="tip-misplacement-report"),
    path(c + "corrections/<str:correction>/confirm/", v.TipMisplacementConfirmApi.as_view(),
         name="tip-misplacement-confirm"),
    path(c + "periods/", v.TipPeriodListApi.as_view(), name="tip-period-list"),
    path(c + "periods/<str:period>/", v.TipPeriodDetailApi.as_view(), name="tip-period-detail"),
    path(c + "periods/<str:period>/distribute/", v.TipPeriodDistributeApi.as_view(),
         name="tip-period-distribute"),
]
