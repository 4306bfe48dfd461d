"""The slot floor's legal parameters as of a day (selector): the last change an accountant or
administrator recorded (``MachineParameterSet``, with the inspection's reference), else the
default of ``machines.law`` flagged unverified (docs/machines.md § Sources)."""

from __future__ import annotations

import datetime as dt

from casino.models import Casino
from machines import law
from machines.models import MachineParameter


def parameter(casino: Casino, name: str, day: dt.date) -> law.Rule:
    default = law.rule(law.jurisdiction_of(casino.currency), name)
    changes = [law.Change(value=p.value, effective_from=p.effective_from,
                          reference=p.reference, position=p.position)
               for p in MachineParameter.objects.filter(casino_id=casino.code, name=name)]
    return law.in_force(default, changes, day)


def parameters(casino: Casino, day: dt.date) -> list[law.Rule]:
    """Every settable parameter on ``day`` (a screen's or the API's list)."""
    return [parameter(casino, name, day) for name in law.SETTABLE]
