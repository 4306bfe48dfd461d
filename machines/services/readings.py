"""Meter readings as events: a slot data system's bulk ingest, a file import, a meter read by
hand (``meter_readings_record``); a rollover or a RAM clear witnessed by a second person
(``meter_reset_record``).

A batch applies its good readings and answers each bad one with its reason (an unknown machine,
a meter gone back, a reading older than the last applied, a malformed meter); a reading already
recorded (same machine, same reading id) is answered ``duplicate`` and recorded nothing again,
so sending the same batch twice records nothing twice. A gap (readings missed) needs nothing:
the next reading's difference covers the whole time since the last one applied.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from casino.context import require_role
from casino.errors import Conflict, DomainError, InvalidCommand, NotFound, choice_words
from casino.models import Casino
from casino.money import CASH_DENOMINATIONS, fmt
from eventstore import store
from eventstore.commands import command
from eventstore.events import Event
from eventstore.records import Metadata
from machines import meters as m
from machines.answers import ReadingResult, ReadingsAnswer, ResetAnswer
from machines.events import MetersRead, MetersReset
from machines.models import Machine, MeterReading, SlotProgressive
from machines.roles import FLOOR_ROLES, SUPERVISOR_ROLES

from ._common import casino_get, code, machine_get, meter_error, second_person, text

SOURCES = ("sds", "file", "hand")
RESETS = ("rollover", "ram_clear")
MAX_BATCH = 20000
CENT = Decimal("0.01")
HUNDRED = Decimal(100)


def parse_moment(value: object, *, field: str = "read_at") -> dt.datetime:
    if isinstance(value, dt.datetime):
        moment = value
    else:
        try:
            moment = dt.datetime.fromisoformat(str(value))
        except ValueError:
            raise InvalidCommand("{field} is a moment such as 2026-12-07T03:00:00Z, not {value!r}",
                                 params={"field": field, "value": value}, field=field) from None
    if moment.tzinfo is None:
        raise InvalidCommand("{field} needs its time zone (such as Z or +00:00)",
                             params={"field": field}, field=field)
    return moment


def denominations(place: Casino) -> tuple[str, ...]:
    return tuple(fmt(d) for d in CASH_DENOMINATIONS.get(place.currency, ()) if d >= 5)


def contribution(coin_in: Decimal, rate: Decimal) -> Decimal:
    """What ``coin_in`` gives a pool at ``rate`` percent, to the cent (half up)."""
    return (coin_in * rate / HUNDRED).quantize(CENT, rounding=ROUND_HALF_UP)


class _Floor:
    """The machines of a batch as the batch leaves them (a machine read twice in one batch is
    differenced from its own earlier reading)."""

    def __init__(self, place: Casino, numbers: Sequence[str]) -> None:
        self.place = place
        self.machines = {x.number: x for x in Machine.objects.filter(
            casino_id=place.code, number__in=list(numbers))}
        self.meters = {n: m.from_data(x.meters) for n, x in self.machines.items()}
        self.last = {n: x.last_read_at for n, x in self.machines.items()}
        self.rates = dict(SlotProgressive.objects.filter(casino_id=place.code)
                          .values_list("pool", "rate"))
        self.notes = denominations(place)

    def machine(self, number: object) -> Machine:
        found = self.machines.get(number) if isinstance(number, str) else None
        if found is None:
            raise NotFound("there is no machine {machine!r} in casino {casino!r}",
                           params={"machine": number, "casino": self.place.code},
                           code="unknown_machine")
        if found.retired:
            raise Conflict("machine {machine} is retired: it takes no reading",
                           params={"machine": number}, code="machine_retired")
        return found

    def difference(self, machine: Machine, meters: m.Meters, read_at: dt.datetime
                   ) -> tuple[m.Meters, str, Decimal]:
        last = self.last[machine.number]
        if last is not None and read_at <= last:
            raise Conflict("the reading of {read_at} is not later than the last applied "
                           "({last}): a late reading is not applied over a newer one",
                           params={"read_at": read_at.isoformat(), "last": last.isoformat()},
                           code="reading_out_of_order")
        try:
            diff = m.difference(self.meters[machine.number], meters)
        except m.MeterError as error:
            raise meter_error(error) from None
        pool = machine.progressive_pool
        gives = contribution(diff.coin_in, self.rates[pool]) if pool in self.rates else \
            Decimal("0.00")
        return diff, pool if pool in self.rates else "", gives

    def applied(self, machine: Machine, meters: m.Meters, read_at: dt.datetime) -> None:
        self.meters[machine.number] = meters
        self.last[machine.number] = read_at


def _parse(floor: _Floor, raw: Mapping[str, Any]) -> m.Meters:
    try:
        meters = m.parse_meters(raw, denominations=floor.notes)
        m.check_bills(meters)
    except m.MeterError as error:
        raise meter_error(error, field="meters") from None
    return meters


@command("meter_readings_record")
def meter_readings_record(*, casino: str, readings: Sequence[Mapping[str, Any]], source: str,
                          metadata: Metadata) -> ReadingsAnswer:
    """Record a batch of readings ``[{machine, reading_id, read_at, meters}]`` (``MetersRead``
    per good one); answer each reading's fate."""
    require_role(metadata, FLOOR_ROLES, "recording meter readings")
    place = casino_get(metadata, casino)
    if source not in SOURCES:
        raise InvalidCommand("the meters are read {sources}, not {source!r}",
                             params={"sources": choice_words(SOURCES, "meter source"),
                                     "source": source},
                             field="source")
    if not isinstance(readings, list | tuple) or not readings or len(readings) > MAX_BATCH:
        raise InvalidCommand("readings are a list of 1 to {most} readings",
                             params={"most": MAX_BATCH}, field="readings")
    numbers = [r.get("machine") for r in readings if isinstance(r, Mapping)]
    floor = _Floor(place, [n for n in numbers if isinstance(n, str)])
    ids = [str(r.get("reading_id")) for r in readings if isinstance(r, Mapping)]
    # by machine and reading id: the unique index (casino, machine, reading_id) answers it
    seen = set(MeterReading.objects.filter(
        casino_id=casino, machine__in=[n for n in numbers if isinstance(n, str)],
        reading_id__in=ids).values_list("machine", "reading_id"))
    results: list[ReadingResult] = []
    pending: dict[str, list[Event]] = {}
    for raw in readings:
        number = str(raw.get("machine", "")) if isinstance(raw, Mapping) else ""
        reading_id = str(raw.get("reading_id", "")) if isinstance(raw, Mapping) else ""
        try:
            if not isinstance(raw, Mapping):
                raise InvalidCommand("a reading is an object {machine, reading_id, read_at, "
                                     "meters}")
            code(reading_id, field="reading_id")
            machine = floor.machine(raw.get("machine"))
            if (number, reading_id) in seen:
                results.append(ReadingResult(number, reading_id, "duplicate"))
                continue
            read_at = parse_moment(raw.get("read_at"))
            meters = _parse(floor, raw.get("meters") or {})
            diff, pool, gives = floor.difference(machine, meters, read_at)
        except DomainError as error:
            results.append(ReadingResult(number, reading_id, "refused", error.code,
                                         error.message))
            continue
        seen.add((number, reading_id))
        floor.applied(machine, meters, read_at)
        pending.setdefault(number, []).append(MetersRead(
            machine=number, reading_id=reading_id, read_at=read_at,
            gaming_day=place.gaming_day(read_at), source=source, meters=meters.as_data(),
            difference=diff.as_data(), pool=pool, contribution=gives))
        results.append(ReadingResult(number, reading_id, "recorded", win=fmt(diff.win)))
    events = [event for batch in pending.values() for event in batch]
    if events:
        # one append for the whole batch, on a stream of its own: a machine's readings are
        # ordered by the casino's append lock every command holds (the reads above ran under
        # it), not by the machine's stream, which keeps its configuration's changes
        store.append(f"meters/{casino}.{uuid.uuid4().hex}", events, expected_version=0,
                     metadata=metadata)
    counts = {s: sum(1 for r in results if r.status == s)
              for s in ("recorded", "duplicate", "refused")}
    return ReadingsAnswer(casino=casino, recorded=counts["recorded"],
                          duplicates=counts["duplicate"], refused=counts["refused"],
                          results=results)


