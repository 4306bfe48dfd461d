"""Two pit terminals recording on the same round at once: one wins, the other gets a conflict.

Real connections (one per thread), so the test commits: ``transaction=True``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from casino.errors import Conflict
from eventstore.models import StoredEvent
from games.answers import RoundRecordAnswer, RoundStatusAnswer
from games.models import Bet, Round
from games.services import (
    outcome_record,
    round_close_betting,
    round_open,
    round_record,
    round_settle,
    table_session_open,
)

from ..conftest import CASINO, pit, rebuild_differences

pytestmark = pytest.mark.django_db(transaction=True)


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` at the same moment, each on its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # the test inspects what each terminal got
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.fixture
def closed_round(make_table) -> str:
    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 20},
                             metadata=pit()).session_id
    rid = round_open(session_id=sid, bets=[{"seat": 1, "type": "red", "amount": "10"},
                                           {"seat": 2, "type": "even", "amount": "20"}],
                     metadata=pit()).round_id
    round_close_betting(round_id=rid, metadata=pit())
    return rid


def test_two_terminals_record_the_outcome_one_wins_the_other_gets_a_conflict(closed_round
                                                                             ) -> None:
    results = race(
        lambda: outcome_record(round_id=closed_round, outcome={"number": 1}, metadata=pit("ana")),
        lambda: outcome_record(round_id=closed_round, outcome={"number": 2}, metadata=pit("rui")),
    )
    wins = [r for r in results if isinstance(r, RoundStatusAnswer)]
    conflicts = [r for r in results if isinstance(r, Conflict)]
    assert len(wins) == 1, results
    assert len(conflicts) == 1, results
    assert StoredEvent.objects.filter(stream=f"round/{closed_round}",
                                      event_type="OutcomeRecorded").count() == 1


def test_two_terminals_settle_the_same_round_once(closed_round) -> None:
    outcome_record(round_id=closed_round, outcome={"number": 1}, metadata=pit())
    results = race(lambda: round_settle(round_id=closed_round, metadata=pit("ana")),
                   lambda: round_settle(round_id=closed_round, metadata=pit("rui")))
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "RoundSettleAnswer"], results
    assert StoredEvent.objects.filter(stream=f"round/{closed_round}",
                                      event_type="BetSettled").count() == 2
    assert Round.objects.get(round_id=closed_round).status == "settled"
    assert set(Bet.objects.filter(round_id=closed_round).values_list("status", flat=True)) == {
        "won", "lost"}
    assert rebuild_differences() == []


# --- a keyed and an unkeyed command on the same round or session ------------------------------
# Every command takes the append lock first, keyed or not, so two commands never wait for each
# other's row locks in opposite orders: the loser gets a Conflict (409) or runs after the winner,
# never a deadlock (which PostgreSQL would report and the API would answer with a 500).


@pytest.mark.parametrize("attempt", range(8))
def test_a_keyed_and_an_unkeyed_outcome_on_one_round_never_deadlock(closed_round, attempt
                                                                    ) -> None:
    keyed, unkeyed = (pit("ana"), pit("rui", key="")) if attempt % 2 else (
        pit("rui", key=""), pit("ana"))
    results = race(
        lambda: outcome_record(round_id=closed_round, outcome={"number": 1}, metadata=keyed),
        lambda: outcome_record(round_id=closed_round, outcome={"number": 2}, metadata=unkeyed),
    )
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "RoundStatusAnswer"], results
    (loser,) = [r for r in results if isinstance(r, Conflict)]
    assert loser.code in ("outcome_recorded", "concurrent_change"), loser.as_dict()
    assert StoredEvent.objects.filter(stream=f"round/{closed_round}",
                                      event_type="OutcomeRecorded").count() == 1
    assert rebuild_differences() == []


@pytest.mark.parametrize("attempt", range(6))
def test_a_keyed_and_an_unkeyed_round_on_one_session_both_land_in_turn(make_table, attempt
                                                                       ) -> None:
    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 20},
                             metadata=pit()).session_id
    bets = [{"seat": 1, "type": "red", "amount": "10"}]
    results = race(
        lambda: round_record(session_id=sid, bets=bets, outcome={"number": 1},
                             metadata=pit("ana")),
        lambda: round_record(session_id=sid, bets=bets, outcome={"number": 2},
                             metadata=pit("rui", key="")),
    )
    # Both whole rounds are legal one after the other: each waits its turn at the append lock.
    assert all(isinstance(r, RoundRecordAnswer) for r in results), results
    assert Round.objects.filter(session_id=sid, status="settled").count() == 2
    assert sorted(Round.objects.filter(session_id=sid).values_list("number", flat=True)) == [1, 2]
    assert rebuild_differences() == []
