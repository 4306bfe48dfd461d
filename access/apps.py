from django.apps import AppConfig


class AccessConfig(AppConfig):
    """Who may call the API: the one token model, the regulators' jurisdictions, the access log."""

    name = "access"
    label = "access"
    verbose_name = "API access"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import (
            roles,  # noqa: F401  (the role_grant approval; the roles' events)
            signals,  # noqa: F401  (a password change revokes the user's tokens)
        )
