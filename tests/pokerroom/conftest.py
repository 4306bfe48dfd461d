"""Fixtures of the poker room's tests: a casino (through the casino's own services) and the
people who act in it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.context import person_metadata, system_metadata
from casino.models import Role
from casino.services.casinos import casino_register
from eventstore.records import Metadata

CASINO = "lisboa"


def floor(actor: str = "paulo") -> Metadata:
    return person_metadata(username=actor, role=Role.PIT_BOSS, casino=CASINO)


def cashier(actor: str = "ana") -> Metadata:
    return person_metadata(username=actor, role=Role.CASHIER, casino=CASINO)


@pytest.fixture
def casino(db: None) -> str:
    casino_register(code=CASINO, name="Casino Lisboa", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=system_metadata(CASINO, job="test"))
    return CASINO


def credit_balance(key: str, scope: str) -> Decimal:
    """Credit less debit of the ledger's account ``key`` of ``scope`` (a table or tournament),
    read from the journal."""
    from django.db.models import Sum

    from ledger.chart import account
    from ledger.models import JournalLine

    sums = JournalLine.objects.filter(casino_code=CASINO, account_code=account(key, scope).code
                                      ).aggregate(debit=Sum("debit"), credit=Sum("credit"))
    return ((sums["credit"] or Decimal(0)) - (sums["debit"] or Decimal(0))).quantize(
        Decimal("0.01"))
