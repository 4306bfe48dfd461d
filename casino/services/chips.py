"""Chip sets: which value chips a casino has in service. Each change is an event."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from casino.answers import ChipSetAnswer
from casino.errors import Conflict, InvalidCommand, NotFound
from casino.events import ChipSetDenominationsChanged, ChipSetRegistered
from casino.models import Casino, ChipSet
from casino.money import fmt, parse_amount
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata

_CODE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


def _denominations(values: Sequence[object]) -> tuple[str, ...]:
    if not values:
        raise InvalidCommand("a chip set needs at least one denomination", field="denominations")
    parsed = [parse_amount(v, field="denomination") for v in values]
    if len(set(parsed)) != len(parsed):
        raise InvalidCommand("a denomination is listed twice", field="denominations")
    return tuple(fmt(d) for d in sorted(parsed, reverse=True))


def chip_set_register(
    *, casino: str, code: str, name: str, denominations: Sequence[object],
    metadata: Metadata,
) -> ChipSet:
    """Register a chip set (``chip_set_record_registration``) and return it."""
    chip_set_record_registration(casino=casino, code=code, name=name,
                                 denominations=denominations, metadata=metadata)
    return ChipSet.objects.get(casino_id=casino, code=code)


@command("chip_set_register")
def chip_set_record_registration(
    *, casino: str, code: str, name: str, denominations: Sequence[object],
    metadata: Metadata,
) -> ChipSetAnswer:
    if not Casino.objects.filter(code=casino).exists():
        raise NotFound("there is no casino {casino!r}", params={"casino": casino})
    if not _CODE.match(code):
        raise InvalidCommand("chip set code {code!r} must be lower-case letters, digits and dashes",
                             params={"code": code},
                             field="code")
    values = _denominations(denominations)
    if ChipSet.objects.filter(casino_id=casino, code=code).exists():
        raise Conflict("chip set {code!r} already exists in {casino}",
                       params={"code": code, "casino": casino}, field="code")
    store.append(f"chipset/{casino}.{code}",
                 [ChipSetRegistered(casino=casino, code=code, name=name, denominations=values)],
                 expected_version=0, metadata=metadata)
    return ChipSetAnswer(casino=casino, chip_set=code)


def chip_set_change_denominations(
    *, casino: str, code: str, denominations: Sequence[object], reason: str,
    metadata: Metadata,
) -> ChipSet:
    """Change a chip set's denominations (``chip_set_record_denominations``); return it."""
    chip_set_record_denominations(casino=casino, code=code, denominations=denominations,
                                  reason=reason, metadata=metadata)
    return ChipSet.objects.get(casino_id=casino, code=code)


@command("chip_set_change_denominations")
def chip_set_record_denominations(
    *, casino: str, code: str, denominations: Sequence[object], reason: str,
    metadata: Metadata,
) -> ChipSetAnswer:
    chip_set = ChipSet.objects.filter(casino_id=casino, code=code).first()
    if chip_set is None:
        raise NotFound("there is no chip set {code!r} in {casino}",
                       params={"code": code, "casino": casino})
    if not reason.strip():
        raise InvalidCommand("say why the denominations change", field="reason")
    values = _denominations(denominations)
    store.append(chip_set.stream,
                 [ChipSetDenominationsChanged(denominations=values, reason=reason.strip())],
                 expected_version=chip_set.version, metadata=metadata)
    return ChipSetAnswer(casino=casino, chip_set=code, denominations=list(values))


def chip_denominations(casino: str, code: str) -> tuple[Decimal, ...]:
    chip_set = ChipSet.objects.filter(casino_id=casino, code=code).first()
    if chip_set is None:
        raise NotFound("there is no chip set {code!r} in {casino}",
                       params={"code": code, "casino": casino})
    return tuple(Decimal(v) for v in chip_set.denominations)
