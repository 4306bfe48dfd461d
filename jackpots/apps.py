from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    name = "jackpots"
    verbose_name = "Progressive jackpots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import events, projections  # noqa: F401  (event classes, live projections)
