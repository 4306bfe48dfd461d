from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import projections  # noqa: F401  (registers the live projections)
