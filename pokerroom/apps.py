from django.apps import AppConfig


class PokerRoomConfig(AppConfig):
    name = "pokerroom"
    verbose_name = "Poker room (non-banked games: póquer não bancado, chemin de fer)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import events, projections  # noqa: F401  (event classes, live projections)
