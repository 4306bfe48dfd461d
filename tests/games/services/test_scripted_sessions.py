"""A scripted session per game family, open to close, with the table win computed by hand.

Table win = drop + closing - opening + credits - fills; each test writes the figures out.
After each, a rebuild of every projection from the events equals the live tables.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from games import selectors
from games.models import GamingDayResult, Round, Slip, TableSession
from games.services import (
    bet_place,
    colour_chips_exchange,
    colour_chips_issue,
    credit_request,
    deal_record,
    decision_record,
    drop_record,
    fill_request,
    outcome_record,
    round_close_betting,
    round_open,
    round_record,
    round_settle,
    round_void,
    slip_void,
    table_session_close,
    table_session_open,
)

from ..conftest import CASINO, count_box, notes, pit, rebuild_differences

pytestmark = pytest.mark.django_db


def play(session: str, bets: list[dict], outcome: dict) -> str:
    """A live round as four commands: open with bets, no more bets, outcome, settle."""
    opened = round_open(session_id=session, bets=bets, metadata=pit())
    rid = opened.round_id
    round_close_betting(round_id=rid, metadata=pit())
    outcome_record(round_id=rid, outcome=outcome, metadata=pit())
    round_settle(round_id=rid, metadata=pit())
    return rid


def session_of(session_id: str) -> TableSession:
    return TableSession.objects.get(session_id=session_id)


def test_roulette_session_with_fills_credits_colour_chips_and_a_void(make_table, cage) -> None:
    table = make_table("french_roulette", minimum="5")
    opened = table_session_open(casino=CASINO, table=table,
                                opening={"100.00": 20, "25.00": 40, "5.00": 100}, metadata=pit())
    sid = opened.session_id
    assert opened.opening_amount == "3500.00"
    drop_record(session_id=sid, amount="500", seat=1, player="P-a001", metadata=pit())

    # Round 1: 17 black. Straight 17 of 10 wins 350; red 50 loses; dozen 2 of 20 wins 40.
    r1 = play(sid, [{"seat": 1, "player": "P-a001", "type": "straight", "numbers": [17],
                     "amount": "10"},
                    {"seat": 2, "type": "red", "amount": "50"},
                    {"seat": 3, "type": "dozen", "dozen": 2, "amount": "20"}],
              {"number": 17})
    assert Round.objects.get(round_id=r1).result == D("-340.00")
    # Round 2: 0. Split 0-2 of 10 wins 170; black 100 loses.
    play(sid, [{"seat": 1, "type": "split", "numbers": [0, 2], "amount": "10"},
               {"seat": 2, "type": "black", "amount": "100"}], {"number": 0})
    # Round 3: the ball left the wheel: void, nothing settles.
    r3 = round_open(session_id=sid, bets=[{"seat": 2, "type": "odd", "amount": "30"}],
                    metadata=pit()).round_id
    round_void(round_id=r3, reason="ball jumped out of the wheel", metadata=pit())

    # Colour chips: 20 chips at 5.00 for value chips, 12 exchanged back, 8 late at the minimum.
    colour_chips_issue(session_id=sid, colour="green", player="P-a003", chip_value="5", chips=20,
                       metadata=pit())
    colour_chips_exchange(session_id=sid, colour="green", chips=12, metadata=pit())
    colour_chips_exchange(session_id=sid, colour="green", chips=8, late=True, metadata=pit())

    fill_request(session_id=sid, slip="F0001", chips={"100.00": 10}, metadata=pit())
    cage("F0001")
    credit_request(session_id=sid, slip="C0001", chips={"100.00": 5}, metadata=pit())
    fill_request(session_id=sid, slip="F0003", chips={"25.00": 4}, metadata=pit())
    slip_void(casino=CASINO, kind="fill", slip="F0003", reason="written on the wrong table",
              metadata=pit())

    live = session_of(sid)
    assert live.float_chips == {"100.00": 25, "25.00": 40, "5.00": 100}  # +10 fill, -5 credit
    assert live.fills_amount == D("1000.00")
    assert live.credits_amount == D("500.00")
    assert selectors.slip_get(casino=CASINO, kind="fill", number="F0001").status == "issued"
    assert Slip.objects.get(number="F0003").status == "voided"
    assert selectors.slip_missing_numbers(casino=CASINO, kind="fill")[0]["missing"] == ["F0002"]

    # Closing: 3500 + 1000 fill - 500 credit - 500 sold for the drop - 410 paid out on balance
    # = 3090 (colour chips came back in full; the late ones were paid at the minimum, the same).
    table_session_close(session_id=sid, closing={"100.00": 25, "25.00": 20, "5.00": 18},
                        metadata=pit())
    closed = count_box(sid, notes("500"))
    s = session_of(sid)
    # Table win = 500 + 3090 - 3500 + 500 - 1000 = -410 = the rounds: -340 - 70.
    assert closed.table_win == "-410.00"
    assert s.table_win == D("-410.00")
    assert s.round_result == D("-410.00")
    assert s.variance == D("0.00")
    assert s.handle == D("190.00")  # 10 + 50 + 20 + 10 + 100: the void round staked nothing
    assert s.drop == D("500.00")
    assert s.hold_percent == D("-82.0000")
    assert (s.rounds, s.rounds_voided) == (3, 1)
    day = GamingDayResult.objects.get(table=table)
    assert (day.table_win, day.drop, day.rounds) == (D("-410.00"), D("500.00"), 2)
    assert rebuild_differences() == []


def test_auto_roll_opens_on_the_last_closing_count_and_records_a_difference(make_table) -> None:
    table = make_table("french_roulette")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    table_session_close(session_id=sid, closing={"100.00": 10, "5.00": 4},
                        metadata=pit())
    count_box(sid, {})
    assert selectors.table_tray_totals(casino=CASINO) == {D("100.00"): 10, D("5.00"): 4}
    rolled = table_session_open(casino=CASINO, table=table, metadata=pit())
    assert rolled.opening_amount == "1020.00"
    assert rolled.roll_difference == {}
    table_session_close(session_id=rolled.session_id, closing={"100.00": 10, "5.00": 4},
                        metadata=pit())
    count_box(rolled.session_id, {})
    counted = table_session_open(casino=CASINO, table=table, opening={"100.00": 10, "5.00": 3},
                                 metadata=pit())
    assert counted.roll_difference == {"5.00": -1}
    assert session_of(counted.session_id).previous_session_id is not None
    assert rebuild_differences() == []


def test_banca_francesa_push_stays_where_it_is(make_table) -> None:
    table = make_table("banca_francesa", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 50},
                             metadata=pit()).session_id
    # Throw 1: total 10 decides nothing: both bets stay (handle counts them once).
    play(sid, [{"seat": 1, "type": "big", "amount": "100"},
               {"seat": 2, "type": "aces", "amount": "10"}], {"dice": [3, 3, 4]})
    assert len(session_of(sid).pending_bets) == 2
    # Throw 2: 15, grande: big wins 100, aces loses 10; a new small_line of 40 loses half (20).
    play(sid, [{"seat": 3, "type": "small_line", "amount": "40"}], {"dice": [6, 5, 4]})
    s = session_of(sid)
    assert s.pending_bets == []
    assert s.handle == D("150.00")
    assert s.round_result == D("-70.00")  # -100 + 10 + 20
    # Closing: 5000 - 70 = 4930.
    table_session_close(session_id=sid, closing={"100.00": 49, "25.00": 1, "5.00": 1},
                        metadata=pit())
    count_box(sid, {})
    assert session_of(sid).table_win == D("-70.00")
    assert rebuild_differences() == []


def test_dice_cussec_session(make_table) -> None:
    table = make_table("cussec", minimum="5")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 30},
                             metadata=pit()).session_id
    drop_record(session_id=sid, amount="300", metadata=pit())
    # 5-2-5: single 5 of 10 wins 20; big 50 wins 50; total 12 of 5 wins 35 (7 to 1).
    play(sid, [{"seat": 1, "type": "single", "number": 5, "amount": "10"},
               {"seat": 2, "type": "big", "amount": "50"},
               {"seat": 3, "type": "total", "total": 12, "amount": "5"}], {"dice": [5, 2, 5]})
    # 3-3-3: big 50 loses (triple); any triple 5 wins 160.
    play(sid, [{"seat": 2, "type": "big", "amount": "50"},
               {"seat": 1, "type": "any_triple", "amount": "5"}], {"dice": [3, 3, 3]})
    # Result: -(20 + 50 + 35) + 50 - 160 = -215. Closing 3000 - 300 sold - 215 = 2485.
    table_session_close(session_id=sid, closing={"100.00": 24, "25.00": 3, "5.00": 2},
                        metadata=pit())
    count_box(sid, notes("300"))
    s = session_of(sid)
    assert s.round_result == D("-215.00")
    assert s.table_win == D("-215.00")  # 300 + 2485 - 3000
    assert s.hold_percent == D("-71.6667")
    assert rebuild_differences() == []


def test_craps_bets_carry_from_roll_to_roll_until_decided(make_table) -> None:
    table = make_table("craps", minimum="5", seats=12)
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 50},
                             metadata=pit()).session_id
    # Come-out 4: pass 10 stays (point 4); field 5 wins 5 (4 is a field number).
    play(sid, [{"id": "p1", "seat": 1, "type": "pass", "amount": "10"},
               {"seat": 2, "type": "field", "amount": "5"}], {"dice": [1, 3]})
    s = session_of(sid)
    assert s.craps_point == 4
    assert [p["bet_id"] for p in s.pending_bets] == ["p1"]
    # Roll 2 (point 4): odds 10 on the pass (2:1), place 6 of 12 (7:6); rolls 6: place wins 14.
    r2 = round_open(session_id=sid, bets=[
        {"id": "o1", "seat": 1, "type": "odds", "on": "pass", "base": "p1", "amount": "10"},
        {"seat": 3, "type": "place", "number": 6, "amount": "12"}], metadata=pit()).round_id
    assert set(Round.objects.get(round_id=r2).point for _ in [0]) == {4}
    round_close_betting(round_id=r2, metadata=pit())
    outcome_record(round_id=r2, outcome={"dice": [3, 3]}, metadata=pit())
    round_settle(round_id=r2, metadata=pit())
    # Roll 3: 2-2 makes the point: pass wins 10, odds win 20 (the place 6 won on roll 2).
    play(sid, [], {"dice": [2, 2]})
    s = session_of(sid)
    assert (s.craps_point, s.pending_bets) == (None, [])
    # Roll 4 (come-out): place 8 of 12; 2-3 sets the point 5, the place 8 keeps working.
    play(sid, [{"seat": 3, "type": "place", "number": 8, "amount": "12"}], {"dice": [2, 3]})
    s = session_of(sid)
    assert s.craps_point == 5
    assert [p["bet"]["type"] for p in s.pending_bets] == ["place"]
    # Roll 5: seven-out: the place 8 loses 12.
    play(sid, [], {"dice": [3, 4]})
    s = session_of(sid)
    assert s.pending_bets == []
    # Handle 10 + 5 + 10 + 12 + 12 = 49 (carried bets are not staked again).
    assert s.handle == D("49.00")
    # Result: -5 (field) -14 (place 6) -10 -20 (pass, odds) +12 (place 8 lost) = -37.
    assert s.round_result == D("-37.00")
    table_session_close(session_id=sid, closing={"100.00": 49, "25.00": 2, "5.00": 2, "1.00": 3},
                        metadata=pit())
    count_box(sid, {})
    assert session_of(sid).table_win == D("-37.00")  # 4963 - 5000
    assert rebuild_differences() == []


def test_blackjack_hands_played_decision_by_decision(make_table) -> None:
    table = make_table("blackjack", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 40},
                             metadata=pit()).session_id
    drop_record(session_id=sid, amount="200", metadata=pit())
    rid = round_open(session_id=sid, bets=[
        {"id": "m1", "seat": 1, "player": "P-a002", "type": "main", "amount": "20"},
        {"id": "k1", "seat": 1, "player": "P-a003", "type": "back", "amount": "10"},
        {"id": "m2", "seat": 2, "type": "main", "amount": "50"},
        {"id": "m3", "seat": 3, "type": "main", "amount": "30"}], metadata=pit()).round_id
    round_close_betting(round_id=rid, metadata=pit())
    deal_record(round_id=rid, upcard="6H", seats={"1": ["8S", "8D"], "2": ["5C", "6D"],
                                                  "3": ["TH", "6S"]}, metadata=pit())
    # Seat 1 splits eights; the back bettor follows. Hand 1: 8-3, hits a T: 21, stands.
    decision_record(round_id=rid, seat=1, hand=1, decision="split", cards=["3C", "2H"],
                    followers=["k1"], metadata=pit())
    decision_record(round_id=rid, seat=1, hand=1, decision="hit", cards=["TC"], metadata=pit())
    decision_record(round_id=rid, seat=1, hand=1, decision="stand", metadata=pit())
    # Hand 2: 8-2 doubles (10), draws a 9: 19. The back bettor does not double.
    decision_record(round_id=rid, seat=1, hand=2, decision="double", cards=["9S"],
                    metadata=pit())
    # Seat 2: 11 doubles, draws a 2: 13. Seat 3: 16 stands.
    decision_record(round_id=rid, seat=2, hand=1, decision="double", cards=["2C"],
                    metadata=pit())
    decision_record(round_id=rid, seat=3, hand=1, decision="stand", metadata=pit())
    # The bank: 6H, hole KS = 16, draws 7D = 23, busts.
    outcome_record(round_id=rid, outcome={"dealer": {"cards": ["6H", "KS", "7D"]}},
                   metadata=pit())
    settled = round_settle(round_id=rid, metadata=pit())
    # Every stake wins 1:1: main 20, back 10, split 20 + 10 (back follows), double 20 (hand 2),
    # seat 2 main 50 + double 50, seat 3 30: 210 paid.
    assert settled.result == "-210.00"
    assert settled.handle == "210.00"
    # Closing: 4000 - 200 sold + -210 = 3590.
    table_session_close(session_id=sid, closing={"100.00": 35, "25.00": 3, "5.00": 3},
                        metadata=pit())
    count_box(sid, notes("200"))
    s = session_of(sid)
    assert s.table_win == D("-210.00")  # 200 + 3590 - 4000
    assert s.hold_percent == D("-105.0000")
    assert rebuild_differences() == []


def test_stud_poker_call_and_fold_and_the_prize_cap(make_table) -> None:
    table = make_table("stud_poker", minimum="10", cap="1000")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 50},
                             metadata=pit()).session_id
    rid = round_open(session_id=sid, bets=[
        {"seat": 1, "type": "ante", "amount": "10"},
        {"seat": 2, "type": "ante", "amount": "20"},
        {"seat": 3, "type": "ante", "amount": "10"}], metadata=pit()).round_id
    round_close_betting(round_id=rid, metadata=pit())
    decision_record(round_id=rid, seat=1, decision="call", metadata=pit())
    decision_record(round_id=rid, seat=2, decision="call", metadata=pit())
    decision_record(round_id=rid, seat=3, decision="fold", metadata=pit())
    outcome_record(round_id=rid, outcome={
        "dealer": {"cards": ["AS", "KD", "7C", "5H", "2D"]},
        "seats": [{"seat": 1, "cards": ["AH", "KH", "QH", "JH", "TH"]},
                  {"seat": 2, "cards": ["9C", "9D", "5S", "3H", "2C"]},
                  {"seat": 3, "cards": ["8C", "7D", "6S", "4S", "3D"]}]}, metadata=pit())
    round_settle(round_id=rid, metadata=pit())
    bets = {(b.seat, b.bet_type): b for b in selectors.bet_list(round_id=rid)}
    # Seat 1 royal flush: ante 10 wins 10, call 20 wins 2000 -> the coup's prizes 10 + 2000 +
    # (seat 2 pair of nines vs A-K: ante 20 wins 20, call 40 wins 40) = 2070 > the 1000 cap:
    # every prize scaled by 1000/2070, rounded down.
    assert bets[(1, "call")].capped_win == D("2000.00")
    assert bets[(1, "call")].win == D("966.18")
    assert bets[(1, "ante")].win == D("4.83")
    assert bets[(2, "ante")].win == D("9.66")
    assert bets[(2, "call")].win == D("19.32")
    assert bets[(3, "ante")].status == "lost"
    # Result: 10 (fold) - 966.18 - 4.83 - 9.66 - 19.32 = -989.99
    s = session_of(sid)
    assert s.round_result == D("-989.99")
    assert s.handle == D("100.00")
    table_session_close(session_id=sid, closing={"100.00": 40, "5.00": 2, "0.01": 1},
                        metadata=pit())
    count_box(sid, {})
    assert session_of(sid).table_win == D("-989.99")  # 4010.01 - 5000
    assert rebuild_differences() == []


def test_baccarat_session_with_whole_rounds(make_table) -> None:
    table = make_table("punto_banco", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 50},
                             metadata=pit()).session_id
    drop_record(session_id=sid, amount="1000", metadata=pit())
    # Banker 3C 2D (5) beats player 2S KH TD (2): banker 100 wins 95 (5% off); player 50 loses.
    round_record(session_id=sid, bets=[{"seat": 1, "type": "banker", "amount": "100"},
                                       {"seat": 2, "type": "player", "amount": "50"}],
                 outcome={"player": ["2S", "KH", "TD"], "banker": ["3C", "2D"]}, metadata=pit())
    # Tie (2S 3H KD = 5 vs TS 5C = 5): tie 10 wins 80; player 40 pushes.
    round_record(session_id=sid, bets=[{"seat": 3, "type": "tie", "amount": "10"},
                                       {"seat": 2, "type": "player", "amount": "40"}],
                 outcome={"player": ["2S", "3H", "KD"], "banker": ["TS", "5C"]}, metadata=pit())
    bet_place  # noqa: B018 (the live path is covered by the other games)
    s = session_of(sid)
    assert s.round_result == D("-125.00")  # -95 + 50 - 80
    assert s.handle == D("200.00")
    # Closing: 5000 - 1000 sold - 125 = 3875.
    table_session_close(session_id=sid, closing={"100.00": 38, "25.00": 3}, metadata=pit())
    count_box(sid, notes("1000"))
    s = session_of(sid)
    assert s.table_win == D("-125.00")
    assert s.hold_percent == D("-12.5000")
    assert s.win_handle_percent == D("-62.5000")
    assert rebuild_differences() == []


def test_football_poker_bets_on_several_hands(make_table) -> None:
    table = make_table("football_poker", minimum="10", seats=8)
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 20},
                             metadata=pit()).session_id
    # Hand 1: 9S KH KD = 9 with three cards: upper 20 push, post 10 wins 80.
    # Hand 2: 7C 2D 5H = 4 (9, then 4): even 30 wins 30; lower 20 loses.
    # Hand 3: KS QD JC = 0 with three cards: odd 20 half lost (10 kept by the bank).
    play(sid, [{"seat": 1, "type": "upper", "amount": "20"},
               {"seat": 1, "type": "post", "amount": "10"},
               {"seat": 2, "type": "even", "amount": "30"},
               {"seat": 2, "type": "lower", "amount": "20"},
               {"seat": 3, "type": "odd", "amount": "20"}],
         {"hands": [{"seat": 1, "cards": ["9S", "KH", "KD"]},
                    {"seat": 2, "cards": ["7C", "2D", "5H"]},
                    {"seat": 3, "cards": ["KS", "QD", "JC"]}]})
    s = session_of(sid)
    assert s.round_result == D("-80.00")  # -80 - 30 + 20 + 10
    table_session_close(session_id=sid, closing={"100.00": 19, "5.00": 4}, metadata=pit())
    count_box(sid, {})
    assert session_of(sid).table_win == D("-80.00")  # 1920 - 2000
    assert rebuild_differences() == []
