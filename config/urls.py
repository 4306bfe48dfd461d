from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.cache import cache_page
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from edge.api.schema import docs_policy
from shell.web import second_factor

accounts = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("second-factor/", second_factor.second_factor, name="second-factor"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
]
if settings.PASSWORD_RESET_ENABLED:  # a reset is offered only where mail can be sent
    accounts += [
        path("password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
        path("password_reset/done/", auth_views.PasswordResetDoneView.as_view(),
             name="password_reset_done"),
        path("reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
             name="password_reset_confirm"),
        path("reset/done/", auth_views.PasswordResetCompleteView.as_view(),
             name="password_reset_complete"),
    ]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include(accounts)),
    # the schema is the same for everyone and costs seconds to generate: kept for an hour
    path("api/schema/", cache_page(3600)(SpectacularAPIView.as_view()), name="api-schema"),
    # Swagger UI and Redoc from the installed drf-spectacular-sidecar: no CDN, works offline.
    path("api/docs/", docs_policy(SpectacularSwaggerView.as_view(url_name="api-schema")),
         name="api-docs"),
    path("api/redoc/", docs_policy(SpectacularRedocView.as_view(url_name="api-schema")),
         name="api-redoc"),
    path("api/regulator/v1/", include("regulator.urls")),
    path("api/regulator/v1/store/", include("cells.urls")),  # the store's lag (docs/cells.md)
    path("api/v1/", include("config.api_urls")),
    path("compliance/", include("compliance.web.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("config.web_urls")),
]

handler400 = "edge.api.errors.bad_request"
handler404 = "edge.api.errors.not_found"
handler500 = "edge.api.errors.server_error"
