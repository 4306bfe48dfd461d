"""Gaming taxes as data: each rate with its legal source, configurable per deployment.

``rates_for(jurisdiction)`` gives the rates in force; ``settings.LEDGER_GAMING_TAX_RATES`` may
override any field of a rate or add rates, by code::

    LEDGER_GAMING_TAX_RATES = {"pt-iej": {"rate": "...", "legal_source": "..."}}

and ``settings.LEDGER_CASINO_JURISDICTIONS`` may say which jurisdiction a casino answers to
(``{"lisboa": "PT"}``); by default a casino in euros is Portuguese and one in patacas is in Macau.

Portugal's special gaming tax (imposto especial de jogo) on table games depends on the casino's
gaming zone and concession (Decreto-Lei n.º 422/89, Lei do Jogo, art. 84.º and following, as
amended): this module does not guess it, so its rate is ``None`` (shown as "not configured")
until the deployment sets it. The report still gives the gross gaming revenue it is computed on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.conf import settings

CENT = Decimal("0.01")


@dataclass(frozen=True)
class TaxRate:
    code: str
    jurisdiction: str  # "PT" or "MO"
    name: str
    rate: Decimal | None  # percent of the base; None: not configured
    base: str
    legal_source: str
    note: str = ""

    def tax_on(self, base: Decimal) -> Decimal | None:
        if self.rate is None:
            return None
        return (base * self.rate / 100).quantize(CENT, rounding=ROUND_HALF_UP)


DEFAULT_RATES: tuple[TaxRate, ...] = (
    TaxRate(
        code="pt-iej", jurisdiction="PT",
        name="Imposto especial de jogo (special gaming tax), table games",
        rate=None, base="gross gaming revenue of the table games (receita bruta)",
        legal_source="Decreto-Lei n.º 422/89, de 2 de dezembro (Lei do Jogo), artigos 84.º e "
                     "seguintes, na redação em vigor",
        note="The rate depends on the gaming zone and the concession contract: set it in "
             "LEDGER_GAMING_TAX_RATES['pt-iej']['rate'] (percent)."),
    TaxRate(
        code="mo-special-gaming-tax", jurisdiction="MO",
        name="Imposto especial sobre o jogo (special gaming tax)",
        rate=Decimal("35"), base="gross gaming revenue (receitas brutas do jogo)",
        legal_source="Lei n.º 16/2001 (Regime jurídico da exploração de jogos de fortuna ou azar "
                     "em casino), artigo 27.º, as amended by Lei n.º 7/2022"),
    TaxRate(
        code="mo-public-foundation", jurisdiction="MO",
        name="Contribution to a public foundation (contrapartida)",
        rate=Decimal("2"), base="gross gaming revenue",
        legal_source="Lei n.º 16/2001, artigo 22.º, as amended by Lei n.º 7/2022",
        note="A contribution of the concession, paid beside the tax: check the concession "
             "contract's rate."),
    TaxRate(
        code="mo-development-contribution", jurisdiction="MO",
        name="Contribution to urban development, tourism promotion and social security",
        rate=Decimal("3"), base="gross gaming revenue",
        legal_source="Lei n.º 16/2001, artigo 22.º, as amended by Lei n.º 7/2022",
        note="A contribution of the concession, paid beside the tax: check the concession "
             "contract's rate."),
)


def _configured(rate: TaxRate, override: dict[str, Any]) -> TaxRate:
    changes = {k: v for k, v in override.items() if k in TaxRate.__dataclass_fields__}
    if "rate" in changes and changes["rate"] is not None:
        changes["rate"] = Decimal(str(changes["rate"]))
    return replace(rate, **changes)


def all_rates() -> list[TaxRate]:
    overrides: dict[str, dict[str, Any]] = getattr(settings, "LEDGER_GAMING_TAX_RATES", {})
    rates = {r.code: r for r in DEFAULT_RATES}
    for code, override in overrides.items():
        base = rates.get(code) or TaxRate(code=code, jurisdiction=str(override.get("jurisdiction",
                                                                                    "")),
                                          name=code, rate=None, base="gross gaming revenue",
                                          legal_source="")
        rates[code] = _configured(base, override)
    return list(rates.values())


def rates_for(jurisdiction: str) -> list[TaxRate]:
    return [r for r in all_rates() if r.jurisdiction == jurisdiction]


def jurisdiction_of(casino: str, currency: str) -> str:
    """The one rule, ``casino.jurisdictions`` (the regulator's API scopes by it too)."""
    from casino.jurisdictions import jurisdiction_of as rule

    return rule(casino, currency)
