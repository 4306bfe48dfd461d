from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    name = "jackpots"
    verbose_name = "Progressive jackpots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # event classes, live projections, and the kinds of approval the services register
        from . import events, projections, services  # noqa: F401
