"""Every refusal says what was wrong and leaves the event store unchanged."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal as D
from typing import Any

import pytest

from casino.errors import Conflict, DomainError, InvalidCommand, NotAllowed
from games.limits import default_limits
from games.models import Bet, Round
from games.services import (
    bet_place,
    colour_chips_issue,
    deal_record,
    decision_record,
    fill_request,
    outcome_record,
    round_close_betting,
    round_correct,
    round_open,
    round_settle,
    table_change_limits,
    table_configure,
    table_session_close,
    table_session_open,
)

from ..conftest import CASINO, events_count, pit, rebuild_differences

pytestmark = pytest.mark.django_db


def refused(kind: type[DomainError], code: str, call: Callable[[], Any]) -> DomainError:
    before = events_count()
    with pytest.raises(kind) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    assert events_count() == before, "a refusal recorded something"
    return caught.value


@pytest.fixture
def roulette(make_table) -> str:
    table = make_table("french_roulette", minimum="5", seats=8)
    return table_session_open(casino=CASINO, table=table, opening={"100.00": 20},
                              metadata=pit()).session_id


def open_round(session: str, bets: list[dict[str, Any]] | None = None) -> str:
    return round_open(session_id=session, bets=bets or [], metadata=pit()).round_id


def test_a_bet_after_no_more_bets(roulette) -> None:
    rid = open_round(roulette, [{"seat": 1, "type": "red", "amount": "10"}])
    round_close_betting(round_id=rid, metadata=pit())
    error = refused(Conflict, "betting_closed", lambda: bet_place(
        round_id=rid, bets=[{"seat": 2, "type": "black", "amount": "10"}], metadata=pit()))
    assert "no more bets" in error.message


def test_a_bet_over_the_limit_names_the_limit(roulette) -> None:
    rid = open_round(roulette)
    # straight 5..150 (30x): 155 is over
    error = refused(InvalidCommand, "over_limit", lambda: bet_place(
        round_id=rid, bets=[{"seat": 1, "type": "straight", "numbers": [7], "amount": "155"}],
        metadata=pit()))
    assert "150.00" in error.message
    refused(InvalidCommand, "over_limit", lambda: bet_place(
        round_id=rid, bets=[{"seat": 1, "type": "red", "amount": "4"}], metadata=pit()))


def test_a_bet_on_a_seat_that_does_not_exist(roulette) -> None:
    rid = open_round(roulette)
    error = refused(InvalidCommand, "no_such_seat", lambda: bet_place(
        round_id=rid, bets=[{"seat": 9, "type": "red", "amount": "10"}], metadata=pit()))
    assert "seats 1 to 8" in error.message


def test_a_bet_on_a_closed_session(roulette) -> None:
    table_session_close(session_id=roulette, closing={"100.00": 20},
                        metadata=pit())
    refused(Conflict, "session_closed", lambda: round_open(
        session_id=roulette, bets=[{"seat": 1, "type": "red", "amount": "10"}], metadata=pit()))


def test_a_bet_the_layout_does_not_have_is_the_engines_refusal(roulette) -> None:
    rid = open_round(roulette)
    error = refused(InvalidCommand, "invalid_bet", lambda: bet_place(
        round_id=rid, bets=[{"seat": 1, "type": "split", "numbers": [17, 19], "amount": "10"}],
        metadata=pit()))
    assert error.extra["bet"] == "b1"


def test_an_impossible_outcome(roulette) -> None:
    rid = open_round(roulette, [{"seat": 1, "type": "red", "amount": "10"}])
    round_close_betting(round_id=rid, metadata=pit())
    refused(InvalidCommand, "invalid_outcome", lambda: outcome_record(
        round_id=rid, outcome={"number": 37}, metadata=pit()))


def test_settling_twice(roulette) -> None:
    rid = open_round(roulette, [{"seat": 1, "type": "red", "amount": "10"}])
    round_close_betting(round_id=rid, metadata=pit())
    outcome_record(round_id=rid, outcome={"number": 3}, metadata=pit())
    round_settle(round_id=rid, metadata=pit())
    refused(Conflict, "already_settled", lambda: round_settle(round_id=rid, metadata=pit()))


def test_settling_without_an_outcome(roulette) -> None:
    rid = open_round(roulette, [{"seat": 1, "type": "red", "amount": "10"}])
    round_close_betting(round_id=rid, metadata=pit())
    refused(Conflict, "no_outcome", lambda: round_settle(round_id=rid, metadata=pit()))
    rid2 = Round.objects.get(round_id=rid).round_id
    assert Bet.objects.filter(round_id=rid2, status="").count() == 1


def test_a_correction_by_the_person_who_made_the_mistake(roulette) -> None:
    rid = open_round(roulette, [{"seat": 1, "type": "red", "amount": "10"},
                                {"seat": 2, "type": "straight", "numbers": [3], "amount": "5"}])
    round_close_betting(round_id=rid, metadata=pit("ana"))
    outcome_record(round_id=rid, outcome={"number": 2}, metadata=pit("ana"))
    round_settle(round_id=rid, metadata=pit("ana"))
    error = refused(NotAllowed, "four_eyes", lambda: round_correct(
        round_id=rid, outcome={"number": 3}, reason="the ball was in 3", metadata=pit("ana")))
    assert "another pit boss" in error.message
    # Another pit boss approves it: re-settled, each settlement naming what it corrects.
    before = Round.objects.get(round_id=rid)
    assert before.result == D("15.00")  # on 2 (black) red 10 and straight 3 of 5 lost
    done = round_correct(round_id=rid, outcome={"number": 3}, reason="the ball was in 3",
                         metadata=pit("rui"))
    assert done.result == "-185.00"  # 3 is red: red wins 10, straight 3 wins 175
    after = Round.objects.get(round_id=rid)
    assert (after.result, after.corrections, after.outcome_by) == (D("-185.00"), 1, "rui")
    assert {b.status for b in Bet.objects.filter(round_id=rid)} == {"won"}
    from eventstore import read_stream

    settled = [e for e in read_stream(f"round/{rid}") if e.event_type == "BetSettled"]
    assert [e.data["corrects"] for e in settled[2:]] == [settled[0].version, settled[1].version]
    assert rebuild_differences() == []


def test_a_duplicate_slip_number(roulette) -> None:
    fill_request(session_id=roulette, slip="F100", chips={"100.00": 5}, metadata=pit())
    error = refused(Conflict, "duplicate_slip", lambda: fill_request(
        session_id=roulette, slip="F100", chips={"100.00": 5}, metadata=pit()))
    assert "F100" in error.message


def test_limits_that_break_the_regulations_ratio_are_refused_naming_the_article(casino) -> None:
    limits = default_limits("blackjack", D("10"))
    limits["main"]["max"] = "310.00"  # 31x the minimum
    error = refused(InvalidCommand, "limits_refused", lambda: table_configure(
        casino=CASINO, code="bj9", name="BJ 9", game="blackjack", seats=7, chip_set="main",
        limits=limits, metadata=pit("admin")))
    assert error.extra["article"] == "Portaria 217/2007, blackjack, n.º 37"
    baccarat = default_limits("punto_banco", D("10"))
    baccarat["player_banker"]["max"] = "710.00"
    error = refused(InvalidCommand, "limits_refused", lambda: table_configure(
        casino=CASINO, code="pb9", name="PB 9", game="punto_banco", seats=7, chip_set="main",
        limits=baccarat, metadata=pit("admin")))
    assert "n.º 21" in error.extra["article"]


def test_limit_changes_are_events_and_obey_the_ratios(make_table) -> None:
    table = make_table("american_roulette", minimum="5")
    limits = default_limits("american_roulette", D("10"))
    table_change_limits(casino=CASINO, code=table, limits=limits, reason="weekend",
                        metadata=pit("admin"))
    limits["straight"]["max"] = "301.00"
    error = refused(InvalidCommand, "limits_refused", lambda: table_change_limits(
        casino=CASINO, code=table, limits=limits, metadata=pit("admin")))
    assert error.extra["article"] == "Portaria 217/2007, roleta americana, n.º 32 a)"


def test_per_player_straight_and_neighbours_limit(make_table) -> None:
    table = make_table("american_roulette", minimum="5")  # straight max 150
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    rid = open_round(sid, [{"seat": 1, "player": "P-a001", "type": "straight", "numbers": [17],
                            "amount": "120"}])
    # neighbours of 17 with 4: 5 chips of 10, one on 17: 130 on 17, fine for P-a001
    bet_place(round_id=rid, bets=[{"seat": 1, "player": "P-a001", "type": "neighbours",
                                   "number": 17, "neighbours": 4, "amount": "50"}],
              metadata=pit())
    error = refused(InvalidCommand, "over_limit", lambda: bet_place(
        round_id=rid, bets=[{"seat": 1, "player": "P-a001", "type": "straight", "numbers": [17],
                             "amount": "25"}], metadata=pit()))
    assert error.extra["article"] == "Portaria 217/2007, roleta americana, n.º 32 d)"
    # another player may still bet 25 straight on 17
    bet_place(round_id=rid, bets=[{"seat": 2, "player": "P-a003", "type": "straight",
                                   "numbers": [17], "amount": "25"}], metadata=pit())


def test_colour_chip_value_is_capped_by_the_straight_maximum(roulette) -> None:
    refused(InvalidCommand, "invalid", lambda: colour_chips_issue(
        session_id=roulette, colour="red", player="P-a001", chip_value="200", chips=10,
        metadata=pit()))


def test_craps_odds_may_not_exceed_the_bet_they_back(make_table) -> None:
    table = make_table("craps", minimum="5", seats=12)
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    round_open(session_id=sid, bets=[{"id": "p", "seat": 1, "type": "pass", "amount": "10"}],
               metadata=pit())
    rid = Round.objects.get(session_id=sid).round_id
    round_close_betting(round_id=rid, metadata=pit())
    outcome_record(round_id=rid, outcome={"dice": [4, 4]}, metadata=pit())
    round_settle(round_id=rid, metadata=pit())
    error = refused(InvalidCommand, "over_limit", lambda: round_open(
        session_id=sid, bets=[{"seat": 1, "type": "odds", "on": "pass", "base": "p",
                               "amount": "15"}], metadata=pit()))
    assert error.extra["article"] == "Portaria 217/2007, craps, n.º 11.1"
    refused(InvalidCommand, "over_limit", lambda: round_open(
        session_id=sid, bets=[{"seat": 1, "type": "place", "number": 6, "amount": "10"}],
        metadata=pit()))  # n.º 12: place 6 in multiples of 6
    refused(Conflict, "bets_working", lambda: table_session_close(
        session_id=sid, closing={"100.00": 5}, metadata=pit()))


def test_blackjack_stakes_after_no_more_bets_only_as_the_hands_decisions(make_table) -> None:
    table = make_table("blackjack", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    rid = open_round(sid, [{"id": "m1", "seat": 1, "type": "main", "amount": "20"},
                           {"id": "m2", "seat": 2, "type": "main", "amount": "20"}])
    refused(Conflict, "decision_only", lambda: bet_place(
        round_id=rid, bets=[{"seat": 1, "type": "double", "bet": "m1", "amount": "20"}],
        metadata=pit()))
    refused(InvalidCommand, "over_limit", lambda: bet_place(
        round_id=rid, bets=[{"seat": 3, "type": "main", "amount": "15"}], metadata=pit()))
    round_close_betting(round_id=rid, metadata=pit())
    refused(Conflict, "not_dealt", lambda: decision_record(
        round_id=rid, seat=1, decision="hit", cards=["2C"], metadata=pit()))
    deal_record(round_id=rid, upcard="9D", seats={"1": ["TS", "6H"], "2": ["5S", "4H"]},
                metadata=pit())
    # 16 may not double (n.º 29), may not split; 9 may not stand (n.º 18: above 11 only).
    error = refused(Conflict, "decision_not_allowed", lambda: decision_record(
        round_id=rid, seat=1, decision="double", cards=["5C"], metadata=pit()))
    assert "allowed" in error.message
    refused(Conflict, "decision_not_allowed", lambda: decision_record(
        round_id=rid, seat=2, decision="stand", metadata=pit()))
    refused(Conflict, "decision_not_allowed", lambda: decision_record(
        round_id=rid, seat=1, decision="insurance", bet_id="m1", metadata=pit()))
    decision_record(round_id=rid, seat=2, decision="double", cards=["TC"], metadata=pit())
    refused(Conflict, "hand_finished", lambda: decision_record(
        round_id=rid, seat=2, decision="hit", cards=["2C"], metadata=pit()))


def test_stud_poker_call_only_after_no_more_bets_and_once(make_table) -> None:
    table = make_table("stud_poker", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    rid = open_round(sid, [{"seat": 1, "type": "ante", "amount": "10"}])
    refused(Conflict, "decision_only", lambda: bet_place(
        round_id=rid, bets=[{"seat": 1, "type": "call", "amount": "20"}], metadata=pit()))
    refused(Conflict, "betting_open", lambda: decision_record(
        round_id=rid, seat=1, decision="call", metadata=pit()))
    round_close_betting(round_id=rid, metadata=pit())
    decision_record(round_id=rid, seat=1, decision="fold", metadata=pit())
    refused(Conflict, "already_decided", lambda: decision_record(
        round_id=rid, seat=1, decision="call", metadata=pit()))


def test_macau_both_sides_must_differ_by_the_minimum(make_table) -> None:
    table = make_table("punto_banco_macau", minimum="100")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 5},
                             metadata=pit()).session_id
    rid = open_round(sid, [{"seat": 1, "player": "P-a005", "type": "player", "amount": "300"}])
    error = refused(InvalidCommand, "over_limit", lambda: bet_place(
        round_id=rid, bets=[{"seat": 1, "player": "P-a005", "type": "banker", "amount": "250"}],
        metadata=pit()))
    assert "n.º 11" in error.extra["article"]
    bet_place(round_id=rid, bets=[{"seat": 1, "player": "P-a005", "type": "banker", "amount": "200"}],
              metadata=pit())
