from django.apps import AppConfig


class EdgeConfig(AppConfig):
    """What every area's API and screens share: the command view, the one error shape, the
    parsers, money and refusals in a person's words, the template filters."""

    name = "edge"
    verbose_name = "Edge (what the API and the screens share)"
    default_auto_field = "django.db.models.BigAutoField"
