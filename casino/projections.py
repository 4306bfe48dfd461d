"""Projection of the casino configuration streams into ``Casino`` and ``ChipSet``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db.models import Model, QuerySet

from casino.eventstore.changes import Change, Insert, Update
from casino.eventstore.projections import Projection, handles, register
from casino.eventstore.store import RecordedEvent

from .events import (
    CasinoRegistered,
    CasinoSettingsChanged,
    ChipSetDenominationsChanged,
    ChipSetRegistered,
)
from .models import Casino, ChipSet


@register
class CasinoProjection(Projection):
    name = "casino"
    models = (Casino,)

    def casino_rows(self, model: type[Model], casino: str) -> QuerySet[Any]:
        return Casino.objects.filter(code=casino)

    @handles("CasinoRegistered")
    def registered(self, event: CasinoRegistered, recorded: RecordedEvent) -> Iterator[Change]:
        yield Insert(Casino, dict(
            code=event.code, name=event.name, currency=event.currency,
            time_zone=event.time_zone, gaming_day_closes_at=event.gaming_day_closes_at,
            version=recorded.version))

    @handles("CasinoSettingsChanged")
    def settings_changed(self, event: CasinoSettingsChanged, recorded: RecordedEvent
                         ) -> Iterator[Change]:
        changes: dict[str, object] = {"version": recorded.version}
        for name in ("name", "time_zone", "gaming_day_closes_at"):
            value = getattr(event, name)
            if value is not None:
                changes[name] = value
        yield Update(Casino, {"code": recorded.stream_id}, set=changes)


@register
class ChipSetProjection(Projection):
    name = "chip_sets"
    models = (ChipSet,)

    @handles("ChipSetRegistered")
    def registered(self, event: ChipSetRegistered, recorded: RecordedEvent) -> Iterator[Change]:
        yield Insert(ChipSet, dict(
            casino_id=event.casino, code=event.code, name=event.name,
            denominations=list(event.denominations), version=recorded.version))

    @handles("ChipSetDenominationsChanged")
    def denominations_changed(self, event: ChipSetDenominationsChanged, recorded: RecordedEvent
                              ) -> Iterator[Change]:
        casino, _, code = recorded.stream_id.partition(".")
        yield Update(ChipSet, {"casino_id": casino, "code": code},
                     set={"denominations": list(event.denominations),
                          "version": recorded.version})
