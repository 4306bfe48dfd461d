from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The seeded demo: its casinos and people (``seed_demo``) and the days it plays
    (``demo_day``), through every area's public services."""

    name = "demo"
    verbose_name = "Demo"
    default_auto_field = "django.db.models.BigAutoField"
