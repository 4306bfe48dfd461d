"""A Macau casino keeping its books in patacas (MOP)."""

from __future__ import annotations

import pytest

from casino.context import system_metadata
from casino.services.casinos import casino_register


@pytest.fixture
def macau(db: None) -> str:
    casino_register(code="macau", name="Macau", currency="MOP", time_zone="Asia/Macau",
                    gaming_day_closes_at=6, metadata=system_metadata("macau", job="test"))
    return "macau"


@pytest.fixture
def lisboa(db: None) -> str:
    casino_register(code="lisboa", name="Lisboa", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=system_metadata("lisboa", job="test"))
    return "lisboa"
