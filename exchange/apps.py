from django.apps import AppConfig


class ExchangeConfig(AppConfig):
    name = "exchange"
    verbose_name = "Exchange at the cage (câmbio)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import events, projections  # noqa: F401
