"""The count room: each bill validator box dropped is counted by one person
(``MachineBoxCounted``) and confirmed by another (``MachineBoxCountConfirmed``: the cash goes to
the cage); a variance against the metered drop needs its explanation, approved by a second
person (``MachineBoxVarianceExplained``), before the day closes."""

from __future__ import annotations

from collections.abc import Mapping

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound
from casino.money import CASH_DENOMINATIONS, counts_as_data, counts_value, fmt, parse_counts
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from machines.answers import BoxCountAnswer
from machines.events import (
    MachineBoxCountConfirmed,
    MachineBoxCounted,
    MachineBoxVarianceExplained,
)
from machines.models import MachineBox
from machines.roles import COUNT_ROLES, SUPERVISOR_ROLES

from ._common import box_find, casino_get, code, floor_reads, machine_get, second_person, text


def _box(casino: str, drop_id: str) -> MachineBox:
    found = box_find(casino, drop_id)
    if found is None:
        raise NotFound("there is no counted box {drop_id!r}", params={"drop_id": drop_id},
                       field="drop_id")
    return found


@command("machine_box_count", reads=floor_reads)
def machine_box_count(*, casino: str, machine: str, drop_id: str, notes: Mapping[str, int],
                      window: str, metadata: Metadata) -> BoxCountAnswer:
    """The first counter's count of a box, by note; its variance against the metered bills."""
    require_role(metadata, COUNT_ROLES, "counting a bill validator box")
    place = casino_get(metadata, casino)
    found = machine_get(casino, machine)
    ident = code(drop_id, field="drop_id")
    counts = parse_counts(dict(notes) if isinstance(notes, Mapping) else notes,
                          allowed=tuple(d for d in CASH_DENOMINATIONS.get(place.currency, ())
                                        if d >= 5), field="notes")
    if box_find(casino, ident) is not None:
        raise Conflict("box {drop_id} is already counted", params={"drop_id": ident},
                       field="drop_id")
    counted = counts_value(counts)
    metered = found.box_metered
    day = place.gaming_day(clock.now())
    store.append(found.stream, [MachineBoxCounted(
        machine=machine, drop_id=ident, gaming_day=day, notes=counts_as_data(counts),
        counted=counted, metered=metered, variance=counted - metered,
        window=code(window, field="window"))], expected_version=found.version,
        metadata=metadata)
    return BoxCountAnswer(casino=casino, machine=machine, drop_id=ident, counted=fmt(counted),
                          metered=fmt(metered), variance=fmt(counted - metered),
                          status="counted")


@command("machine_box_confirm", reads=floor_reads)
def machine_box_confirm(*, casino: str, drop_id: str, metadata: Metadata) -> BoxCountAnswer:
    """The second counter confirms (another person than the first)."""
    require_role(metadata, COUNT_ROLES, "confirming a box count")
    casino_get(metadata, casino)
    box = _box(casino, drop_id)
    if box.status != "counted":
        raise Conflict("box {drop_id} is already confirmed", params={"drop_id": drop_id},
                       code="already_confirmed")
    if box.counted_by == metadata.actor:
        raise NotAllowed("the box was counted by {name}: a second counter confirms it",
                         params={"name": box.counted_by}, code="four_eyes")
    found = machine_get(casino, box.machine)
    store.append(found.stream, [MachineBoxCountConfirmed(
        machine=box.machine, drop_id=drop_id, gaming_day=box.gaming_day, counted=box.counted,
        metered=box.metered, variance=box.variance, window=box.window,
        first_counter=box.counted_by)], expected_version=found.version, metadata=metadata)
    return BoxCountAnswer(casino=casino, machine=box.machine, drop_id=drop_id,
                          counted=fmt(box.counted), metered=fmt(box.metered),
                          variance=fmt(box.variance), status="confirmed")


@command("machine_box_variance_explain")
def machine_box_variance_explain(*, casino: str, drop_id: str, explanation: str,
                                 approved_by: str, metadata: Metadata) -> BoxCountAnswer:
    require_role(metadata, COUNT_ROLES + SUPERVISOR_ROLES, "explaining a box variance")
    casino_get(metadata, casino)
    box = _box(casino, drop_id)
    if not box.variance:
        raise InvalidCommand("box {drop_id} has no variance to explain",
                             params={"drop_id": drop_id}, code="no_variance")
    if box.explanation:
        raise Conflict("box {drop_id}'s variance is already explained",
                       params={"drop_id": drop_id}, code="already_explained")
    approver = second_person(metadata, casino, approved_by, SUPERVISOR_ROLES,
                             what="a count variance")
    found = machine_get(casino, box.machine)
    store.append(found.stream, [MachineBoxVarianceExplained(
        machine=box.machine, drop_id=drop_id, variance=box.variance,
        explanation=text(explanation, field="explanation"), approved_by=approver)],
        expected_version=found.version, metadata=metadata)
    return BoxCountAnswer(casino=casino, machine=box.machine, drop_id=drop_id,
                          counted=fmt(box.counted), metered=fmt(box.metered),
                          variance=fmt(box.variance), status="explained")
