"""The cage's part of a gaming-day close: the chips-in-circulation figure at the boundary.

The figure is the one at the day's boundary (the casino's closing hour, ``casino.gaming_day``),
whenever it is recorded: every event recorded before the boundary counts, nothing after it,
open tables valued at that instant. A day is recorded once it has ended, and once: recording it
again changes nothing and gives back the figure on record, so the scheduled close can run twice
(or be run by hand) safely.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.utils import timezone

from casino.context import SYSTEM_ACTOR, require_role
from casino.errors import Conflict
from casino.models import Role
from casino.money import ZERO, fmt
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata

from ..answers import GamingDayChipsRecordAnswer
from ..events import ChipsInCirculationRecorded
from ..models import ChipCirculationDay
from ..selectors import chip_liability_list, circulation_state
from ._common import casino_get

RECORD_ROLES = (Role.CAGE_SUPERVISOR, Role.ADMINISTRATOR, SYSTEM_ACTOR)


def _counts(figures: dict[Decimal, int]) -> dict[str, int]:
    return {fmt(d): n for d, n in sorted(figures.items(), reverse=True) if n}


def _on_record(casino: str, gaming_day: dt.date) -> GamingDayChipsRecordAnswer:
    rows = list(chip_liability_list(casino=casino, gaming_day=gaming_day))
    day = ChipCirculationDay.objects.filter(casino_id=casino, gaming_day=gaming_day).first()
    value = day.value if day is not None else ZERO
    return GamingDayChipsRecordAnswer(casino=casino, gaming_day=gaming_day.isoformat(), recorded=False,
                                      value=fmt(value),
                                      in_circulation={fmt(r.denomination): r.in_circulation for r in rows
           if r.in_circulation})


@command("gaming_day_chips_record")
def gaming_day_chips_record(*, gaming_day: dt.date, metadata: Metadata) -> GamingDayChipsRecordAnswer:
    """Record the chips in circulation at the end of ``gaming_day`` (its close)."""
    require_role(metadata, RECORD_ROLES, "recording the chips in circulation")
    casino = casino_get(metadata)
    stream = f"cage_day/{casino.code}.{gaming_day.isoformat()}"
    if store.stream_version(stream):
        return _on_record(casino.code, gaming_day)
    boundary = casino.gaming_day_end(gaming_day)
    if boundary > clock.now():
        raise Conflict("gaming day {gaming_day} has not ended: it ends at "
                       "{boundary:%Y-%m-%d %H:%M} "
                       "({time_zone}), and its chips in circulation are recorded then",
                       params={"gaming_day": gaming_day, "boundary": timezone.localtime(boundary, ZoneInfo(casino.time_zone)), "time_zone": casino.time_zone},
                       code="gaming_day_open", field="gaming_day")

    state = circulation_state(casino=casino.code, before=boundary)
    figure = state.figure()
    event = ChipsInCirculationRecorded(
        casino=casino.code, gaming_day=gaming_day,
        in_service=_counts(figure.pieces("in_service")),
        in_cages=_counts(figure.pieces("in_cages")),
        in_vaults=_counts(figure.pieces("in_vaults")),
        in_table_trays=_counts(figure.pieces("in_table_trays")),
        in_transit=_counts(figure.pieces("in_transit")),
        in_circulation=_counts(figure.pieces("in_circulation")),
        open_tables=figure.open_tables, jackpot_slots=figure.jackpot_slots,
        value=figure.value, as_at=boundary, position=figure.position, state=state.to_data(),
    )
    store.append(stream, [event], expected_version=0, metadata=metadata)
    return GamingDayChipsRecordAnswer(casino=casino.code, gaming_day=gaming_day.isoformat(), recorded=True,
                                      value=fmt(figure.value), as_at=boundary.isoformat(),
                                      in_circulation=_counts(figure.pieces("in_circulation")))
