"""``/ledger/…``: the accountant's pages (reads and streamed downloads; the gaming tax's and
the bank clearing's forms)."""

from django.urls import URLPattern, URLResolver, path

from . import desk, desk_charts, views

app_name = "ledger"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.casino_list, name="casinos"),
    path("<slug:casino>/", views.overview, name="overview"),
    path("<slug:casino>/desk/", desk.desk, name="desk"),
    path("<slug:casino>/desk/charts.pdf", desk_charts.desk_charts_pdf, name="desk-charts-pdf"),
    path("<slug:casino>/exports/<uuid:export_id>/", desk.export_page, name="export"),
    path("<slug:casino>/exports/<uuid:export_id>/file", desk.export_file, name="export-file"),
    path("<slug:casino>/trial-balance/", views.trial_balance_page, name="trial-balance"),
    path("<slug:casino>/journal/", views.journal_page, name="journal"),
    path("<slug:casino>/journal/<int:number>/", views.entry_page, name="entry"),
    path("<slug:casino>/results/", views.results_page, name="results"),
    path("<slug:casino>/revenue/", views.revenue_page, name="revenue"),
    path("<slug:casino>/gaming-tax/", views.gaming_tax_page, name="gaming-tax"),
    path("<slug:casino>/gaming-tax.csv", views.gaming_tax_file, {"file": "csv"},
         name="gaming-tax-csv"),
    path("<slug:casino>/gaming-tax.pdf", views.gaming_tax_file, {"file": "pdf"},
         name="gaming-tax-pdf"),
    path("<slug:casino>/bank/", views.bank_page, name="bank"),
    path("<slug:casino>/reconciliation/", views.reconciliation_page, name="reconciliation"),
    path("<slug:casino>/close/", views.close_page, name="close"),
    path("<slug:casino>/close/closing/<uuid:task>/", views.day_closing, name="closing"),
    path("<slug:casino>/close-report/", views.close_report_page, name="close-report"),
    path("<slug:casino>/close-report.csv", views.close_report_file, {"file": "csv"},
         name="close-report-csv"),
    path("<slug:casino>/close-report.pdf", views.close_report_file, {"file": "pdf"},
         name="close-report-pdf"),
    path("<slug:casino>/journal.csv", views.journal_file, {"file": "csv"}, name="journal-csv"),
    path("<slug:casino>/journal.xlsx", views.journal_file, {"file": "xlsx"},
         name="journal-xlsx"),
    path("<slug:casino>/trial-balance.csv", views.trial_balance_file, {"file": "csv"},
         name="trial-balance-csv"),
    path("<slug:casino>/trial-balance.xlsx", views.trial_balance_file, {"file": "xlsx"},
         name="trial-balance-xlsx"),
]
