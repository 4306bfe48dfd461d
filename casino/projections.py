"""Projection of the casino configuration stream into ``Casino``."""

from __future__ import annotations

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

    @handles("CasinoRegistered")
    def registered(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, CasinoRegistered)
        Casino.objects.create(
            code=event.code,
            name=event.name,
            currency=event.currency,
            time_zone=event.time_zone,
            gaming_day_closes_at=event.gaming_day_closes_at,
            version=recorded.version,
        )

    @handles("CasinoSettingsChanged")
    def settings_changed(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, CasinoSettingsChanged)
        changes: dict[str, object] = {"version": recorded.version}
        for name in ("name", "time_zone", "gaming_day_closes_at"):
            value = getattr(event, name)
            if value is not None:
                changes[name] = value
        Casino.objects.filter(code=recorded.stream_id).update(**changes)


@register
class ChipSetProjection(Projection):
    name = "chip_sets"
    models = (ChipSet,)

    @handles("ChipSetRegistered")
    def registered(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ChipSetRegistered)
        ChipSet.objects.create(casino_id=event.casino, code=event.code, name=event.name,
                               denominations=list(event.denominations), version=recorded.version)

    @handles("ChipSetDenominationsChanged")
    def denominations_changed(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ChipSetDenominationsChanged)
        casino, _, code = recorded.stream_id.partition(".")
        ChipSet.objects.filter(casino_id=casino, code=code).update(
            denominations=list(event.denominations), version=recorded.version)
