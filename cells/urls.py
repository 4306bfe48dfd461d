"""The regulator's store's page of its API, under ``/api/regulator/v1/store/``."""

from django.urls import path

from .api import StoreLagApi

urlpatterns = [path("lag/", StoreLagApi.as_view(), name="regulator-store-lag")]
