"""The machines' lines of a month's gaming-tax return (docs/machines.md § Tax): the month's win
by meters as each closed day fixed it (``GamingDayClosed``'s ``revenue["machine_win"]``), taxed
by the slot floor's pure rule (``machines.law.machine_tax``: Portugal's special gaming tax on
machines at its unverified rate; Macau's special gaming tax and contributions on the machines'
win, and the month's twelfth of the annual premium per machine on the floor, ``mo.premium_machine``
read at the month's last day). A month whose closes fixed no machine figures has no such lines,
so the returns of casinos without a slot floor are what they were."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from casino.errors import gettext_noop
from machines import law
from machines.parameters import parameter

from .models import DayClose
from .tax_rules import ZERO, Rules, TaxLine

NAMES = {
    "pt-iej-machines": gettext_noop("IEJ, gaming machines: their win by meters"),
    "mo-special-tax-machines": gettext_noop("Special gaming tax, gaming machines"),
    "mo-foundation-machines": gettext_noop("Contribution to a public foundation, gaming machines"),
    "mo-development-machines": gettext_noop("Urban development contribution, gaming machines"),
    "mo-premium-machines": gettext_noop("Premium per gaming machine, the month's twelfth"),
}


def machine_lines(rules: Rules, closes: Sequence[DayClose], last: dt.date) -> list[TaxLine]:
    """The machines' tax lines of the month whose closed days are ``closes``."""
    fixed = [c.revenue for c in closes if "machine_win" in c.revenue]
    if not fixed:
        return []
    win = sum((Decimal(str(r["machine_win"])) for r in fixed), ZERO)
    on_floor = int(str(fixed[-1].get("machines", "0")))  # the floor at the month's last close
    premium = (rules.number("mo.premium_machine", last) if rules.jurisdiction == "MO" else ZERO)
    # the rate as the casino's accountant set it for the month's last day, else the unverified
    # default (``machines.parameters``)
    rate = parameter(closes[-1].casino, "machine_tax_rate", last)
    return [TaxLine(code=t.code, name=NAMES[t.code], base=t.base, amount=t.amount,
                    rate=None if t.code == "mo-premium-machines" else t.rate, rates=(),
                    legal_source=t.source + ("" if t.verified else " (unverified)"))
            for t in law.machine_tax(rules.jurisdiction, win=win, machines=on_floor,
                                     premium_per_machine=premium, rate=rate)]


def machine_days(casino: str, first: dt.date, last: dt.date) -> set[dt.date]:
    """The days a machine was read: days with activity the return waits for their close."""
    from machines.models import MachineDay

    return set(MachineDay.objects.filter(casino_id=casino, gaming_day__gte=first,
                                         gaming_day__lte=last)
               .values_list("gaming_day", flat=True))
