"""Anti-money-laundering thresholds as data: each version with its jurisdiction, the day it took
effect and its legal source (``docs/patrons.md``). Pure: no Django.

``rule_for(jurisdiction, day)`` is the version in force on a gaming day; a new law or instruction
is a new version appended here with its ``valid_from``, never an edit of an old one (a recorded
alert names the version it applied, ``ThresholdRule.code``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

# The kinds of movement a patron makes, summed per gaming day (``PatronDay``).
PURCHASE = "purchase"      # chips bought at the cage for cash
REDEMPTION = "redemption"  # chips exchanged back at the cage
PAYOUT = "payout"          # winnings paid by the cage (a jackpot)
BUY_IN = "buy_in"          # cash exchanged for chips at a table (the drop)
KINDS = (PURCHASE, REDEMPTION, PAYOUT, BUY_IN)


@dataclass(frozen=True)
class ThresholdRule:
    code: str  # "PT-1": the version an alert names
    jurisdiction: str  # "PT" or "MO"
    valid_from: dt.date
    currency: str
    # identify and verify the patron at this amount or more, in one transaction of a kind below
    identify_at: Decimal
    identify_kinds: tuple[str, ...]
    # and in linked ones: the same patron's movements of those kinds in one gaming day
    linked: bool
    # only cash movements count (Macau's large-transaction rule)
    cash_only: bool
    # structuring: this many transactions of a day in [structuring_floor, identify_at)
    structuring_floor: Decimal
    structuring_count: int
    # anonymous structuring: this many movements naming no patron in [structuring_floor,
    # identify_at) at one cage window or one table within the casino's linking period (the
    # gaming day by default; no patron to link them by)
    anonymous_structuring_count: int
    # a large-transaction report of each cash movement at or above identify_at
    large_transaction_report: bool
    citation: str  # short, for the messages a cashier reads
    legal_source: str
    # enhanced diligence for a politically exposed patron at the threshold (source of funds and
    # a senior manager's approval, first): the article, or "" where it is not applied yet
    pep_citation: str
    # an alert for the compliance officer's examination of each movement of an identified (or
    # any) patron at or above this amount, where the law asks one beyond identification; None:
    # none (Macau's is the large-transaction report above)
    large_review_at: Decimal | None = None
    large_review_source: str = ""


RULES: tuple[ThresholdRule, ...] = (
    ThresholdRule(
        code="PT-1", jurisdiction="PT", valid_from=dt.date(2017, 9, 17), currency="EUR",
        identify_at=Decimal("2000.00"), identify_kinds=KINDS, linked=True, cash_only=False,
        structuring_floor=Decimal("1600.00"), structuring_count=2, anonymous_structuring_count=3,
        large_transaction_report=False, citation="Lei n.º 83/2017, art. 76.º",
        legal_source="Lei n.º 83/2017, de 18 de agosto, artigo 76.º, n.º 1 (identificação e "
                     "verificação da identidade do frequentador a partir de 2000 €, numa ou em "
                     "várias operações aparentemente relacionadas), n.ºs 3 e 4 (cheques), na "
                     "redação da Lei n.º 58/2020",
        pep_citation="Lei n.º 83/2017, art. 39.º, n.º 1, b) and c)",
        # UNVERIFIED (docs/patrons.md, § Large transactions): the duty to examine operations of
        # unusually large amount (Lei n.º 83/2017, dever de exame, art. 52.º as commentary
        # numbers it) sets no figure; 50,000.00 is a demonstration value for the compliance
        # officer to replace by the casino's own policy
        large_review_at=Decimal("50000.00"),
        large_review_source="Lei n.º 83/2017, art. 52.º (dever de exame; unverified, the "
                            "amount a demonstration value)"),
    ThresholdRule(
        code="MO-1", jurisdiction="MO", valid_from=dt.date(2016, 5, 13), currency="MOP",
        identify_at=Decimal("500000.00"), identify_kinds=KINDS, linked=False, cash_only=True,
        structuring_floor=Decimal("450000.00"), structuring_count=2,
        anonymous_structuring_count=3,
        large_transaction_report=True, citation="Instrução da DICJ n.º 1/2016",
        # the articles as amended in 2017 (a citation corrected in place: the figure did not
        # change); art. 7.º's wording and the instruction's articles are unconfirmed
        # (docs/patrons.md, Macau: what the search found)
        legal_source="Lei n.º 2/2006 (prevenção e repressão do crime de branqueamento de "
                     "capitais), artigos 6.º e 7.º, alterada pela Lei n.º 3/2017; Regulamento "
                     "Administrativo n.º 7/2006, artigo 3.º, na redacção do Regulamento "
                     "Administrativo n.º 17/2017; Instrução da DICJ n.º 1/2016 (transacções em "
                     "numerário de MOP 500 000 ou mais: identificação e declaração de "
                     "transacção de montante elevado)",
        # the instruction's enhanced diligence for politically exposed persons; its article was
        # not found, and commentary reports it at any amount, approved at board or executive
        # level: for the compliance officer to confirm (docs/patrons.md)
        pep_citation="Instrução da DICJ n.º 1/2016 (pessoas politicamente expostas)"),
)

# Retention of identification records and of the records of transactions, in years after the
# end of the business relationship (here: the patron's last recorded movement). Deployments may
# set ``COMPLIANCE_RETENTION_YEARS`` per jurisdiction (``compliance.services.patrons``).
RETENTION_YEARS: dict[str, int] = {
    "PT": 7,  # Lei n.º 83/2017, artigo 51.º (dever de conservação: sete anos)
    # Regulamento Administrativo n.º 7/2006 (na redacção do RA n.º 17/2017), dever de
    # conservação: five years as published commentary states it; the article and the moment it
    # runs from are for the compliance officer to confirm (docs/patrons.md)
    "MO": 5,
}


class NoRule(LookupError):
    pass


def rule_for(jurisdiction: str, day: dt.date) -> ThresholdRule:
    """The version in force on ``day`` (the latest that took effect on or before it)."""
    found = [r for r in RULES if r.jurisdiction == jurisdiction and r.valid_from <= day]
    if not found:
        raise NoRule(f"no anti-money-laundering threshold is set for {jurisdiction!r} on {day}")
    return max(found, key=lambda r: r.valid_from)


def rule_by_code(code: str) -> ThresholdRule:
    for rule in RULES:
        if rule.code == code:
            return rule
    raise NoRule(f"no threshold version {code!r}")
