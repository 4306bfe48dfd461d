"""Jurisdictions: which regulator a casino answers to (one rule).

Portugal's inspector (SRIJ, Serviço de Regulação e Inspeção de Jogos) or Macau's (DICJ, Direcção
de Inspecção e Coordenação de Jogos): a casino in euros is Portuguese and one in patacas is in
Macau (``docs/regulator.md``; the gaming tax's rules follow the same rule, ``docs/gaming-tax.md``).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Jurisdiction(models.TextChoices):
    PORTUGAL = "PT", _("Portugal")
    MACAU = "MO", _("Macau")


BY_CURRENCY = {"EUR": Jurisdiction.PORTUGAL.value, "MOP": Jurisdiction.MACAU.value}


def jurisdiction_of(casino: str, currency: str) -> str:
    """The jurisdiction of ``casino`` (code), or "" when none can be said."""
    return BY_CURRENCY.get(currency, "")
