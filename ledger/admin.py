"""The ledger has nothing in the Django admin: the chart, the journal and the periods are
projections of events (the accountant reads them at ``/ledger/``; a period closes through
``close_period`` or the close of the day). The admin is for configuration only."""
