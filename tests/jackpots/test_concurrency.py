"""Two rounds of linked tables hitting the same pool at once: the pool is never paid twice.

Real connections, one per thread, so the test commits: ``transaction=True``.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from jackpots.answers import CoupSettleAnswer, PrizePayAnswer
from jackpots.models import JackpotPool, JackpotPrize
from jackpots.rules import pay_coup
from jackpots.services import jackpot_coup_settle, jackpot_prize_pay

from .conftest import CASINO, cashier, example_request, pit
from .ledger import ledger_balance

pytestmark = pytest.mark.django_db(transaction=True)
D = Decimal
ROYAL = ["AS", "KS", "QS", "JS", "TS"]


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` at the same moment, each on its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_royal_flushes_at_linked_tables_at_once_never_pay_the_pool_twice(
        make_pool, make_table) -> None:
    tables = [make_table("stud_poker", "sp-1"), make_table("stud_poker", "sp-2")]
    pool_id = make_pool("stud_poker", "linked", tables=tables, amount="52345.67")

    def coup(table: str, player: str) -> Callable[[], Any]:
        return lambda: jackpot_coup_settle(
            pool_id=pool_id, round_id=str(uuid.uuid4()), table=table,
            bets=[{"seat": 1, "player": player, "amount": "1.00", "cards": ROYAL}],
            metadata=pit(player))

    results = race(coup("sp-1", "ana"), coup("sp-2", "rui"))
    assert all(isinstance(r, CoupSettleAnswer) for r in results), results
    prizes = sorted(D(r.result["paid"]) for r in results)
    # the first pays the pool as it was (+ its chip); the second finds the restarted pool
    assert prizes == [D("10000.70"), D("52346.37")]
    pool = JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id)
    assert pool.amount == D("10000.00")
    assert pool.resets == 2
    assert pool.hits == 2
    assert pool.wins == sum(prizes, D(0))
    assert pool.amount + pool.wins == pool.seeded + pool.contributions + pool.corrections
    assert ledger_balance("jackpot_liability", pool_id) == pool.amount
    # each coup's recorded request recomputes to its result, and they chain
    befores = sorted(r.result["pool_before"] for r in results)
    assert befores == ["10000.00", "52345.67"]
    for r in results:
        request = dict(example_request("A"), pool=r.result["pool_before"],
                       bets=[{"id": "seat1", "amount": "1.00", "cards": ROYAL}])
        assert pay_coup(request) == r.result


def test_the_same_round_settled_twice_at_once_is_paid_once(make_pool) -> None:
    pool_id = make_pool("stud_poker", "once", amount="52345.67")
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    rid = str(uuid.uuid4())
    bets = [{"seat": 1, "player": "P-a002", "amount": "1.00", "cards": ROYAL}]
    results = race(*(lambda: jackpot_coup_settle(pool_id=pool_id, round_id=rid, table=table,
                                                 bets=bets, metadata=pit()),) * 2)
    assert all(isinstance(r, CoupSettleAnswer) for r in results), results
    assert results[0] == results[1]
    assert JackpotPrize.objects.filter(pool_id=pool_id).count() == 1
    assert JackpotPool.objects.get(pool_id=pool_id).wins == D("52346.37")


def test_one_prize_paid_at_two_windows_at_once_is_paid_once(make_pool) -> None:
    from cage import services as cage
    from casino.context import person_metadata
    from casino.models import Role

    pool_id = make_pool("blackjack", "twice")
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    jackpot_coup_settle(pool_id=pool_id, round_id=str(uuid.uuid4()), table=table,
                        bets=[{"seat": 1, "player": "P-a002", "amount": "1.00",
                               "cards": ["AS", "AH"]}], metadata=pit())
    prize = JackpotPrize.objects.get(pool_id=pool_id)
    boss = person_metadata(username="carla", role=Role.CAGE_SUPERVISOR, casino=CASINO)
    shifts = []
    for code, who in (("w1", "ana"), ("w2", "bia")):
        cage.cage_configure(code=code, name=code, kind="window", minimum_cash=Decimal("0.00"),
                            metadata=boss)
        shifts.append(cage.shift_open(cage=code, cash={"20.00": 5, "5.00": 5},
                                      metadata=cashier(who)).shift_id)

    def pay(shift: str, who: str) -> Callable[[], Any]:
        return lambda: jackpot_prize_pay(prize_id=prize.prize_id, shift_id=shift,
                                         cash={"20.00": 1, "5.00": 1}, metadata=cashier(who))

    results = race(pay(shifts[0], "ana"), pay(shifts[1], "bia"))
    paid = [r for r in results if isinstance(r, PrizePayAnswer)]
    refused = [r for r in results if not isinstance(r, PrizePayAnswer)]
    assert len(paid) == 1, results
    assert len(refused) == 1, results
    assert getattr(refused[0], "code", "") == "already_paid"
    assert JackpotPool.objects.get(pool_id=pool_id).prizes_unpaid == D("0.00")
    assert ledger_balance("jackpot_payable", pool_id) == D("0.00")


def test_a_round_settling_while_a_prize_is_paid_does_not_deadlock(make_pool) -> None:
    """The pit appends its round's events (holding its casino's append lock) and then records the
    coup, while a window pays an earlier prize of the same pool: both go through."""
    import time

    from django.db import transaction

    from cage import services as cage
    from casino.context import person_metadata
    from casino.models import Role
    from eventstore.store import lock_appends

    pool_id = make_pool("blackjack", "order")
    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    jackpot_coup_settle(pool_id=pool_id, round_id=str(uuid.uuid4()), table=table,
                        bets=[{"seat": 1, "player": "P-a002", "amount": "1.00",
                               "cards": ["AS", "AH"]}], metadata=pit())
    prize = JackpotPrize.objects.get(pool_id=pool_id)
    boss = person_metadata(username="carla", role=Role.CAGE_SUPERVISOR, casino=CASINO)
    cage.cage_configure(code="w1", name="w1", kind="window", minimum_cash=Decimal("0.00"), metadata=boss)
    shift = cage.shift_open(cage="w1", cash={"20.00": 5, "5.00": 5},
                            metadata=cashier()).shift_id
    holding = threading.Event()

    def settle_round() -> Any:
        with transaction.atomic():
            lock_appends(CASINO)  # as the pit's round_settle holds it, appending its events
            holding.set()
            time.sleep(0.5)  # the payment starts meanwhile
            return jackpot_coup_settle(
                pool_id=pool_id, round_id=str(uuid.uuid4()), table=table,
                bets=[{"seat": 2, "player": "P-a003", "amount": "1.00", "cards": ["AD", "AC"]}],
                metadata=pit())

    def pay() -> Any:
        holding.wait(10)
        return jackpot_prize_pay(prize_id=prize.prize_id, shift_id=shift,
                                 cash={"20.00": 1, "5.00": 1}, metadata=cashier())

    results = race(settle_round, pay)
    assert all(isinstance(r, CoupSettleAnswer | PrizePayAnswer) for r in results), results
    pool = JackpotPool.objects.get(pool_id=pool_id)
    assert pool.coups == 2
    assert pool.prizes_unpaid == D("25.00")


def _two_windows(pool_id: str, bet: dict[str, Any]) -> tuple[JackpotPrize, list[str]]:
    """A hit of ``pool_id`` (one jackpot bet, ``bet``) and two windows open with 100.00 each."""
    from cage import services as cage
    from casino.context import person_metadata
    from casino.models import Role

    table = JackpotPool.objects.get(pool_id=pool_id).tables[0]
    jackpot_coup_settle(pool_id=pool_id, round_id=str(uuid.uuid4()), table=table, bets=[bet],
                        metadata=pit())
    prize = JackpotPrize.objects.get(pool_id=pool_id)
    boss = person_metadata(username="carla", role=Role.CAGE_SUPERVISOR, casino=CASINO)
    shifts = []
    for code, who in (("w1", "ana"), ("w2", "bia")):
        cage.cage_configure(code=code, name=code, kind="window", minimum_cash=Decimal("0.00"),
                            metadata=boss)
        shifts.append(cage.shift_open(cage=code, cash={"20.00": 5, "10.00": 5},
                                      metadata=cashier(who)).shift_id)
    return prize, shifts


def test_two_instalments_of_one_hit_at_two_windows_never_pay_more_than_it_owes(
        make_pool) -> None:
    """Two aces win 25 times the 1.00 bet: 25.00 owed. Two cashiers pay 20.00 each at the same
    moment: one is paid, the other is refused (only 5.00 remains) and records nothing."""
    pool_id = make_pool("blackjack", "instalments")
    prize, shifts = _two_windows(pool_id, {"seat": 1, "player": "P-a002", "amount": "1.00",
                                           "cards": ["AS", "AH"]})
    assert prize.amount == D("25.00")

    def pay(shift: str, who: str) -> Callable[[], Any]:
        return lambda: jackpot_prize_pay(prize_id=prize.prize_id, shift_id=shift,
                                         amount=Decimal("20.00"), cash={"20.00": 1},
                                         metadata=cashier(who))

    results = race(pay(shifts[0], "ana"), pay(shifts[1], "bia"))
    paid = [r for r in results if isinstance(r, PrizePayAnswer)]
    refused = [r for r in results if not isinstance(r, PrizePayAnswer)]
    assert len(paid) == 1, results
    assert len(refused) == 1, results
    assert getattr(refused[0], "code", "") == "more_than_owed"
    assert paid[0].owed == "5.00"
    prize.refresh_from_db()
    assert (prize.paid_amount, prize.owed, prize.paid) == (D("20.00"), D("5.00"), False)
    assert JackpotPool.objects.get(pool_id=pool_id).prizes_unpaid == D("5.00")
    assert ledger_balance("jackpot_payable", pool_id) == D("5.00")


def test_two_instalments_that_fit_are_both_paid(make_pool) -> None:
    """10.00 and 10.00 of the 25.00 at once: both go through, one after the other; 5.00 owed."""
    pool_id = make_pool("blackjack", "both")
    prize, shifts = _two_windows(pool_id, {"seat": 1, "player": "P-a002", "amount": "1.00",
                                           "cards": ["AS", "AH"]})

    def pay(shift: str, who: str) -> Callable[[], Any]:
        return lambda: jackpot_prize_pay(prize_id=prize.prize_id, shift_id=shift,
                                         amount=Decimal("10.00"), cash={"10.00": 1},
                                         metadata=cashier(who))

    results = race(pay(shifts[0], "ana"), pay(shifts[1], "bia"))
    assert all(isinstance(r, PrizePayAnswer) for r in results), results
    assert sorted(r.owed for r in results) == ["15.00", "5.00"]
    prize.refresh_from_db()
    assert (prize.paid_amount, prize.owed) == (D("20.00"), D("5.00"))
    assert ledger_balance("jackpot_payable", pool_id) == D("5.00")
