from django.apps import AppConfig


class CageConfig(AppConfig):
    name = "cage"
    label = "cage"
    verbose_name = "Cage"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import projections  # noqa: F401  (registers the cage projections)
        from .services import approvals  # noqa: F401  (registers the cage's kinds of approval)
