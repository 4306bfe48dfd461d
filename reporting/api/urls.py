"""``/api/v1/ledger/<casino>/…``: the ledger, read-only (accountants, regulators,
administrators), with streamed exports."""

from django.urls import URLPattern, URLResolver, path

from . import views as v

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:casino>/accounts/", v.AccountListApi.as_view(), name="ledger-account-list"),
    path("<slug:casino>/journal/", v.JournalEntryListApi.as_view(), name="ledger-entry-list"),
    path("<slug:casino>/journal/<int:number>/", v.JournalEntryDetailApi.as_view(),
         name="ledger-entry-detail"),
    path("<slug:casino>/journal.csv", v.JournalExportApi.as_view(), {"file": "csv"},
         name="ledger-journal-csv"),
    path("<slug:casino>/journal.xlsx", v.JournalExportApi.as_view(), {"file": "xlsx"},
         name="ledger-journal-xlsx"),
    path("<slug:casino>/trial-balance/", v.TrialBalanceApi.as_view(),
         name="ledger-trial-balance"),
    path("<slug:casino>/trial-balance.csv", v.TrialBalanceExportApi.as_view(), {"file": "csv"},
         name="ledger-trial-balance-csv"),
    path("<slug:casino>/trial-balance.xlsx", v.TrialBalanceExportApi.as_view(),
         {"file": "xlsx"}, name="ledger-trial-balance-xlsx"),
    path("<slug:casino>/results/", v.TableResultListApi.as_view(), name="ledger-results"),
    path("<slug:casino>/gross-gaming-revenue/", v.GrossGamingRevenueApi.as_view(),
         name="ledger-gross-gaming-revenue"),
    path("<slug:casino>/periods/", v.PeriodListApi.as_view(), name="ledger-period-list"),
    path("<slug:casino>/close-report/<str:day>.csv", v.CloseReportExportApi.as_view(),
         {"file": "csv"}, name="ledger-close-report-csv"),
    path("<slug:casino>/close-report/<str:day>.pdf", v.CloseReportExportApi.as_view(),
         {"file": "pdf"}, name="ledger-close-report-pdf"),
    path("<slug:casino>/close-report/<str:day>/", v.CloseReportApi.as_view(),
         name="ledger-close-report"),
    path("<slug:casino>/bank/", v.BankClearingApi.as_view(), name="ledger-bank-clearing"),
    path("<slug:casino>/reconciliation/<str:day>/", v.ReconciliationApi.as_view(),
         name="ledger-reconciliation"),
]
