"""Events of the casino's own configuration (stream ``casino/<code>``)."""

from __future__ import annotations

from dataclasses import dataclass

from casino.eventstore.events import Event


@dataclass(frozen=True, kw_only=True)
class CasinoRegistered(Event):
    event_type = "CasinoRegistered"
    schema_version = 1

    code: str
    name: str
    currency: str
    time_zone: str
    gaming_day_closes_at: int  # local hour (0-23) at which the gaming day ends


@dataclass(frozen=True, kw_only=True)
class CasinoSettingsChanged(Event):
    """Only the fields that changed are given; the others keep their value."""

    event_type = "CasinoSettingsChanged"
    schema_version = 1

    name: str | None = None
    time_zone: str | None = None
    gaming_day_closes_at: int | None = None


@dataclass(frozen=True, kw_only=True)
class ChipSetRegistered(Event):
    """A set of value chips (fichas) in service at the casino, with its denominations.

    Stream ``chipset/<casino>.<code>``.
    """

    event_type = "ChipSetRegistered"
    schema_version = 1

    casino: str
    code: str
    name: str
    denominations: tuple[str, ...]  # decimal strings, largest first


@dataclass(frozen=True, kw_only=True)
class ChipSetDenominationsChanged(Event):
    event_type = "ChipSetDenominationsChanged"
    schema_version = 1

    denominations: tuple[str, ...]
    reason: str
