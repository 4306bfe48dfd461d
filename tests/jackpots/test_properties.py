"""Hypothesis: for any sequence of coups, payments and corrections on a pool, with or without a
reserve and a cap,

- pool + everything awarded = every start value funded (the first and each reset) + all
  contributions routed to the pool + approved corrections; the reserve = its contributions
  (its share and what a cap diverted) - what it funded + its corrections;
- no meter is ever negative;
- the ledger's jackpot liability equals the pool meter (and its reserve and prizes-payable
  accounts the reserve and the prizes owed);
- the same totals follow from the raw events of the pool's stream, each coup's recorded request
  recomputes to its result, and the projection rebuilds to what is live.
"""

from __future__ import annotations

import uuid
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eventstore
from casino.errors import InvalidCommand
from eventstore import read_stream
from jackpots.models import JackpotCoup, JackpotMeterReading, JackpotPool
from jackpots.rules import pay_coup
from jackpots.services import jackpot_coup_settle

from .conftest import CASINO, pit
from .ledger import ledger_balance
from .meters import meter_correct

pytestmark = pytest.mark.django_db
D = Decimal
ZERO = D("0.00")

ACES = ["AS", "AH", "AD", "AC"]
OTHERS = ["KD", "9C", "5H", "TS", "2S"]
# A paytable where hits are frequent: every kind of prize (x, %, jackpot) comes up.
PAYTABLE = [{"combination": "four_aces", "pays": "jackpot"},
            {"combination": "three_aces_suited", "pays": "50%"},
            {"combination": "three_aces", "pays": "1000x"},
            {"combination": "two_aces_suited", "pays": "12.5%"},
            {"combination": "two_aces", "pays": "30x"}]
CONFIG = {"bet": "1.00", "increment_percent": "80", "start": "10000.00", "paytable": PAYTABLE}

card = st.sampled_from(ACES * 3 + OTHERS)
seat_cards = st.lists(card, min_size=2, max_size=4)
coup_step = st.tuples(st.just("coup"), st.lists(seat_cards, min_size=1, max_size=7))
correction_step = st.tuples(st.just("correct"),
                            st.tuples(st.sampled_from(["pool", "reserve"]),
                                      st.sampled_from(["up", "down"]),
                                      st.decimals(min_value=D("0.01"), max_value=D("5000"),
                                                  places=2)))
steps = st.lists(st.one_of(coup_step, coup_step, coup_step, correction_step),
                 min_size=1, max_size=10)


def _sum(records: list[Any], event_type: str, field: str) -> Decimal:
    return sum((D(r.data[field]) for r in records if r.event_type == event_type), ZERO)


def check_books(pool_id: str) -> None:
    pool = JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id)
    # never negative
    assert pool.amount >= 0
    assert pool.reserve >= 0
    assert pool.prizes_unpaid >= 0
    # the meter's conservation, and the reserve's
    assert pool.amount + pool.wins == pool.seeded + pool.contributions + pool.corrections
    assert pool.reserve == (pool.reserve_contributions - pool.reserve_draws
                            + pool.reserve_corrections)
    assert pool.seeded == pool.seeded_by_casino + pool.reserve_draws
    assert pool.bets_amount == pool.contributions + pool.reserve_contributions + pool.retained
    # the same from the raw events of the pool's stream
    records = read_stream(pool.stream)
    corrections = sum((D(r.data["amount"]) * (1 if r.data["direction"] == "up" else -1)
                       for r in records if r.event_type == "JackpotMeterCorrected"
                       and r.data["meter"] == "pool"), ZERO)
    funded = _sum(records, "JackpotSeeded", "amount") + _sum(records, "JackpotReset", "start")
    contributed = _sum(records, "JackpotContributed", "to_pool")
    awarded = _sum(records, "JackpotHit", "amount")
    assert pool.amount + awarded == funded + contributed + corrections
    assert awarded == pool.wins
    # the ledger
    assert ledger_balance("jackpot_liability", pool_id) == pool.amount
    assert ledger_balance("jackpot_reserve", pool_id) == pool.reserve
    assert ledger_balance("jackpot_payable", pool_id) == pool.prizes_unpaid
    # the history's last reading is the meter now
    last = JackpotMeterReading.objects.filter(pool_id=pool_id).order_by("-version").first()
    assert last is not None
    assert last.amount == pool.amount
    assert last.reserve == pool.reserve


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(options=st.sampled_from([(None, None), ("10", None), (None, "10100.00"),
                                ("12.5", "10050.00")]),
       script=steps)
def test_any_sequence_of_coups_and_corrections_keeps_the_books(
        make_pool, options: tuple[str | None, str | None], script: list[Any]) -> None:
    reserve, cap = options
    pool_id = make_pool("blackjack", f"p-{uuid.uuid4().hex[:8]}", reserve_percent=reserve,
                        cap=cap, config=CONFIG)
    table = JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id).tables[0]
    for kind, payload in script:
        if kind == "coup":
            bets = [{"seat": i + 1, "player": f"p{i + 1}", "amount": "1.00", "cards": cards}
                    for i, cards in enumerate(payload)]
            too_many = max(Counter(c for cards in payload for c in cards).values()) > 6
            if too_many:  # more copies of an ace than six decks hold: refused, nothing recorded
                with pytest.raises(InvalidCommand) as refused:
                    jackpot_coup_settle(pool_id=pool_id, round_id=str(uuid.uuid4()),
                                        table=table, bets=bets, metadata=pit())
                assert refused.value.code == "invalid_outcome"
            else:
                jackpot_coup_settle(pool_id=pool_id, round_id=str(uuid.uuid4()), table=table,
                                    bets=bets, metadata=pit())
        else:
            meter, direction, amount = payload
            pool = JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id)
            if direction == "down" and amount > (pool.amount if meter == "pool"
                                                 else pool.reserve):
                continue
            meter_correct(pool_id, meter=meter, direction=direction, amount=str(amount))
        check_books(pool_id)
    for coup in JackpotCoup.objects.filter(pool_id=pool_id):
        assert pay_coup(coup.request) == coup.result


def test_the_projection_rebuilds_to_what_is_live(make_pool) -> None:
    pool_id = make_pool("blackjack", "rebuilt", reserve_percent="10", cap="10020.00",
                        config=CONFIG)
    table = JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id).tables[0]
    for cards in (["AS", "AH"], ["AD", "AD", "AD"], ["AC", "AH", "AS", "AD"], ["KD", "AS"]):
        jackpot_coup_settle(pool_id=pool_id, round_id=str(uuid.uuid4()), table=table,
                            bets=[{"seat": 1, "player": "P-a002", "amount": "1.00",
                                   "cards": cards}], metadata=pit())
    check_books(pool_id)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert list(eventstore.check(["jackpots"])) == []
