"""Registering a casino and changing its settings: each change is an event."""

from __future__ import annotations

import re
import zoneinfo
from typing import Any

from casino.answers import CasinoRegisterAnswer, CasinoSettingsAnswer
from casino.errors import Conflict, InvalidCommand, NotFound
from casino.events import CasinoRegistered, CasinoSettingsChanged
from casino.models import Casino, Currency
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata

_CODE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


def _check_time_zone(time_zone: str) -> None:
    try:
        zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise InvalidCommand("unknown time zone {time_zone!r}",
                             params={"time_zone": time_zone}, field="time_zone") from None


def _check_hour(hour: int) -> None:
    if not isinstance(hour, int) or not 0 <= hour <= 23:
        raise InvalidCommand(
            "the gaming day must close at a whole hour from 0 to 23, not {hour!r}",
            params={"hour": hour},
            field="gaming_day_closes_at",
        )


def casino_register(
    *,
    code: str,
    name: str,
    currency: str,
    time_zone: str,
    gaming_day_closes_at: int,
    metadata: Metadata,
) -> Casino:
    """Register a casino (``casino_record_registration``) and return it."""
    casino_record_registration(code=code, name=name, currency=currency, time_zone=time_zone,
                               gaming_day_closes_at=gaming_day_closes_at, metadata=metadata)
    return Casino.objects.get(code=code)


@command("casino_register")
def casino_record_registration(
    *,
    code: str,
    name: str,
    currency: str,
    time_zone: str,
    gaming_day_closes_at: int,
    metadata: Metadata,
) -> CasinoRegisterAnswer:
    if not _CODE.match(code):
        raise InvalidCommand(
            "casino code {code!r} must be lower-case letters, digits and dashes",
            params={"code": code}, field="code"
        )
    if currency not in Currency.values:
        raise InvalidCommand(
            "currency {currency!r} is not one of {values}",
            params={"currency": currency, "values": ', '.join(Currency.values)}, field="currency"
        )
    if not name.strip():
        raise InvalidCommand("the casino needs a name", field="name")
    _check_time_zone(time_zone)
    _check_hour(gaming_day_closes_at)
    if metadata.casino != code:
        raise InvalidCommand("the metadata must name the casino being registered")
    if Casino.objects.filter(code=code).exists():
        raise Conflict("casino {code!r} is already registered",
                       params={"code": code}, field="code")
    store.append(
        f"casino/{code}",
        [
            CasinoRegistered(
                code=code,
                name=name.strip(),
                currency=currency,
                time_zone=time_zone,
                gaming_day_closes_at=gaming_day_closes_at,
            )
        ],
        expected_version=0,
        metadata=metadata,
    )
    return CasinoRegisterAnswer(casino=code)


def casino_change_settings(
    *,
    code: str,
    metadata: Metadata,
    name: str | None = None,
    time_zone: str | None = None,
    gaming_day_closes_at: int | None = None,
) -> Casino:
    """Change a casino's name, time zone or gaming-day closing hour; return it."""
    casino_record_settings(code=code, metadata=metadata, name=name, time_zone=time_zone,
                           gaming_day_closes_at=gaming_day_closes_at)
    return Casino.objects.get(code=code)


@command("casino_change_settings")
def casino_record_settings(
    *,
    code: str,
    metadata: Metadata,
    name: str | None = None,
    time_zone: str | None = None,
    gaming_day_closes_at: int | None = None,
) -> CasinoSettingsAnswer:
    casino = Casino.objects.filter(code=code).first()
    if casino is None:
        raise NotFound("there is no casino {code!r}", params={"code": code})
    if time_zone is not None:
        _check_time_zone(time_zone)
    if gaming_day_closes_at is not None:
        _check_hour(gaming_day_closes_at)
    changes: dict[str, Any] = {
        k: v
        for k, v in {
            "name": name,
            "time_zone": time_zone,
            "gaming_day_closes_at": gaming_day_closes_at,
        }.items()
        if v is not None and getattr(casino, k) != v
    }
    if changes:
        store.append(
            f"casino/{code}",
            [CasinoSettingsChanged(**changes)],
            expected_version=casino.version,
            metadata=metadata,
        )
    return CasinoSettingsAnswer(casino=code, changed=sorted(changes))
