from django.urls import include, path

from reporting.api import archives
from shell.api import approvals, views

urlpatterns = [
    path("", views.ApiRootApi.as_view(), name="api-root"),
    path("casinos/", views.CasinoListApi.as_view(), name="casino-list"),
    path("casinos/<str:code>/seal-key/", views.CasinoSealKeyApi.as_view(),
         name="casino-seal-key"),
    path("casinos/<str:code>/days/<str:day>/archive/", archives.GamingDayArchiveApi.as_view(),
         name="gaming-day-archive"),
    path("casinos/<str:code>/days/<str:day>/regulator-file/",
         archives.GamingDayRegulatorFileApi.as_view(), name="gaming-day-regulator-file"),
    path("seals/", views.SealListApi.as_view(), name="seal-list"),
    path("events/", views.EventListApi.as_view(), name="event-list"),
    path("events/verify/", views.EventChainVerifyApi.as_view(), name="event-chain-verify"),
    path("approvals/", approvals.ApprovalListApi.as_view(), name="approval-list"),
    path("approvals/kinds/", approvals.ApprovalKindListApi.as_view(), name="approval-kinds"),
    path("approvals/<str:approval_id>/", approvals.ApprovalDetailApi.as_view(),
         name="approval-detail"),
    path("approvals/<str:approval_id>/grant/", approvals.ApprovalGrantApi.as_view(),
         name="approval-grant"),
    path("approvals/<str:approval_id>/refuse/", approvals.ApprovalRefuseApi.as_view(),
         name="approval-refuse"),
    path("approvals/<str:approval_id>/withdraw/", approvals.ApprovalWithdrawApi.as_view(),
         name="approval-withdraw"),
    path("pit/", include("games.api.urls")),
    path("cage/", include("cage.api.urls")),
    path("ledger/", include("reporting.api.urls")),
    path("jackpots/", include("jackpots.api.urls")),
    path("machines/", include("machines.api.urls")),
    path("compliance/", include("compliance.api.urls")),
    path("tips/", include("tips.api.urls")),
    path("exchange/", include("exchange.api.urls")),
    path("poker-room/", include("pokerroom.api.urls")),
]
