"""The daily register of a gaming day: one row per table, what the gaming tax reads of it
(``docs/gaming-tax.md``). The close records it and the close report shows it."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from casino.models import Casino
from casino.money import fmt
from games.models import Table, TableSession

ZERO = Decimal("0.00")


def day_register(casino: Casino, day: dt.date, results: list[dict[str, Any]]
              ) -> list[dict[str, Any]]:
    """The daily register of each table (``docs/gaming-tax.md``): its capital em giro inicial
    (the float its first session of the day opened with), drop and result, and what the tax
    reads of the table (banca simples or dupla, VIP)."""

    first: dict[str, Decimal] = {}
    for table, opening, rate in (TableSession.objects.filter(casino=casino, gaming_day=day)
                                 .order_by("table", "opened_at")
                                 .values_list("table", "opening_amount", "rate")):
        # a table in another currency: its float at its session's rate (docs/currencies.md)
        first.setdefault(table, opening if rate is None else (opening * rate).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP))
    classes = {code: (bank, vip) for code, bank, vip in
               Table.objects.filter(casino=casino).values_list("code", "bank", "vip")}
    register = []
    for r in results:
        bank, vip = classes.get(r["table"], ("simples", False))
        register.append({"table": r["table"], "game": r["game"], "bank": bank, "vip": vip,
                         "opening": fmt(first.get(r["table"], ZERO)), "drop": r["drop"],
                         # the non-banked games' commission collected: none is recorded yet
                         "win": r["win"], "commission": "0.00"})
    return register
