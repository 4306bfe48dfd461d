"""``/compliance/…``: the compliance officer's screens and the cage's patron picker."""

from django.urls import URLPattern, URLResolver, path

from . import inline, views

app_name = "compliance"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/alerts/", views.alerts, name="alerts"),
    path("<slug:casino>/reports/", views.reports, name="reports"),
    path("<slug:casino>/reports/<uuid:report>/", views.report, name="report"),
    path("<slug:casino>/linking-period/", views.linking_period, name="linking-period"),
    path("<slug:casino>/patrons/", views.patrons, name="patrons"),
    path("<slug:casino>/patrons/pick/", views.patron_pick, name="patron-pick"),
    path("<slug:casino>/patrons/inline/", inline.patron_inline, name="patron-inline"),
    path("<slug:casino>/patrons/<uuid:patron>/", views.patron, name="patron"),
]