@command("meter_reset_record")
def meter_reset_record(*, casino: str, machine: str, kind: str, reading_id: str,
                       read_at: object, before: Mapping[str, Any], after: Mapping[str, Any],
                       witnessed_by: str, reason: str, metadata: Metadata) -> ResetAnswer:
    """A rollover or a RAM clear (``MetersReset``): the meters just ``before`` it count as a
    reading; the next readings are differenced from ``after``. A second person witnesses it."""
    require_role(metadata, FLOOR_ROLES, "recording a rollover or a RAM clear")
    place = casino_get(metadata, casino)
    if kind not in RESETS:
        raise InvalidCommand("a reset of the meters is {kinds}, not {kind!r}",
                             params={"kinds": choice_words(RESETS, "meter reset kind"), "kind": kind},
                             field="kind")
    witness = second_person(metadata, casino, witnessed_by, SUPERVISOR_ROLES,
                            what="a rollover or a RAM clear")
    found = machine_get(casino, machine)
    floor = _Floor(place, [machine])
    floor.machine(machine)
    code(reading_id, field="reading_id")
    if MeterReading.objects.filter(casino_id=casino, machine=machine,
                                   reading_id=reading_id).exists():
        raise Conflict("reading {reading_id} of machine {machine} is already recorded",
                       params={"reading_id": reading_id, "machine": machine},
                       code="duplicate_reading")
    moment = parse_moment(read_at)
    old = _parse(floor, before)
    new = _parse(floor, after)
    diff, pool, gives = floor.difference(found, old, moment)
    store.append(found.stream, [MetersReset(
        machine=machine, kind=kind, reading_id=reading_id, read_at=moment,
        gaming_day=place.gaming_day(moment), before=old.as_data(), after=new.as_data(),
        difference=diff.as_data(), pool=pool, contribution=gives, witnessed_by=witness,
        reason=text(reason, field="reason"))], expected_version=found.version, metadata=metadata)
    return ResetAnswer(casino=casino, machine=machine, kind=kind, win=fmt(diff.win),
                       version=found.version + 1)
