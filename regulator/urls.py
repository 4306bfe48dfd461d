"""``/api/regulator/v1/``: the regulator's read-only API (GET only; docs/regulator.md)."""

from django.urls import URLPattern, URLResolver, include, path
from django.views.decorators.cache import cache_page
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from edge.api.schema import docs_policy

from . import pokerroom, tips_exchange
from . import views as v

casino = "casinos/<slug:casino>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("schema/", cache_page(3600)(SpectacularAPIView.as_view(
        urlconf="regulator.schema_urls")), name="regulator-schema"),
    path("docs/", docs_policy(SpectacularSwaggerView.as_view(url_name="regulator-schema")),
         name="regulator-docs"),
    path("redoc/", docs_policy(SpectacularRedocView.as_view(url_name="regulator-schema")),
         name="regulator-redoc"),
    path("access-log/", v.AccessLogApi.as_view(), name="regulator-access-log"),
    path("casinos/", v.CasinoListApi.as_view(), name="regulator-casino-list"),
    path(casino, v.CasinoDetailApi.as_view(), name="regulator-casino-detail"),
    path(casino + "seal-key/", v.CasinoSealKeyApi.as_view(), name="regulator-seal-key"),
    path(casino + "gaming-days/", v.GamingDayListApi.as_view(), name="regulator-gaming-day-list"),
    path(casino + "gaming-days/<str:day>/", v.GamingDayDetailApi.as_view(),
         name="regulator-gaming-day-detail"),
    path(casino + "gaming-days/<str:day>/seal/verification/", v.SealVerifyApi.as_view(),
         name="regulator-seal-verify"),
    path(casino + "large-transactions/", v.LargeTransactionsApi.as_view(),
         name="regulator-large-transactions"),
    path(casino + "identifications/", v.IdentificationsApi.as_view(),
         name="regulator-identifications"),
    path(casino + "suspicious-reports-sent/", v.ReportsSentApi.as_view(),
         name="regulator-reports-sent"),
    path(casino + "gaming-days/<str:day>/archive/", v.GamingDayArchiveApi.as_view(),
         name="regulator-gaming-day-archive"),
    path(casino + "gaming-days/<str:day>/regulator-file/", v.GamingDayRegulatorFileApi.as_view(),
         name="regulator-gaming-day-file"),
    path(casino + "tables/", v.TableListApi.as_view(), name="regulator-table-list"),
    path(casino + "tables/<slug:code>/", v.TableDetailApi.as_view(),
         name="regulator-table-detail"),
    path(casino + "tables/<slug:code>/as-of/", v.TableAsOfApi.as_view(),
         name="regulator-table-as-of"),
    path(casino + "sessions/", v.SessionListApi.as_view(), name="regulator-session-list"),
    path(casino + "sessions/<uuid:session_id>/", v.SessionDetailApi.as_view(),
         name="regulator-session-detail"),
    path(casino + "rounds/", v.RoundListApi.as_view(), name="regulator-round-list"),
    path(casino + "rounds/<uuid:round_id>/", v.RoundDetailApi.as_view(),
         name="regulator-round-detail"),
    path(casino + "rounds/<uuid:round_id>/replay/", v.RoundReplayApi.as_view(),
         name="regulator-round-replay"),
    path(casino + "slips/", v.SlipListApi.as_view(), name="regulator-slip-list"),
    path(casino + "shifts/", v.ShiftListApi.as_view(), name="regulator-shift-list"),
    path(casino + "shifts/<uuid:shift>/", v.ShiftDetailApi.as_view(),
         name="regulator-shift-detail"),
    path(casino + "cages/<slug:cage>/as-of/", v.CageAsOfApi.as_view(),
         name="regulator-cage-as-of"),
    path(casino + "chips-in-circulation/", v.ChipsInCirculationApi.as_view(),
         name="regulator-chips-in-circulation"),
    path(casino + "jackpot-pools/", v.PoolListApi.as_view(), name="regulator-pool-list"),
    path(casino + "jackpot-pools/<slug:pool>/", v.PoolDetailApi.as_view(),
         name="regulator-pool-detail"),
    path(casino + "jackpot-pools/<slug:pool>/as-of/", v.PoolAsOfApi.as_view(),
         name="regulator-pool-as-of"),
    path(casino + "machines/", include("regulator.machines")),  # the slot floor
    path(casino + "trial-balance/", v.TrialBalanceApi.as_view(),
         name="regulator-trial-balance"),
    path(casino + "gaming-tax/", v.GamingTaxApi.as_view(), name="regulator-gaming-tax"),
    path(casino + "bank-clearing/", v.BankClearingApi.as_view(),
         name="regulator-bank-clearing"),
    path(casino + "events/", v.EventListApi.as_view(), name="regulator-event-list"),
    path(casino + "chain/verification/", v.ChainVerifyApi.as_view(),
         name="regulator-chain-verify"),
    path(casino + "tip-periods/", tips_exchange.TipPeriodsApi.as_view(),
         name="regulator-tip-periods"),
    path(casino + "exchange/", tips_exchange.ExchangeApi.as_view(), name="regulator-exchange"),
    *pokerroom.urlpatterns,  # the poker room (issue 38)
]
