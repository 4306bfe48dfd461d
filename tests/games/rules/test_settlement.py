"""Settlement on plain values: the prize cap (cents rounded down), carried bets, the handle and
the hold check's stakes, a correction. The engine's lines are written out by hand; the figures
the plan must book are worked out in the comments."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from games import play
from games.rules.bets import BetView, TableRules
from games.rules.errors import CONFLICT, INVALID, RuleError
from games.rules.settlement import SettledBet, engine_round, settle, settlement

STUD = TableRules(code="SP1", game="stud_poker", seats=7,
                  limits={"ante": {"min": "10.00", "max": "250.00"}},
                  max_prize_per_coup=Decimal("1000.00"))
CRAPS = TableRules(code="CR1", game="craps", seats=12, limits={})
ROULETTE = TableRules(code="AR1", game="american_roulette", seats=6, limits={})


def stake(bet_id: str, bet_type: str, amount: str, *, seat: int = 1,
          carried_from: str | None = None, hand_key: str | None = None,
          **fields: Any) -> BetView:
    value = Decimal(amount).quantize(Decimal("0.01"))
    return BetView(bet_id=bet_id, seat=seat, player="red", bet_type=bet_type, amount=value,
                   bet={"id": bet_id, "type": bet_type, "amount": str(value), **fields},
                   carried_from=carried_from, hand_key=hand_key)


def line(status: str, stake: str, win: str, returned: str, **more: Any) -> dict[str, Any]:
    return {"status": status, "stake": stake, "win": win, "returned": returned, **more}


def test_the_prize_cap_scales_each_win_down_to_the_cent() -> None:
    # wins 1000 + 500 = 1500 over a cap of 1000: two thirds of each, cents down:
    # 666.666... -> 666.66 and 333.333... -> 333.33; prizes 999.99, a cent under the cap
    bets = [stake("b1", "ante", "10"), stake("b2", "call", "20"), stake("b3", "ante", "10", seat=2)]
    settled = {"outcome": {}, "bets": [line("won", "10.00", "1000.00", "1010.00"),
                                       line("won", "20.00", "500.00", "520.00"),
                                       line("lost", "10.00", "0.00", "0.00")]}
    plan = settlement(STUD, "r1", settled, bets)
    assert [(b.win, b.returned, b.capped_win) for b in plan.bets] == [
        (Decimal("666.66"), Decimal("676.66"), Decimal("1000.00")),  # 1010 - 1000 + 666.66
        (Decimal("333.33"), Decimal("353.33"), Decimal("500.00")),   # 520 - 500 + 333.33
        (Decimal("0.00"), Decimal("0.00"), None),
    ]
    assert plan.prizes == Decimal("999.99")
    assert plan.result == Decimal("-989.99")  # (10 - 676.66) + (20 - 353.33) + 10
    assert plan.handle == Decimal("40.00")
    assert plan.stakes == {"ante": ["20.00", "200.0000"], "call": ["20.00", "400.0000"]}
    assert (plan.pending, plan.point_after, plan.correction, plan.result_delta) == (
        [], None, False, None)


def test_wins_within_the_cap_are_paid_as_the_engine_gave_them() -> None:
    plan = settlement(STUD, "r1", {"outcome": {}, "bets": [
        line("won", "10.00", "1000.00", "1010.00")]}, [stake("b1", "ante", "10")])
    assert plan.bets == [SettledBet(bet_id="b1", seat=1, player="red", bet_type="ante",
                                    status="won", stake=Decimal("10.00"),
                                    win=Decimal("1000.00"), returned=Decimal("1010.00"))]
    assert (plan.prizes, plan.result) == (Decimal("1000.00"), Decimal("-1000.00"))


def test_a_pending_bet_carries_at_its_new_point_and_a_carried_bet_adds_no_handle() -> None:
    # b1, a new come bet, goes to 6 and stays working: handle 10, no result;
    # b2, a pass bet carried in, loses: result 10, no handle
    bets = [stake("b1", "come", "10"), stake("b2", "pass", "10", carried_from="r0")]
    settled = {"outcome": {"point_after": 6}, "bets": [
        line("pending", "10.00", "0.00", "0.00", point=6), line("lost", "10.00", "0.00", "0.00")]}
    plan = settlement(CRAPS, "r1", settled, bets)
    assert (plan.handle, plan.result, plan.prizes) == (Decimal("10.00"), Decimal("10.00"),
                                                       Decimal("0.00"))
    assert plan.pending == [{"bet_id": "b1", "seat": 1, "player": "red",
                             "bet": {"id": "b1", "type": "come", "amount": "10.00", "point": 6},
                             "amount": "10.00", "base": None, "from_round_id": "r1"}]
    assert plan.point_after == 6
    assert plan.stakes == {"come": ["10.00", "100.0000"]}
    assert [(b.carried, b.point) for b in plan.bets] == [(False, 6), (True, None)]


def test_a_correction_books_no_handle_and_says_how_the_result_moved() -> None:
    # the straight on 17 now loses: result 10, where 5 was booked; it moved by 15
    plan = settlement(ROULETTE, "r1", {"outcome": {}, "bets": [
        line("lost", "10.00", "0.00", "0.00")]}, [stake("b1", "straight", "10", numbers=[17])],
        corrects={"b1": 3}, result_delta_from=Decimal("-5.00"))
    assert (plan.result, plan.handle, plan.stakes) == (Decimal("10.00"), Decimal("0.00"), {})
    assert (plan.correction, plan.result_delta) == (True, Decimal("15.00"))
    assert plan.bets[0].corrects == 3


def test_a_correction_that_leaves_bets_working_is_refused() -> None:
    with pytest.raises(RuleError) as refused:
        settlement(CRAPS, "r1", {"outcome": {}, "bets": [
            line("pending", "10.00", "0.00", "0.00", point=6)]}, [stake("b1", "come", "10")],
            corrects={"b1": 3}, result_delta_from=Decimal("0.00"))
    assert (refused.value.kind, refused.value.code, refused.value.message) == (
        CONFLICT, "correction_unsupported",
        "the corrected outcome leaves bets working: void the round instead")


def test_the_engine_settles_a_straight_up_at_thirty_five_to_one() -> None:
    settled = settle("american_roulette", {}, {"number": 17},
                     [stake("b1", "straight", "10", numbers=[17])], {})
    assert [(b["status"], b["stake"], b["win"], b["returned"]) for b in settled["bets"]] == [
        ("won", "10.00", "350.00", "360.00")]


def test_the_engine_s_refusal_of_an_outcome_names_the_outcome() -> None:
    with pytest.raises(RuleError) as refused:
        settle("american_roulette", {}, {"number": 40},
               [stake("b1", "straight", "10", numbers=[17])], {})
    assert refused.value.kind == INVALID
    assert refused.value.extra == {"field": "outcome"}


def test_a_split_stake_gets_the_number_of_its_hand_when_the_round_is_settled() -> None:
    hands = play.apply_decision(play.deal("9C", {"1": ["8S", "8H"]}), 1, 1, "split", ["2D", "3C"])
    bets = [stake("b1", "main", "20", seat=1),
            stake("b2", "split", "20", hand_key="1.1", bet="b1", hand=5)]
    round_ = engine_round("blackjack", {"decks": 6}, {"dealer": {}}, bets, hands)
    assert round_["bets"][0] == {"id": "b1", "type": "main", "amount": "20.00"}
    assert round_["bets"][1]["hand"] == 2  # the new hand follows the one it came from
    assert bets[1].bet["hand"] == 5  # the bet itself is left as it was
    assert (round_["game"], round_["options"], round_["outcome"]) == (
        "blackjack", {"decks": 6}, {"dealer": {}})
