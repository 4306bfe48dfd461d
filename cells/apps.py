from django.apps import AppConfig


class CellsConfig(AppConfig):
    name = "cells"
    verbose_name = "Cells and the regulator's store"
    default_auto_field = "django.db.models.BigAutoField"
