"""What the law (or, where the search found no article, a documented parameter) sets for the
slot floor. Pure: no Django. ``docs/machines.md`` § Sources cites each, and says which are
unverified parameters (as ``ledger.tax_rules`` flags its demonstration values).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

DL_422_89 = "Decreto-Lei n.º 422/89, de 2 de dezembro (Lei do Jogo), na redação em vigor"
PORTARIA_217_2007 = "Portaria n.º 217/2007, de 26 de fevereiro (DR 1.ª série, n.º 40)"
LEI_16_2001 = "Lei n.º 16/2001 (Macau), na redação da Lei n.º 7/2022"

#: Machines are games of chance a casino may run: DL 422/89, art. 4.º, n.º 1, g) ("jogos em
#: máquinas que pagam directamente prémios em fichas ou moedas") and art. 4.º, n.º 1, f)
#: (machines that do not pay directly but whose results depend on chance), as in force.
ALLOWED = f"{DL_422_89}, art. 4.º, n.º 1, alíneas f) e g)"


@dataclass(frozen=True)
class Rule:
    code: str
    value: Decimal
    source: str
    verified: bool  # False: the search found no article: a parameter to confirm


RULES: dict[str, dict[str, Rule]] = {
    "PT": {
        # The least return to players of a machine: the text the search reached (DL 422/89 and
        # the Portaria's seed copy, which stops before the machines' section) sets none; the
        # value is the inspection's usual condition of approval, to be confirmed.
        "minimum_return": Rule("pt.minimum_return", Decimal("80.00"),
                               f"{PORTARIA_217_2007}, which governs the execution of "
                               "the automatic gaming machines among its games: its machines' "
                               "section not reached; the inspection's approval of each model",
                               verified=False),
        # A hand pay paid by a cashier alone up to this amount; above it, a second person.
        "hand_pay_four_eyes": Rule("pt.hand_pay_four_eyes", Decimal("1000.00"),
                                   "the casino's internal control (no article found)",
                                   verified=False),
        # Days a ticket can be redeemed after it is printed.
        "ticket_days": Rule("pt.ticket_days", Decimal(90),
                            "the casino's TITO conditions approved by the inspection (no "
                            "article found)", verified=False),
        # The special gaming tax on machines: a percentage of their gross revenue (the win).
        "machine_tax_rate": Rule("pt.machine_tax_rate", Decimal("25.00"),
                                 f"{DL_422_89}, art. 84.º (the special gaming tax: the tax, "
                                 "no rate) and art. 87.º, n.º 1, C) (the machines' base, "
                                 "original wording, its terms not reached); the rate on "
                                 "machines' revenue is not in the text the search reached",
                                 verified=False),
    },
    "MO": {
        "minimum_return": Rule("mo.minimum_return", Decimal("80.00"),
                               "Regulamento Administrativo n.º 26/2012 and the DICJ's "
                               "technical standards (not reached)", verified=False),
        "hand_pay_four_eyes": Rule("mo.hand_pay_four_eyes", Decimal("10000.00"),
                                   "the casino's internal control (no article found)",
                                   verified=False),
        "ticket_days": Rule("mo.ticket_days", Decimal(30),
                            "the casino's TITO conditions (no article found)", verified=False),
        # Macau taxes machines' gross revenue as all gaming revenue: the special gaming tax and
        # the two contributions; the annual premium per machine is the ledger's parameter
        # (``mo.premium_machine``), accrued by twelfths.
        "machine_tax_rate": Rule("mo.machine_tax_rate", Decimal("35.00"),
                                 f"{LEI_16_2001}, art. 27.º", verified=True),
        "foundation_rate": Rule("mo.foundation_rate", Decimal("2.00"),
                                f"{LEI_16_2001}, art. 22.º", verified=True),
        "development_rate": Rule("mo.development_rate", Decimal("3.00"),
                                 f"{LEI_16_2001}, art. 22.º", verified=True),
    },
}


def rule(jurisdiction: str, name: str) -> Rule:
    return RULES[jurisdiction][name]


# The parameters a casino's accountant or administrator sets (``machine_parameter_set``), each a
# change from a day on citing the inspection's reference; until then the default above, flagged
# unverified.
SETTABLE = ("minimum_return", "hand_pay_four_eyes", "ticket_days", "machine_tax_rate")


@dataclass(frozen=True)
class Change:
    value: Decimal
    effective_from: dt.date
    reference: str
    position: int


def in_force(default: Rule, changes: Sequence[Change], day: dt.date) -> Rule:
    """The rule on ``day``: the last change in force from that day or before (the later one
    recorded when two start the same day), verified by its reference; else the default."""
    due = [c for c in changes if c.effective_from <= day]
    if not due:
        return default
    last = max(due, key=lambda c: (c.effective_from, c.position))
    return Rule(default.code, last.value, last.reference, verified=True)


def jurisdiction_of(currency: str) -> str:
    """A casino in euros answers to Portugal, one in patacas to Macau."""
    return {"EUR": "PT", "MOP": "MO"}.get(currency, "PT")


ZERO = Decimal("0.00")
CENT = Decimal("0.01")
TWELVE = Decimal(12)


@dataclass(frozen=True)
class TaxLine:
    code: str
    base: Decimal
    rate: Decimal
    amount: Decimal
    source: str
    verified: bool


def _pct(base: Decimal, rate: Decimal) -> Decimal:
    return (base * rate / Decimal(100)).quantize(CENT, rounding=ROUND_HALF_UP)


def machine_tax(jurisdiction: str, *, win: Decimal, machines: int,
                premium_per_machine: Decimal = ZERO, rate: Rule | None = None
                ) -> tuple[TaxLine, ...]:
    """A month's gaming tax on the machines: on their win by meters (never below zero: a month
    the machines lost pays nothing on them), and in Macau the month's twelfth of the annual
    premium for each machine on the floor. Rounded to the cent once per line (half up)."""
    base = max(win, ZERO)
    rules = {**RULES[jurisdiction], **({"machine_tax_rate": rate} if rate else {})}
    if jurisdiction == "PT":
        r = rules["machine_tax_rate"]
        return (TaxLine("pt-iej-machines", base, r.value, _pct(base, r.value), r.source,
                        r.verified),)
    lines = [TaxLine(f"mo-{name}", base, rules[key].value, _pct(base, rules[key].value),
                     rules[key].source, rules[key].verified)
             for name, key in (("special-tax-machines", "machine_tax_rate"),
                               ("foundation-machines", "foundation_rate"),
                               ("development-machines", "development_rate"))]
    twelfth = premium_per_machine / TWELVE
    lines.append(TaxLine("mo-premium-machines", Decimal(machines), twelfth,
                         (twelfth * machines).quantize(CENT, rounding=ROUND_HALF_UP),
                         f"{LEI_16_2001}, art. 20.º", True))
    return tuple(lines)
