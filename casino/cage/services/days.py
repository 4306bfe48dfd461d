"""The cage's part of a gaming-day close: the chips-in-circulation figure, recorded once.

Idempotent by state: recording a gaming day that is recorded already changes nothing and gives
back the figure on record, so the scheduled close can run twice (or be run by hand) safely.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import transaction

from casino.context import SYSTEM_ACTOR
from casino.eventstore import store
from casino.eventstore.commands import command
from casino.eventstore.store import ConcurrencyError, Metadata
from casino.models import Role
from casino.money import ZERO, fmt

from ..events import ChipsInCirculationRecorded
from ..selectors import chip_liability_list, chips_in_circulation
from ._common import Result, casino_get, require_role

RECORD_ROLES = (Role.CAGE_SUPERVISOR, Role.ADMINISTRATOR, SYSTEM_ACTOR)


def _counts(figures: dict[Decimal, int]) -> dict[str, int]:
    return {fmt(d): n for d, n in sorted(figures.items(), reverse=True) if n}


def _on_record(casino: str, gaming_day: dt.date) -> Result:
    rows = list(chip_liability_list(casino=casino, gaming_day=gaming_day))
    value = sum((r.denomination * r.in_circulation for r in rows), ZERO)
    return {"casino": casino, "gaming_day": gaming_day.isoformat(), "recorded": False,
            "value": fmt(value),
            "in_circulation": {fmt(r.denomination): r.in_circulation for r in rows
                               if r.in_circulation}}


@command("gaming_day_chips_record")
def gaming_day_chips_record(*, gaming_day: dt.date, metadata: Metadata) -> Result:
    """Record the chips in circulation as they stand now, for ``gaming_day`` (its close)."""
    require_role(metadata, RECORD_ROLES, "recording the chips in circulation")
    casino = casino_get(metadata)
    stream = f"cage_day/{casino.code}.{gaming_day.isoformat()}"
    if store.stream_version(stream):
        return _on_record(casino.code, gaming_day)

    figure = chips_in_circulation(casino=casino.code)
    event = ChipsInCirculationRecorded(
        casino=casino.code, gaming_day=gaming_day,
        in_service=_counts(figure.pieces("in_service")),
        in_cages=_counts(figure.pieces("in_cages")),
        in_vaults=_counts(figure.pieces("in_vaults")),
        in_table_trays=_counts(figure.pieces("in_table_trays")),
        in_circulation=_counts(figure.pieces("in_circulation")),
        value=figure.value, table_trays_known=figure.table_trays_known,
    )
    try:
        with transaction.atomic():
            store.append(stream, [event], expected_version=0, metadata=metadata)
    except ConcurrencyError:
        return _on_record(casino.code, gaming_day)  # a twin close got there first
    return {"casino": casino.code, "gaming_day": gaming_day.isoformat(), "recorded": True,
            "value": fmt(figure.value),
            "in_circulation": _counts(figure.pieces("in_circulation"))}
