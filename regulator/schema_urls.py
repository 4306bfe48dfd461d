"""The URL configuration the regulator's published schema is generated from: its own tree only,
at its own prefix."""

from django.urls import include, path

urlpatterns = [path("api/regulator/v1/", include("regulator.urls"))]
