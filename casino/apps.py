from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from axes.signals import user_locked_out

        from . import projections  # noqa: F401  (registers the live projections)
        from .security import log_lockout

        user_locked_out.connect(log_lockout, dispatch_uid="casino.security.log_lockout")
