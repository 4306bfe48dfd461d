"""A retried command answers as the first time, whatever happened since, and records nothing."""

from __future__ import annotations

import pytest

from eventstore.commands import IdempotencyConflict
from games.services import (
    deal_record,
    decision_record,
    round_close_betting,
    round_open,
    table_session_close,
    table_session_open,
)

from ..conftest import CASINO, events_count, pit

pytestmark = pytest.mark.django_db


def test_a_close_retried_after_the_close_answers_as_the_first_time(make_table) -> None:
    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    first = table_session_close(session_id=sid, closing={"100.00": 5},
                                metadata=pit(key="close-1"))
    count = events_count()
    again = table_session_close(session_id=sid, closing={"100.00": 5},
                                metadata=pit(key="close-1"))
    assert again == first
    assert events_count() == count
    with pytest.raises(IdempotencyConflict):
        table_session_close(session_id=sid, closing={"100.00": 4},
                            metadata=pit(key="close-1"))


def test_a_retried_decision_is_recorded_once(make_table) -> None:
    table = make_table("blackjack", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    rid = round_open(session_id=sid, bets=[{"seat": 1, "type": "main", "amount": "10"}],
                     metadata=pit()).round_id
    round_close_betting(round_id=rid, metadata=pit())
    deal_record(round_id=rid, upcard="9D", seats={"1": ["5S", "4H"]}, metadata=pit())
    first = decision_record(round_id=rid, seat=1, decision="hit", cards=["2C"],
                            metadata=pit(key="t1:hit"))
    count = events_count()
    assert decision_record(round_id=rid, seat=1, decision="hit", cards=["2C"],
                           metadata=pit(key="t1:hit")) == first
    assert events_count() == count
