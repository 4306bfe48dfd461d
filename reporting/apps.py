from django.apps import AppConfig


class ReportingConfig(AppConfig):
    """What reads every area: the day close and its seal, the close report, reconciliation,
    the regulator file, archives and exports, and the accountant's desk that shows them."""

    name = "reporting"
    verbose_name = "Reporting (day close, close report, reconciliation, regulator file)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import closes  # noqa: F401  (registers the four-eyes kind close_exception)
