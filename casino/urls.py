from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import cache_page
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # the schema is the same for everyone and costs seconds to generate: kept for an hour
    path("api/schema/", cache_page(3600)(SpectacularAPIView.as_view()), name="api-schema"),
    # Swagger UI and Redoc from the installed drf-spectacular-sidecar: no CDN, works offline.
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("api/regulator/v1/", include("casino.api.regulator.urls")),
    path("api/v1/", include("casino.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("casino.web.urls")),
]

handler404 = "casino.api.errors.not_found"
