"""Setting a legal parameter of the slot floor (``MachineParameterSet``): an accountant or an
administrator, from a day on, citing the inspection's reference (docs/machines.md § Sources)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from casino.context import require_role
from casino.errors import InvalidCommand
from casino.models import Role
from casino.money import fmt
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata
from machines import law
from machines.answers import ParameterAnswer
from machines.events import MachineParameterSet
from machines.models import MachineParameter

from ._common import casino_get, text

PARAMETER_ROLES = (Role.ACCOUNTANT, Role.ADMINISTRATOR)
HUNDRED = Decimal(100)


def _value(name: str, value: object) -> Decimal:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        number = Decimal("NaN")
    good = number.is_finite() and number >= 0
    if name in ("minimum_return", "machine_tax_rate"):
        good = good and number <= HUNDRED
    if name == "ticket_days":
        good = good and number == number.to_integral_value() and number >= 1
    if not good:
        raise InvalidCommand("{value!r} is not a value for {name} (a percentage from 0 to 100, "
                             "an amount of 0 or more, or whole days from 1)",
                             params={"value": value, "name": name}, field="value")
    return number.quantize(Decimal("0.01"))


@command("machine_parameter_set")
def machine_parameter_set(*, casino: str, name: str, value: object, effective_from: object,
                          reference: str, metadata: Metadata) -> ParameterAnswer:
    """Set ``name`` to ``value`` from ``effective_from`` on, citing ``reference``."""
    require_role(metadata, PARAMETER_ROLES, "setting a legal parameter of the slot floor")
    casino_get(metadata, casino)
    if name not in law.SETTABLE:
        raise InvalidCommand("{name!r} is not a parameter of the slot floor ({known})",
                             params={"name": name, "known": ", ".join(law.SETTABLE)},
                             field="name")
    number = _value(name, value)
    try:
        day = dt.date.fromisoformat(str(effective_from))
    except ValueError:
        raise InvalidCommand("effective_from is a date (YYYY-MM-DD), not {value!r}",
                             params={"value": effective_from}, field="effective_from") from None
    cited = text(reference, field="reference")
    done = MachineParameter.objects.filter(casino_id=casino, name=name).count()
    store.append(f"machine_parameter/{casino}.{name}", [MachineParameterSet(
        name=name, value=number, effective_from=day, reference=cited)],
        expected_version=done, metadata=metadata)
    return ParameterAnswer(casino=casino, name=name, value=fmt(number),
                           effective_from=day.isoformat(), reference=cited)
