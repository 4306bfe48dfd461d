from __future__ import annotations

import time
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.db import connection

from casino.context import system_metadata
from casino.services.casinos import casino_change_settings, casino_register
from eventstore.events import Event
from eventstore.records import Metadata


@dataclass(frozen=True, kw_only=True)
class ChipsCounted(Event):
    """A stand-in event for the store's own tests."""

    event_type = "TestChipsCounted"
    schema_version = 1

    table: str
    amount: Decimal


@pytest.fixture
def meta() -> Metadata:
    return Metadata(actor="ana", role="pit_boss", casino="lisboa", request_id="r1",
                    correlation_id="r1")


def counted(n: int, amount: str = "10.00") -> list[ChipsCounted]:
    return [ChipsCounted(table=f"T{i}", amount=Decimal(amount)) for i in range(n)]


@pytest.fixture
def casinos() -> None:
    """Two casinos registered, one renamed: three events, committed in a transactional test."""
    casino_register(code="lisboa", name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="test"))
    casino_register(code="macau", name="Casino Macau", currency="MOP",
                    time_zone="Asia/Macau", gaming_day_closes_at=7,
                    metadata=system_metadata("macau", job="test"))
    casino_change_settings(code="lisboa", name="Casino Estoril", gaming_day_closes_at=5,
                           metadata=system_metadata("lisboa", job="test"))


def connections_now() -> int:
    """Connections to the test database, as the server counts them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def connections_once_settled(expected: int, within: float = 5.0) -> int:
    """The connections once those just closed have gone, or after ``within`` seconds: a
    server's backend leaves ``pg_stat_activity`` a moment after its client closed the socket
    (counted at once, a connection closed properly was sometimes still there)."""
    deadline = time.monotonic() + within
    while (count := connections_now()) != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    return count
