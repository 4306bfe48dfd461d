from django.apps import AppConfig


class TipsConfig(AppConfig):
    name = "tips"
    verbose_name = "Tips (gratificações)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # event classes and live projections
        from . import events, projections  # noqa: F401
