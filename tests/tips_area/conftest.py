"""Fixtures of the tips' tests: a Portuguese casino (EUR) and a Macau one (MOP), each with a
table configured through the pit's own services."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.context import person_metadata, system_metadata
from casino.models import Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.records import Metadata
from games.limits import default_limits
from games.services.tables import table_configure

DENOMINATIONS = ["1000", "500", "100", "25", "5", "1"]


def acting(role: str, actor: str, casino: str = "lisboa") -> Metadata:
    return person_metadata(username=actor, role=role, casino=casino)


def admin(casino: str = "lisboa") -> Metadata:
    return acting(Role.ADMINISTRATOR, "gestor", casino)


def _casino(code: str, currency: str, zone: str) -> str:
    meta = system_metadata(code, job="test")
    casino_register(code=code, name=code.title(), currency=currency, time_zone=zone,
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=code, code="main", name="Value chips",
                      denominations=DENOMINATIONS, metadata=meta)
    table_configure(casino=code, code="bj1", name="BJ1", game="blackjack", options={}, seats=7,
                    chip_set="main", limits=default_limits("blackjack", Decimal(5), {}),
                    metadata=admin(code))
    return code


@pytest.fixture
def lisboa(db: None) -> str:
    return _casino("lisboa", "EUR", "Europe/Lisbon")


@pytest.fixture
def macau(db: None) -> str:
    return _casino("macau", "MOP", "Asia/Macau")
