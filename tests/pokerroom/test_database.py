"""What PostgreSQL holds of the poker room whatever code writes: a hand's rake within its pot,
a tournament's prizes paid within its pool (docs/database-guarantees.md)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from django.db import IntegrityError, transaction

from pokerroom.models import PokerHand, Tournament


def test_a_rake_above_its_pot_is_refused_by_the_database(db: None) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        # 5.01 of rake on a pot of 5.00
        PokerHand.objects.create(casino_id="x", table="t", hand=1, pot=D("5.00"),
                                 rake=D("5.01"), flop_dealt=True, source="terminal",
                                 contributions=[], awards=[],
                                 recorded_at=dt.datetime.now(tz=dt.UTC), position=1)


def test_prizes_paid_above_the_pool_are_refused_by_the_database(db: None) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        # 100.01 paid out of a pool of 100.00
        Tournament.objects.create(
            casino_id="x", code="t", game="holdem", status="finished", buy_in=D(10),
            entry_fee=D(1), rebuy=D(0), rebuy_fee=D(0), addon=D(0), addon_fee=D(0),
            guarantee=D(0), payout_percents=["100"], late_registration_levels=0,
            level_minutes=20, approval_reference="r", pool=D("100.00"),
            prizes_paid=D("100.01"), version=1)
