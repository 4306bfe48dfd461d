from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The composition root: settings, URLs, Celery, the embedded database, ``dev_run``.
    It imports the areas; nothing imports it."""

    name = "config"
    verbose_name = "Configuration"
    default_auto_field = "django.db.models.BigAutoField"
