"""Configuring cages, cashier windows and the vault. Each change is an event on ``cage/…``."""

from __future__ import annotations

import re

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, choice_words
from casino.models import Role
from casino.money import ZERO, Money, fmt
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata

from ..answers import CageConfigureAnswer, MinimumCashChangeAnswer
from ..events import CageConfigured, CageMinimumCashChanged
from ..models import Cage, CageKind
from ._common import cage_get, casino_get, text

_CODE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
CONFIGURE_ROLES = (Role.ADMINISTRATOR, Role.CAGE_SUPERVISOR)
NO_MINIMUM = Money(ZERO)


@command("cage_configure")
def cage_configure(
    *, code: str, name: str, kind: str, minimum_cash: Money = NO_MINIMUM, metadata: Metadata,
) -> CageConfigureAnswer:
    """Set up a main cage, a cashier window or a vault, with its regulator-set minimum cash."""
    require_role(metadata, CONFIGURE_ROLES, "configuring a cage")
    casino = casino_get(metadata)
    if not isinstance(code, str) or not _CODE.match(code):
        raise InvalidCommand("cage code {code!r} must be lower-case letters, digits and dashes",
                             params={"code": code},
                             field="code")
    if kind not in CageKind.values:
        raise InvalidCommand("a cage is {values}, not {kind!r}",
                             params={"kind": kind,
                                     "values": choice_words(CageKind.values, "cage kind")},
                             field="kind")
    label = text(name, field="name", limit=200)
    minimum = minimum_cash  # parsed at the edge

    if Cage.objects.filter(casino=casino, code=code).exists():
        raise Conflict("{code!r} is already configured in {code_2}",
                       params={"code": code, "code_2": casino.code}, field="code")
    store.append(f"cage/{casino.code}.{code}",
                 [CageConfigured(casino=casino.code, code=code, name=label, kind=kind,
                                 minimum_cash=minimum)],
                 expected_version=0, metadata=metadata)
    return CageConfigureAnswer(cage=code, kind=kind, minimum_cash=fmt(minimum))


@command("cage_minimum_cash_change")
def cage_minimum_cash_change(
    *, code: str, minimum_cash: Money, reason: str, metadata: Metadata,
) -> MinimumCashChangeAnswer:
    require_role(metadata, CONFIGURE_ROLES, "changing the minimum cash")
    cage = cage_get(metadata.casino, code)
    minimum = minimum_cash  # parsed at the edge
    why = text(reason, field="reason")

    store.append(cage.stream, [CageMinimumCashChanged(minimum_cash=minimum, reason=why)],
                 expected_version=cage.version, metadata=metadata)
    return MinimumCashChangeAnswer(cage=code, minimum_cash=fmt(minimum))
