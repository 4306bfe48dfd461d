from django.apps import AppConfig


class MachinesConfig(AppConfig):
    name = "machines"
    verbose_name = "Slot floor (máquinas automáticas)"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # event classes and live projections
        from . import events, projections  # noqa: F401
