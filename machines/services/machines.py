"""Machines as configured assets: added, configured, moved, in or out of service, retired. Each
change is an event with its author; a configuration needs the inspection's approval reference;
the certified return is the pay table's, never below the legal minimum (``machines.law``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand
from casino.money import Money, fmt
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from machines import meters as m
from machines.answers import MachineAnswer
from machines.events import (
    MachineAdded,
    MachineConfigured,
    MachineMoved,
    MachineRetired,
    MachineServiceChanged,
)
from machines.models import Machine, SlotProgressive
from machines.parameters import parameter
from machines.roles import CONFIGURE_ROLES

from ._common import casino_get, code, machine_get, meter_error, text


def _date(value: object, *, field: str) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise InvalidCommand("{field} is a date such as 2026-12-07, not {value!r}",
                             params={"field": field, "value": value}, field=field) from None


def _game(casino: Any, *, game: str, paytable: object, denomination: Money,
          hand_pay_limit: Money, progressive_pool: str) -> dict[str, Any]:
    """The game's configuration checked: the pay table's return at least the legal minimum."""
    try:
        lines = m.parse_paytable(paytable)
    except m.MeterError as error:
        raise meter_error(error, field="paytable") from None
    certified = m.theoretical_return(lines)
    minimum = parameter(casino, "minimum_return", casino.gaming_day(clock.now()))
    if certified < minimum.value:
        raise InvalidCommand("the pay table returns {certified}% to players, below the legal "
                             "minimum of {minimum}% ({source})",
                             params={"certified": certified, "minimum": minimum.value,
                                     "source": minimum.source},
                             code="return_below_minimum", field="paytable")
    if progressive_pool and not SlotProgressive.objects.filter(
            casino_id=casino.code, pool=progressive_pool).exists():
        raise InvalidCommand("there is no progressive pool {pool!r}",
                             params={"pool": progressive_pool}, field="progressive_pool")
    return dict(game=text(game, field="game"),
                paytable=tuple({"weight": p.weight, "pays": p.pays} for p in lines),
                denomination=denomination, certified_return=certified,
                return_spread=m.return_spread(lines), hand_pay_limit=hand_pay_limit,
                progressive_pool=progressive_pool)


@command("machine_add")
def machine_add(*, casino: str, machine: str, bank: str, position: str, manufacturer: str,
                model: str, serial: str, game: str, paytable: object, denomination: Money,
                hand_pay_limit: Money, approved_on: object, approval_reference: str,
                progressive_pool: str = "", metadata: Metadata) -> MachineAnswer:
    """Put a machine on the floor (``MachineAdded``)."""
    require_role(metadata, CONFIGURE_ROLES, "adding a machine")
    place = casino_get(metadata, casino)
    number = code(machine, field="machine")
    config = _game(place, game=game, paytable=paytable, denomination=denomination,
                   hand_pay_limit=hand_pay_limit, progressive_pool=progressive_pool)
    if Machine.objects.filter(casino_id=casino, number=number).exists():
        raise Conflict("machine {machine!r} is already on the floor of {casino}",
                       params={"machine": number, "casino": casino}, field="machine")
    event = MachineAdded(
        machine=number, casino=casino, bank=code(bank, field="bank"),
        position=code(position, field="position"),
        manufacturer=text(manufacturer, field="manufacturer"), model=text(model, field="model"),
        serial=text(serial, field="serial"), approved_on=_date(approved_on, field="approved_on"),
        approval_reference=text(approval_reference, field="approval_reference"), **config)
    store.append(f"machine/{casino}.{number}", [event], expected_version=0, metadata=metadata)
    return MachineAnswer(casino=casino, machine=number, config_version=1, version=1,
                         certified_return=fmt(config["certified_return"]))


@command("machine_configure")
def machine_configure(*, casino: str, machine: str, game: str, paytable: object,
                      denomination: Money, hand_pay_limit: Money, approved_on: object,
                      approval_reference: str, progressive_pool: str = "", reason: str = "",
                      metadata: Metadata) -> MachineAnswer:
    """A new configuration (``MachineConfigured``), approved by the inspection."""
    require_role(metadata, CONFIGURE_ROLES, "configuring a machine")
    place = casino_get(metadata, casino)
    found = machine_get(casino, machine)
    if found.retired:
        raise Conflict("machine {machine} is retired", params={"machine": machine},
                       code="machine_retired")
    config = _game(place, game=game, paytable=paytable, denomination=denomination,
                   hand_pay_limit=hand_pay_limit, progressive_pool=progressive_pool)
    old = {"game": found.game, "paytable": tuple(dict(p) for p in found.paytable),
           "denomination": found.denomination, "hand_pay_limit": found.hand_pay_limit,
           "progressive_pool": found.progressive_pool}
    changed = tuple(k for k in old if old[k] != config[k])
    if not changed:
        raise InvalidCommand("nothing changes in machine {machine}'s configuration",
                             params={"machine": machine}, code="nothing_changed")
    store.append(found.stream, [MachineConfigured(
        machine=machine, config_version=found.config_version + 1, changed=changed,
        approved_on=_date(approved_on, field="approved_on"),
        approval_reference=text(approval_reference, field="approval_reference"),
        reason=reason, **config)], expected_version=found.version, metadata=metadata)
    return MachineAnswer(casino=casino, machine=machine,
                         config_version=found.config_version + 1, version=found.version + 1,
                         certified_return=fmt(config["certified_return"]))


@command("machine_move")
def machine_move(*, casino: str, machine: str, bank: str, position: str, reason: str = "",
                 metadata: Metadata) -> MachineAnswer:
    require_role(metadata, CONFIGURE_ROLES, "moving a machine")
    casino_get(metadata, casino)
    found = machine_get(casino, machine)
    if found.retired:
        raise Conflict("machine {machine} is retired", params={"machine": machine},
                       code="machine_retired")
    store.append(found.stream, [MachineMoved(
        machine=machine, bank=code(bank, field="bank"), position=code(position, field="position"),
        from_bank=found.bank, from_position=found.position, reason=reason)],
        expected_version=found.version, metadata=metadata)
    return MachineAnswer(casino=casino, machine=machine, config_version=found.config_version,
                         version=found.version + 1)


@command("machine_service_set")
def machine_service_set(*, casino: str, machine: str, in_service: bool, reason: str,
                        metadata: Metadata) -> MachineAnswer:
    require_role(metadata, (*CONFIGURE_ROLES, "pit_boss"), "taking a machine in or out of "
                 "service")
    casino_get(metadata, casino)
    found = machine_get(casino, machine)
    if found.retired:
        raise Conflict("machine {machine} is retired", params={"machine": machine},
                       code="machine_retired")
    if found.in_service == bool(in_service):
        raise Conflict("machine {machine} is already {state}",
                       params={"machine": machine,
                               "state": "in service" if in_service else "out of service"},
                       code="nothing_changed")
    store.append(found.stream, [MachineServiceChanged(
        machine=machine, in_service=bool(in_service), reason=text(reason, field="reason"))],
        expected_version=found.version, metadata=metadata)
    return MachineAnswer(casino=casino, machine=machine, config_version=found.config_version,
                         version=found.version + 1)


@command("machine_retire")
def machine_retire(*, casino: str, machine: str, reason: str, approval_reference: str,
                   metadata: Metadata) -> MachineAnswer:
    require_role(metadata, CONFIGURE_ROLES, "retiring a machine")
    casino_get(metadata, casino)
    found = machine_get(casino, machine)
    if found.retired:
        raise Conflict("machine {machine} is retired", params={"machine": machine},
                       code="machine_retired")
    store.append(found.stream, [MachineRetired(
        machine=machine, reason=text(reason, field="reason"),
        approval_reference=text(approval_reference, field="approval_reference"))],
        expected_version=found.version, metadata=metadata)
    return MachineAnswer(casino=casino, machine=machine, config_version=found.config_version,
                         version=found.version + 1)
