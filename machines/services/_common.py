"""What the slot floor's services share: look-ups, the casino's facts, refusals from the pure
core, the second person's check."""

from __future__ import annotations

import re

from casino.errors import InvalidCommand, NotAllowed, NotFound
from casino.models import Casino, Membership
from eventstore.records import Metadata
from machines.meters import MeterError
from machines.models import Machine

CODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")


def casino_get(metadata: Metadata, casino: str) -> Casino:
    if metadata.casino != casino:
        raise InvalidCommand("this belongs to casino {casino!r}, not {casino_2!r}",
                             params={"casino": casino, "casino_2": metadata.casino})
    found = Casino.objects.filter(code=casino).first()
    if found is None:
        raise NotFound("there is no casino {casino!r}", params={"casino": casino})
    return found


def machine_get(casino: str, number: str) -> Machine:
    found = Machine.objects.filter(casino_id=casino, number=number).first()
    if found is None:
        raise NotFound("there is no machine {machine!r} in casino {casino!r}",
                       params={"machine": number, "casino": casino}, code="unknown_machine",
                       field="machine", machine=number)
    return found


def code(value: object, *, field: str) -> str:
    if not isinstance(value, str) or not CODE.match(value):
        raise InvalidCommand("{field} is letters, digits, dots, dashes or underscores (at most "
                             "32), not {value!r}", params={"field": field, "value": value},
                             field=field)
    return value


def text(value: object, *, field: str, required: bool = True) -> str:
    if not isinstance(value, str) or (required and not value.strip()):
        raise InvalidCommand("{field} is required", params={"field": field}, field=field)
    return value.strip()


def meter_error(error: MeterError, **extra: object) -> InvalidCommand:
    return InvalidCommand(error.template, params=dict(error.params), code=error.code, **extra)


def second_person(metadata: Metadata, casino: str, username: str, roles: tuple[str, ...],
                  *, what: str) -> str:
    """A second person: another member of the casino, in one of ``roles``."""
    name = text(username, field="witnessed_by")
    if name == metadata.actor:
        raise NotAllowed("{what} needs a second person: {name} cannot witness their own",
                         params={"what": what, "name": name}, code="four_eyes")
    if not Membership.objects.filter(casino_id=casino, user__username=name,
                                     role__in=roles).exists():
        raise NotAllowed("{name} is not a {roles} of {casino}: {what} needs one as the second "
                         "person", params={"name": name, "roles": " or ".join(roles),
                                           "casino": casino, "what": what},
                         code="four_eyes")
    return name
