"""``/api/v1/exchange/<casino>/…``: the exchange at the cage."""

from django.urls import URLPattern, URLResolver, path

from . import views as v

c = "<slug:casino>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(c + "currencies/", v.ExchangeCurrencyListApi.as_view(), name="exchange-currency-list"),
    path(c + "currencies/accept/", v.CurrencyAcceptApi.as_view(), name="currency-accept"),
    path(c + "currencies/<str:currency>/rate/", v.ExchangeRatePostApi.as_view(),
         name="exchange-rate-post"),
    path(c + "rates/<str:proposal>/approve/", v.ExchangeRateApproveApi.as_view(),
         name="exchange-rate-approve"),
    path(c + "desk/open/", v.ExchangeDeskOpenApi.as_view(), name="exchange-desk-open"),
    path(c + "holdings/", v.ExchangeHoldingListApi.as_view(), name="exchange-holding-list"),
    path(c + "deals/", v.ExchangeDealListApi.as_view(), name="exchange-deal-list"),
    path(c + "deals/buy/", v.ForeignCashBuyApi.as_view(), name="foreign-cash-buy"),
    path(c + "deals/sell/", v.ForeignCashSellApi.as_view(), name="foreign-cash-sell"),
    path(c + "revaluations/", v.ForeignCashRevalueApi.as_view(), name="foreign-cash-revalue"),
]
