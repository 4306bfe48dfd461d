"""``/api/v1/compliance/<casino>/…``."""

from django.urls import URLPattern, URLResolver, path

from . import views as v

c = "<slug:casino>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(c + "patrons/", v.PatronRegisterApi.as_view(), name="compliance-patrons"),
    path(c + "patrons/find/", v.PatronFindApi.as_view(), name="compliance-patron-find"),
    path(c + "patrons/<str:patron>/", v.PatronDetailApi.as_view(), name="compliance-patron"),
    path(c + "patrons/<str:patron>/verify/", v.PatronVerifyApi.as_view(),
         name="compliance-patron-verify"),
    path(c + "patrons/<str:patron>/shred/", v.PatronShredApi.as_view(),
         name="compliance-patron-shred"),
    path(c + "linking-period/", v.LinkingPeriodApi.as_view(), name="compliance-linking-period"),
    path(c + "alerts/", v.AlertListApi.as_view(), name="compliance-alerts"),
    path(c + "reports/", v.ReportListApi.as_view(), name="compliance-reports"),
    path(c + "reports/<str:report>/", v.ReportDetailApi.as_view(), name="compliance-report"),
    path(c + "reports/<str:report>/review/", v.ReportReviewApi.as_view(),
         name="compliance-report-review"),
    path(c + "reports/<str:report>/send/", v.ReportSendApi.as_view(),
         name="compliance-report-send"),
    path(c + "large-transactions/", v.LargeTransactionReportApi.as_view(),
         name="compliance-large-transactions"),
    path(c + "identifications/", v.IdentificationListApi.as_view(),
         name="compliance-identifications"),
    path(c + "reports-sent/", v.ReportSentListApi.as_view(), name="compliance-reports-sent"),
]
