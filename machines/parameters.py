"""The slot floor's legal parameters as of a day (selector): the last change an accountant or
administrator recorded (``MachineParameterSet``, with the inspection's reference), else the
default of ``machines.law`` flagged unverified (docs/machines.md § Sources)."""

from __future__ import annotations

import datetime as dt
from functools import cache

from casino.models import Casino
from eventstore import reads
from machines import law
from machines.models import MachineParameter


@cache
def _changes_sql() -> str:
    return (f"SELECT {reads.columns(MachineParameter, 'p')} FROM machines_machineparameter AS p "
            "WHERE p.casino_id = %s AND p.name = %s ORDER BY p.effective_from, p.position")


def parameter_read(casino: str, name: str) -> reads.Read:
    """What :func:`parameter` reads, for a command to send ahead (``command(reads=…)``)."""
    return _changes_sql(), [casino, name]


def parameter(casino: Casino, name: str, day: dt.date) -> law.Rule:
    default = law.rule(law.jurisdiction_of(casino.currency), name)
    changes = [law.Change(value=p.value, effective_from=p.effective_from,
                          reference=p.reference, position=p.position)
               for p in reads.every(_changes_sql(), [casino.code, name], MachineParameter)]
    return law.in_force(default, changes, day)


def parameters(casino: Casino, day: dt.date) -> list[law.Rule]:
    """Every settable parameter on ``day`` (a screen's or the API's list)."""
    return [parameter(casino, name, day) for name in law.SETTABLE]
