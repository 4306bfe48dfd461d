from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Pit (tables, sessions, rounds)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import projections  # noqa: F401  (registers the live projections)
        from .services import (
            approvals,  # noqa: F401  (registers the pit's kinds of approval)
            count_room,  # noqa: F401  (registers the four-eyes kind drop_variance)
        )
