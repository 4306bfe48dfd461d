from django.urls import path

from . import views

urlpatterns = [
    path("casinos/", views.CasinoListApi.as_view(), name="casino-list"),
    path("events/", views.EventListApi.as_view(), name="event-list"),
    path("events/verify/", views.EventChainVerifyApi.as_view(), name="event-chain-verify"),
]
