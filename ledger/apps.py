from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger (general ledger and reports)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import (
            events,  # noqa: F401  (registers PeriodClosed, GamingDayClosed)
            projections,  # noqa: F401  (registers the ledger projection)
        )
