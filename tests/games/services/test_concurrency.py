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
from casino.eventstore.models import StoredEvent
from games.models import Bet, Round
from games.services import (
    outcome_record,
    round_close_betting,
    round_open,
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
                             metadata=pit())["session_id"]
    rid = round_open(session_id=sid, bets=[{"seat": 1, "type": "red", "amount": "10"},
                                           {"seat": 2, "type": "even", "amount": "20"}],
                     metadata=pit())["round_id"]
    round_close_betting(round_id=rid, metadata=pit())
    return rid


def test_two_terminals_record_the_outcome_one_wins_the_other_gets_a_conflict(closed_round
                                                                             ) -> None:
    results = race(
        lambda: outcome_record(round_id=closed_round, outcome={"number": 1}, metadata=pit("ana")),
        lambda: outcome_record(round_id=closed_round, outcome={"number": 2}, metadata=pit("rui")),
    )
    wins = [r for r in results if isinstance(r, dict)]
    conflicts = [r for r in results if isinstance(r, Conflict)]
    assert len(wins) == 1, results
    assert len(conflicts) == 1, results
    assert StoredEvent.objects.filter(stream=f"round/{closed_round}",
                                      event_type="OutcomeRecorded").count() == 1


def test_two_terminals_settle_the_same_round_once(closed_round) -> None:
    outcome_record(round_id=closed_round, outcome={"number": 1}, metadata=pit())
    results = race(lambda: round_settle(round_id=closed_round, metadata=pit("ana")),
                   lambda: round_settle(round_id=closed_round, metadata=pit("rui")))
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "dict"], results
    assert StoredEvent.objects.filter(stream=f"round/{closed_round}",
                                      event_type="BetSettled").count() == 2
    assert Round.objects.get(round_id=closed_round).status == "settled"
    assert set(Bet.objects.filter(round_id=closed_round).values_list("status", flat=True)) == {
        "won", "lost"}
    assert rebuild_differences() == []
