from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "casino.compliance"
    label = "compliance"
    verbose_name = "Patrons and anti-money-laundering"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import projections  # noqa: F401  (registers the compliance projections)
        from .services import diligence  # noqa: F401  (registers the kind pep_movement)
