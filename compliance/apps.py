from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "compliance"
    label = "compliance"
    verbose_name = "Patrons and anti-money-laundering"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import projections  # noqa: F401  (registers the compliance projections)

        # registers the kinds of approval patron_correction and pep_movement
        from .services import corrections, diligence  # noqa: F401
