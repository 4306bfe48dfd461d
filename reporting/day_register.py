"""The daily register of a gaming day: one row per table, what the gaming tax reads of it
(``docs/gaming-tax.md``). The close records it and the close report shows it."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from casino.errors import Words
from casino.models import Casino
from casino.money import fmt
from games.models import TableCapital, TableSession, TableTaxClass
from reporting.pokerroom_figures import register_rows

ZERO = Decimal("0.00")


def approved_capitals(casino: Casino, day: dt.date) -> dict[str, tuple[Decimal, str]]:
    """Each table's capital em giro inicial approved by the inspection and in force at the
    day's end (``TableCapitalApproved``, read as of the day): table → (capital, reference)."""
    found: dict[str, tuple[Decimal, str]] = {}
    for table, capital, reference in (TableCapital.objects.filter(
            casino=casino, recorded_at__lt=casino.gaming_day_end(day))
            .order_by("table", "position").values_list("table", "capital", "reference")):
        found[table] = (capital, reference)  # the last one of each table wins
    return found


def tax_classes(casino: Casino, day: dt.date) -> dict[str, tuple[str, bool]]:
    """Each table's tax class in force at the day's end (``TableTaxClassChanged``, read as of
    the day, never live: a class changed after the day's end, even before its close, is the
    next day's; issue 34): table → (bank, vip). A table never classed is simples, not VIP."""
    found: dict[str, tuple[str, bool]] = {}
    for table, bank, vip in (TableTaxClass.objects.filter(
            casino=casino, recorded_at__lt=casino.gaming_day_end(day))
            .order_by("table", "position").values_list("table", "bank", "vip")):
        found[table] = (bank, vip)  # the last one of each table wins
    return found


def capital_base(opening: Decimal, approved: tuple[Decimal, str] | None) -> tuple[Decimal, str]:
    """The IEJ's capital em giro inicial of a table's day and where it comes from
    (Decreto-Lei n.º 422/89, art. 87.º, n.º 1, A), a): the capital used, from the registers;
    art. 58.º, n.º 2: the bank's capital the inspection knows). The approved capital is the
    least base: an opening below it (a tray opened empty and filled a minute later) does not
    lower it; an opening above it is the capital used."""
    if approved is None:
        return opening, str(Words("the first session's opening: no approved capital recorded"))
    capital, reference = approved
    if opening > capital:
        return opening, str(Words("the first session's opening, above the approved capital "
                                  "({reference})", reference=reference))
    return capital, str(Words("the approved capital ({reference})", reference=reference))


def day_register(casino: Casino, day: dt.date, results: list[dict[str, Any]]
              ) -> list[dict[str, Any]]:
    """The daily register of each table (``docs/gaming-tax.md``): its first session's opening
    float, its capital em giro inicial (``capital``, the IEJ's base, and ``capital_source``,
    where it came from: ``capital_base``), drop and result, and what the tax reads of the table
    (banca simples or dupla, VIP)."""

    first: dict[str, Decimal] = {}
    for table, opening, rate in (TableSession.objects.filter(casino=casino, gaming_day=day)
                                 .order_by("table", "opened_at")
                                 .values_list("table", "opening_amount", "rate")):
        # a table in another currency: its float at its session's rate (docs/currencies.md)
        first.setdefault(table, opening if rate is None else (opening * rate).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP))
    classes = tax_classes(casino, day)
    approved = approved_capitals(casino, day)
    register = []
    for r in results:
        bank, vip = classes.get(r["table"], ("simples", False))
        opening = first.get(r["table"], ZERO)
        capital, source = capital_base(opening, approved.get(r["table"]))
        register.append({"table": r["table"], "game": r["game"], "bank": bank, "vip": vip,
                         "opening": fmt(opening), "capital": fmt(capital),
                         "capital_source": source, "drop": r["drop"],
                         "win": r["win"], "commission": "0.00"})
    # the non-banked games: their commission collected (the poker room)
    return register + register_rows(casino.code, day)
