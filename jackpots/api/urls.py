"""``/api/v1/jackpots/<casino>/…``: jackpot reads for the pit, the cage and the regulator, and the
cage's payment of an awarded prize."""

from django.urls import URLPattern, URLResolver, path

from . import views as v

pool = "<slug:casino>/pools/<slug:pool>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/pools/", v.JackpotPoolListApi.as_view(), name="jackpot-pool-list"),
    path(pool, v.JackpotPoolDetailApi.as_view(), name="jackpot-pool-detail"),
    path(pool + "hits/", v.JackpotHitListApi.as_view(), name="jackpot-hit-list"),
    path(pool + "history/", v.JackpotMeterHistoryApi.as_view(), name="jackpot-meter-history"),
    path(pool + "configurations/", v.JackpotConfigurationListApi.as_view(),
         name="jackpot-configuration-list"),
    path(pool + "coups/", v.JackpotCoupListApi.as_view(), name="jackpot-coup-list"),
    path(pool + "coups/<str:round_id>/", v.JackpotCoupDetailApi.as_view(),
         name="jackpot-coup-detail"),
    path("<slug:casino>/prizes/", v.JackpotPrizeListApi.as_view(), name="jackpot-prize-list"),
    path("<slug:casino>/prizes/<str:prize>/payment/", v.JackpotPrizePayApi.as_view(),
         name="jackpot-prize-pay"),
    path("<slug:casino>/tables/<slug:table>/jackpot/", v.TableJackpotOptionApi.as_view(),
         name="jackpot-table-option"),
]
