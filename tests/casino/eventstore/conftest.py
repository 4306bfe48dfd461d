from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest

from casino.eventstore.events import Event
from casino.eventstore.store import Metadata


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
