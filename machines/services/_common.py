"""What the slot floor's services share: look-ups, the casino's facts, refusals from the pure
core, the second person's check."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from casino.errors import InvalidCommand, NotAllowed, NotFound
from casino.models import Casino, Membership
from eventstore import clock, projections, reads
from eventstore.records import Metadata
from machines.meters import MeterError
from machines.models import Machine, MachineBox, SlotTicket
from machines.parameters import parameter_read

CODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")


# The floor's look-ups as the event store's reads (``eventstore.reads``): prepared statements,
# and, for a command that declares them (``command(reads=…)``: ``floor_reads``), sent with the
# append lock in the command's first round trip instead of one round trip each (issue 36: the
# demo's floor records thousands of tickets and box counts a day).
@cache
def _casino_sql() -> str:
    return f"SELECT {reads.columns(Casino, 'c')} FROM casino_casino AS c WHERE c.code = %s"


@cache
def _machine_sql() -> str:
    return (f"SELECT {reads.columns(Machine, 'm')} FROM machines_machine AS m "
            "WHERE m.casino_id = %s AND m.number = %s")


@cache
def _ticket_sql() -> str:
    return (f"SELECT {reads.columns(SlotTicket, 't')} FROM machines_slotticket AS t "
            "WHERE t.casino_id = %s AND t.validation = %s")


@cache
def _box_sql() -> str:
    return (f"SELECT {reads.columns(MachineBox, 'b')} FROM machines_machinebox AS b "
            "WHERE b.casino_id = %s AND b.drop_id = %s")


def floor_reads(arguments: Mapping[str, Any], *, parameter: str = "") -> list[reads.Read]:
    """What a floor command reads first, from its arguments: its casino, and the machine,
    ticket (``validation``) or box (``drop_id``) it names, the casino's changes of the
    ``parameter`` it applies, and what the live projections read to post it (the ledger's
    casino settings and closed days)."""
    casino = arguments.get("casino")
    if not isinstance(casino, str):
        return []
    found: list[reads.Read] = [(_casino_sql(), [casino])]
    for name, sql in (("machine", _machine_sql), ("validation", _ticket_sql),
                      ("drop_id", _box_sql)):
        value = arguments.get(name)
        if isinstance(value, str) and value:
            found.append((sql(), [casino, value]))
    if parameter:
        found.append(parameter_read(casino, parameter))
    return found + projections.reads_ahead({"casino": casino, "session_id": "",
                                            "at": clock.now()})


def ticket_find(casino: str, validation: str) -> SlotTicket | None:
    found = reads.one(_ticket_sql(), [casino, validation], SlotTicket)
    ticket = None if found is None else found[0]
    assert ticket is None or isinstance(ticket, SlotTicket)
    return ticket


def box_find(casino: str, drop_id: str) -> MachineBox | None:
    found = reads.one(_box_sql(), [casino, drop_id], MachineBox)
    box = None if found is None else found[0]
    assert box is None or isinstance(box, MachineBox)
    return box


def casino_get(metadata: Metadata, casino: str) -> Casino:
    if metadata.casino != casino:
        raise InvalidCommand("this belongs to casino {casino!r}, not {casino_2!r}",
                             params={"casino": casino, "casino_2": metadata.casino})
    found = reads.one(_casino_sql(), [casino], Casino)
    if found is None:
        raise NotFound("there is no casino {casino!r}", params={"casino": casino})
    assert isinstance(found[0], Casino)
    return found[0]


def machine_get(casino: str, number: str) -> Machine:
    row = reads.one(_machine_sql(), [casino, number], Machine)
    found = None if row is None else row[0]
    assert found is None or isinstance(found, Machine)
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
