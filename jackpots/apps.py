from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    name = "jackpots"
    default_auto_field = "django.db.models.BigAutoField"
