
"""A Macau casino's cage with a window holding MOP 1,000,000.00 of chips, for the
large-transaction rule (Instrução da DICJ n.º 1/2016), and Lisbon's for the rest."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cage import services as cage
from casino.context import person_metadata, system_metadata
from casino.models import Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.records import Metadata


def macau(name: str, role: str = Role.CASHIER) -> Metadata:
    return person_metadata(username=name, role=role, casino="macau")


def lisboa(name: str, role: str = Role.CASHIER) -> Metadata:
    return person_metadata(username=name, role=role, casino="lisboa")


def _cage(casino: str, currency: str, zone: str, as_: object, chips: dict[str, int],
          window_chips: dict[str, int], denominations: list[str]) -> str:
    meta = system_metadata(casino, job="test")
    casino_register(code=casino, name=f"Casino {casino}", currency=currency, time_zone=zone,
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino=casino, code="main", name="Value chips",
                      denominations=denominations, metadata=meta)
    boss = person_metadata(username="chefe", role=Role.CAGE_SUPERVISOR, casino=casino)
    cashier = person_metadata(username="ana", role=Role.CASHIER, casino=casino)
    cage.cage_configure(code="w1", name="Window 1", kind="window", minimum_cash=Decimal("0.00"),
                        metadata=boss)
    cage.cage_configure(code="vault", name="Vault", kind="vault", minimum_cash=Decimal("0.00"),
                        metadata=boss)
    vault = cage.shift_open(cage="vault", cash={}, metadata=boss).shift_id
    cage.chips_put_into_service(shift_id=vault, chip_set="main", chips=chips,
                                reference="delivery 1", metadata=boss)
    window = cage.shift_open(cage="w1", cash={}, metadata=cashier).shift_id
    cage.transfer_send(shift_id=vault, to_cage="w1", chips={"main": window_chips},
                       metadata=boss)
    return str(window)


@pytest.fixture
def macau_window(db: None) -> str:
    """Window 1 of Casino macau (patacas): 100 chips of 10,000.00 from the vault."""
    return _cage("macau", "MOP", "Asia/Macau", None, {"10000.00": 200, "1000.00": 200},
                 {"10000.00": 100}, ["10000.00", "1000.00"])


@pytest.fixture
def lisboa_window(db: None) -> str:
    """Window 1 of Casino lisboa (euros): 50 chips of 100.00."""
    return _cage("lisboa", "EUR", "Europe/Lisbon", None, {"100.00": 100}, {"100.00": 50},
                 ["100.00", "25.00"])
