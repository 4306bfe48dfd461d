from django.apps import AppConfig


class ShellConfig(AppConfig):
    """Homes, navigation, any thing's history, approvals, seals, tokens, the API root and the
    Django admin of the casinos' configuration: the doors that span every area."""

    name = "shell"
    verbose_name = "Shell (homes, navigation, history)"
    default_auto_field = "django.db.models.BigAutoField"
