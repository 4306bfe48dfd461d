"""The month's gaming tax on the machines (docs/machines.md § Tax), beside the ledger's monthly
return: the machines' win by meters over the month's gaming days, the pure rule
(``machines.law.machine_tax``), and in Macau the premium per machine the ledger's tax
parameters set (``mo.premium_machine``), counted on the machines on the floor."""

from __future__ import annotations

import calendar
import datetime as dt

from casino.models import Casino
from ledger.taxes import rules_for
from machines import law, selectors
from machines.models import Machine


def machine_month_tax(casino: str, month: dt.date) -> tuple[law.TaxLine, ...]:
    found = Casino.objects.get(code=casino)
    first = month.replace(day=1)
    last = month.replace(day=calendar.monthrange(month.year, month.month)[1])
    jurisdiction = law.jurisdiction_of(found.currency)
    premium = (rules_for(found).number("mo.premium_machine", last) if jurisdiction == "MO"
               else law.ZERO)
    machines = Machine.objects.filter(casino_id=casino, retired=False).count()
    return law.machine_tax(jurisdiction, win=selectors.month_win(casino, first, last),
                           machines=machines, premium_per_machine=premium)
