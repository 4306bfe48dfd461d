"""The tips' side of the demo gaming day (``docs/tips.md``), through the tips' own services.

Each casino's rooms tip: at the end of the day a tip box of every table that played and one of
the main room goes to the count room, where one cashier counts it and another confirms it (the
tips are then held for the staff). In Lisbon a tip found in a table's drop box is reported by
one pit boss and confirmed by another. Lisbon shares its tips by the month, as the law says
(Portaria 1159/90, Despacho Normativo 42/89); Macau by the day, as its (demo) policy says: so
each demo day distributes Macau's previous gaming day, over by then, while Lisbon's boxes of
the month stay counted and held until the month is over. Every figure is drawn from the demo
day's ``random.Random``: the same seed gives the same tips.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from casino.context import system_metadata
from casino.models import Casino, Role
from casino.money import CASH_DENOMINATIONS, Money, fmt
from eventstore.records import Metadata
from tips import distribution
from tips.models import TipBox, TipPeriod, TipRule, TipStaff
from tips.services import (
    tip_box_count,
    tip_box_count_confirm,
    tip_box_drop,
    tip_misplacement_confirm,
    tip_misplacement_report,
    tip_period_distribute,
    tip_rule_set,
    tip_staff_register,
)

if TYPE_CHECKING:
    from demo.day import DemoDay

JOB = "demo_day"
# casino -> (period, fund's percentage (None: the law's), categories and points, source, staff)
RULES: dict[str, tuple[str, str | None, dict[str, str], str, list[tuple[str, str]]]] = {
    "lisboa": ("month", None, {"chefe": "14", "croupier": "10", "caixa": "8"},
               "Portaria 1159/90 (regras do Despacho Normativo 24/89); coeficientes do demo, "
               "por verificar",
               [("L01", "chefe"), ("L02", "croupier"), ("L03", "croupier"),
                ("L04", "croupier"), ("L05", "caixa")]),
    "macau": ("day", "0", {"supervisor": "2", "dealer": "1"},
              "política de gratificações do casino (demo): fundo diário repartido por pontos",
              [("M01", "supervisor"), ("M02", "dealer"), ("M03", "dealer"), ("M04", "dealer")]),
}


def _as(casino: str, role: str, who: str) -> Metadata:
    meta = system_metadata(casino, job=JOB)
    return Metadata(actor=f"{meta.actor}:{who}", role=role, casino=casino,
                    request_id=meta.request_id, correlation_id=meta.correlation_id)


def _cash(rng: random.Random, currency: str, unit: int) -> dict[str, int]:
    """A tip box's notes: a few of the smaller notes of the currency."""
    notes = [d for d in CASH_DENOMINATIONS[currency] if Decimal(5) <= d <= Decimal(unit)]
    return {fmt(d): rng.randint(0, 6) for d in notes[-3:]}


def _configure(casino: str) -> None:
    period, percent, categories, source, staff = RULES[casino]
    config = _as(casino, Role.ADMINISTRATOR, "config")
    if not TipRule.objects.filter(casino_id=casino).exists():
        tip_rule_set(period=period, categories=categories, source=source,
                     effective_from="2020-01-01", fund_percent=percent, metadata=config)
    for number, category in staff:
        if not TipStaff.objects.filter(casino_id=casino, staff_number=number).exists():
            tip_staff_register(staff_number=number, category=category, since="2020-01-01",
                               metadata=config)


def _boxes(casino: Casino, day: dt.date, tables: Sequence[str], rng: random.Random) -> None:
    pit, first, second = (_as(casino.code, Role.PIT_BOSS, "pit"),
                          _as(casino.code, Role.CASHIER, "counter-1"),
                          _as(casino.code, Role.CASHIER, "counter-2"))
    unit = 20 if casino.currency == "EUR" else 100
    for place, code in [*(("table", t) for t in tables), ("room", "main")]:
        box = f"{place}-{code}"
        if TipBox.objects.filter(casino_id=casino.code, gaming_day=day, box=box).exists():
            continue
        tip_box_drop(place=place, code=code, gaming_day=day, metadata=pit)
        cash = _cash(rng, casino.currency, unit)
        tip_box_count(gaming_day=day, box=box, cash=cash, metadata=first)
        tip_box_count_confirm(gaming_day=day, box=box, cash=cash, metadata=second)


def play_day(d: DemoDay) -> None:
    """The tips' part of one casino's demo day (``demo.days.DAY_PLAYERS``): first each period
    over by this day, its boxes counted, is distributed (Macau's previous day; Lisbon's month
    once it is over, so never within the demo's days but at a month's turn); then the day's tip
    boxes (one a table that played, one of the main room) are dropped, counted by one cashier
    and confirmed by another; in Lisbon a tip found in a drop box is moved to the tips."""
    if d.casino not in RULES:
        return
    casino = Casino.objects.get(code=d.casino)
    _configure(d.casino)
    _distribute(casino, d.day)
    tables = sorted({s.table for s in d.sessions})
    _boxes(casino, d.day, tables, d.rng)
    if d.casino == "lisboa" and tables:
        found = tip_misplacement_report(
            direction="drop_to_tips", table=tables[0], gaming_day=d.day,
            amount=Money(Decimal("5.00")), reason="gratificação de um jogador metida na caixa de depósito",
            metadata=_as(d.casino, Role.PIT_BOSS, "pit"))
        tip_misplacement_confirm(correction_id=found.correction_id,
                                 metadata=_as(d.casino, Role.PIT_BOSS, "pit-2"))


def _distribute(casino: Casino, today: dt.date) -> None:
    """Every period of the boxes before ``today`` that is over and not distributed yet."""
    kind = TipRule.objects.get(casino_id=casino.code).period
    periods = {distribution.period_of(day, kind)
               for day in TipBox.objects.filter(casino_id=casino.code, gaming_day__lt=today)
               .values_list("gaming_day", flat=True)}
    done = set(TipPeriod.objects.filter(casino_id=casino.code).values_list("period", flat=True))
    accountant = _as(casino.code, Role.ACCOUNTANT, "accounts")
    for period, _first, last in sorted(periods):
        if period not in done and last < today:
            tip_period_distribute(period=period, metadata=accountant)
