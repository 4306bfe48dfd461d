"""A pit command, keyed or not, sends its first reads (its round and bets, or its session and
table) in the append lock's own round trip, and reads nothing of those again: the rows it gets are
the ones it would have read itself, under the lock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from eventstore import unit
from eventstore import wire as prepared
from games.models import Bet, Round, RoundStatus
from games.services import (
    outcome_record,
    round_close_betting,
    round_open,
    round_settle,
    table_session_open,
)

from ..conftest import CASINO, pit

pytestmark = pytest.mark.django_db

BETS = [{"seat": 1, "player": "P-b001", "type": "straight", "numbers": [17], "amount": "5"},
        {"seat": 2, "player": "P-b002", "type": "red", "amount": "20"}]


@pytest.fixture
def executed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The queries ``casino.prepared`` runs as statements of their own."""
    queries: list[str] = []
    run = prepared.execute

    @contextmanager
    def counting(query: str, params: Any) -> Iterator[Any]:
        queries.append(query)
        with run(query, params) as cursor:
            yield cursor

    monkeypatch.setattr(prepared, "execute", counting)
    return queries


def _round_with_outcome(make_table: Any) -> str:
    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    rid = round_open(session_id=sid, bets=BETS, metadata=pit(key="open")).round_id
    round_close_betting(round_id=rid, metadata=pit(key="close"))
    outcome_record(round_id=rid, outcome={"number": 17}, metadata=pit(key="outcome"))
    return str(rid)


def _reads_of_round(queries: list[str]) -> list[str]:
    return [q for q in queries if "FROM games_round" in q or "FROM games_bet" in q]


def test_a_keyed_settle_reads_its_round_and_bets_with_the_lock(make_table: Any,
                                                               executed: list[str]) -> None:
    rid = _round_with_outcome(make_table)
    executed.clear()

    answer = round_settle(round_id=rid, metadata=pit(key="settle"))

    assert _reads_of_round(executed) == []
    assert Round.objects.get(round_id=rid).status == RoundStatus.SETTLED
    assert answer.result == "-155.00"  # the straight up is paid 35 to 1, red (17 is black) lost
    assert Bet.objects.filter(round_id=rid, settled_version__gt=0).count() == 2
    assert unit.current() is None  # the command's unit of work, rows and all, is gone


def test_without_a_key_the_settle_reads_with_the_lock_too(make_table: Any,
                                                          executed: list[str]) -> None:
    rid = _round_with_outcome(make_table)
    executed.clear()

    answer = round_settle(round_id=rid, metadata=pit(key=""))

    assert _reads_of_round(executed) == []
    assert answer.result == "-155.00"


def test_rows_read_ahead_serve_one_read_only(make_table: Any, executed: list[str]) -> None:
    rid = _round_with_outcome(make_table)
    query = f"SELECT {prepared.columns(Round, 'r')} FROM games_round AS r WHERE r.round_id = %s"
    key = Round.objects.get(round_id=rid).round_id
    with prepared.execute(query, [key]) as cursor:
        stale = list(cursor.fetchone())  # as the database sends it
    names = [f.attname for f in Round._meta.concrete_fields]
    stale[names.index("version")] = 999  # no row has it: proof the remembered row was used
    executed.clear()

    with unit.running(unit.UnitOfWork()) as work:
        work.read_ahead[(query, (key,))] = [tuple(stale)]
        first = prepared.fetch_all(query, [key], Round)
        again = prepared.fetch_all(query, [key], Round)

    assert first[0].version == 999
    assert again[0].version != 999
    assert executed == [query]


def test_a_keyed_whole_round_reads_its_session_and_posting_facts_with_the_lock(
        make_table: Any, executed: list[str]) -> None:
    from games.services import round_record
    from ledger.models import JournalEntry

    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    executed.clear()

    answer = round_record(session_id=sid, bets=BETS, outcome={"number": 17},
                          metadata=pit(key="whole"))

    assert [q for q in executed if "games_tablesession" in q or "ledger_session" in q] == []
    assert answer.result == "-155.00"
    posted = JournalEntry.objects.get(stream=f"round/{answer.round_id}")
    assert posted.casino_id == CASINO  # the posting used the facts read ahead


def test_without_a_key_the_whole_round_reads_with_the_lock_too(make_table: Any,
                                                              executed: list[str]) -> None:
    from games.services import round_record

    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    executed.clear()

    answer = round_record(session_id=sid, bets=BETS, outcome={"number": 17},
                          metadata=pit(key=""))

    assert [q for q in executed if "games_tablesession" in q or "ledger_session" in q] == []
    assert answer.result == "-155.00"


def test_rows_read_ahead_are_dropped_at_the_first_write(make_table: Any,
                                                        executed: list[str]) -> None:
    rid = _round_with_outcome(make_table)
    query = f"SELECT {prepared.columns(Round, 'r')} FROM games_round AS r WHERE r.round_id = %s"
    key = Round.objects.get(round_id=rid).round_id
    with prepared.execute(query, [key]) as cursor:
        row = cursor.fetchone()
    with unit.running(unit.UnitOfWork()) as work:
        work.read_ahead[(query, (key,))] = [row]
        prepared.send([("UPDATE games_round SET outcome_by = %s WHERE round_id = %s",
                        ["rui", key])])
        (read,) = prepared.fetch_all(query, [key], Round)

    assert read.outcome_by == "rui"  # read again after the write, not the row from before


def test_a_projection_writing_through_the_orm_during_the_early_insert_counts_right(
        make_table: Any) -> None:
    # A keyed command sends its event INSERT at once and runs the projections meanwhile (an
    # early pipeline); the table session's void handler writes through the ORM, which reads a
    # row count: the pipeline ends before it, so the count is right and the row is updated.
    from games.models import TableSession
    from games.services import round_void

    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    rid = round_open(session_id=sid, bets=BETS, metadata=pit(key="open")).round_id

    round_void(round_id=rid, reason="ball left the wheel", metadata=pit(key="void"))

    session = TableSession.objects.get(session_id=sid)
    assert (session.rounds, session.rounds_voided, session.current_round_id) == (1, 1, None)
    assert Round.objects.get(round_id=rid).status == RoundStatus.VOIDED
