"""The deal and the decisions of the hand on plain values: what is allowed, what is refused,
and the stakes a decision takes (worked out by hand in the comments)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest

from games import play
from games.rules.bets import BetView
from games.rules.decisions import check_cards, check_deal, decide
from games.rules.errors import CONFLICT, INVALID, RuleError


def stake(bet_id: str, bet_type: str, amount: str, *, seat: int = 1, player: str = "red",
          **fields: Any) -> BetView:
    value = Decimal(amount).quantize(Decimal("0.01"))
    return BetView(bet_id=bet_id, seat=seat, player=player, bet_type=bet_type, amount=value,
                   bet={"id": bet_id, "type": bet_type, "amount": str(value), "seat": seat,
                        **fields})


def refusal(call: Any, *args: Any, **kwargs: Any) -> RuleError:
    with pytest.raises(RuleError) as refused:
        call(*args, **kwargs)
    return refused.value


def blackjack(hands: play.Play, bets: list[BetView], decision: str,
              cards: Sequence[str] = (), *, hand: int = 1, bet_id: str | None = None, amount: object = None,
              followers: tuple[str, ...] = ()) -> tuple[int, list[BetView]]:
    return decide("blackjack", hands, bets, seat=1, hand=hand, decision=decision,
                  cards=list(cards), bet_id=bet_id, amount=amount, followers=followers)


# --- cards and the deal -------------------------------------------------------------------------


def test_cards_are_rank_and_suit() -> None:
    cards = ["AS", "TD"]
    assert check_cards(cards, 2, "seat 1") == cards
    assert check_cards(cards, 2, "seat 1") is not cards
    error = refusal(check_cards, ["AS", "10D"], 2, "seat 1")
    assert (error.code, error.message, error.extra) == (
        "invalid_outcome", "seat 1: 2 card(s) such as \"AS\" or \"TD\"", {"field": "seat 1"})
    assert refusal(check_cards, "AS", None, "cards").message == (
        "cards: cards such as \"AS\" or \"TD\"")
    assert refusal(check_cards, ["AS"], 2, "cards").code == "invalid_outcome"


def test_the_deal_goes_to_the_seats_with_a_holder_s_stake() -> None:
    bets = [stake("b1", "main", "10", seat=1), stake("b2", "main", "10", seat=3),
            stake("b3", "back", "10", seat=3, player="blue")]
    assert check_deal({}, "9C", {1: ["TS", "6H"], "3": ["8S", "8H"]}, bets) == {
        "1": ["TS", "6H"], "3": ["8S", "8H"]}
    error = refusal(check_deal, {}, "9C", {"1": ["TS", "6H"]}, bets)
    assert (error.message, error.extra) == ("deal to the seats with a stake: 1, 3",
                                            {"field": "seats"})


def test_the_deal_is_recorded_once_with_a_card_up() -> None:
    bets = [stake("b1", "main", "10")]
    dealt = play.deal("9C", {"1": ["TS", "6H"]})
    error = refusal(check_deal, dealt, "9C", {"1": ["TS", "6H"]}, bets)
    assert (error.kind, error.code) == (CONFLICT, "already_dealt")
    assert refusal(check_deal, {}, "9", {"1": ["TS", "6H"]}, bets).message == (
        "upcard: 1 card(s) such as \"AS\" or \"TD\"")
    assert refusal(check_deal, {}, "9C", [["TS", "6H"]], bets).message == (
        "seats map each seat to its two cards")


# --- stud poker ---------------------------------------------------------------------------------


def test_a_stud_poker_call_stakes_twice_the_ante() -> None:
    bets = [stake("b1", "ante", "15", seat=2)]
    hand, new = decide("stud_poker", {}, bets, seat=2, hand=3, decision="call", cards=[],
                       bet_id=None, amount=None, followers=())
    assert hand == 1
    assert new == [BetView(bet_id="b2", seat=2, player="red", bet_type="call",
                           amount=Decimal("30.00"), stage="decision",
                           bet={"id": "b2", "type": "call", "seat": 2, "amount": "30.00"})]
    assert decide("stud_poker", {}, bets, seat=2, hand=1, decision="fold", cards=[],
                  bet_id=None, amount=None, followers=()) == (1, [])


def test_a_stud_poker_box_decides_once_and_only_to_call_or_fold() -> None:
    bets = [stake("b1", "ante", "15", seat=2)]
    args: dict[str, Any] = {"hand": 1, "cards": [], "bet_id": None, "amount": None,
                            "followers": ()}
    again = refusal(decide, "stud_poker", {"decisions": {"2": "fold"}}, bets, seat=2,
                    decision="call", **args)
    assert (again.kind, again.code, again.message) == (
        CONFLICT, "already_decided", "box 2 already decided (the decision is irreversible, n.º 17)")
    raised = refusal(decide, "stud_poker", {}, bets, seat=2, decision="raise", **args)
    assert (raised.message, raised.extra) == ("at stud poker a box calls or folds (n.º 17)",
                                              {"field": "decision"})
    empty = refusal(decide, "stud_poker", {}, bets, seat=4, decision="call", **args)
    assert (empty.code, empty.message) == ("no_such_seat", "box 4 has no ante")


def test_a_game_without_decisions_of_the_hand() -> None:
    error = refusal(decide, "american_roulette", {}, [], seat=1, hand=1, decision="hit",
                    cards=[], bet_id=None, amount=None, followers=())
    assert (error.kind, error.message) == (INVALID, "american_roulette has no decisions of the hand")


# --- blackjack ----------------------------------------------------------------------------------


def test_no_decision_before_the_deal() -> None:
    error = refusal(blackjack, {}, [stake("b1", "main", "20")], "hit", ["2D"])
    assert (error.kind, error.code, error.message) == (CONFLICT, "not_dealt",
                                                       "record the deal first")


def test_a_hit_is_allowed_on_sixteen_and_takes_no_stake() -> None:
    hands = play.deal("9C", {"1": ["TS", "6H"]})
    assert blackjack(hands, [stake("b1", "main", "20")], "hit", ["2D"]) == (1, [])


def test_a_split_of_ten_and_six_is_refused_with_what_is_allowed() -> None:
    # 16 against a 9: a card (below 21), stand (above 11), surrender (untouched, no ace up);
    # no double (16 is not 9 to 11), no split (not a pair)
    hands = play.deal("9C", {"1": ["TS", "6H"]})
    error = refusal(blackjack, hands, [stake("b1", "main", "20")], "split", ["2D", "3C"])
    assert (error.kind, error.code) == (CONFLICT, "decision_not_allowed")
    # the decision in words, as the pit's buttons say it, never its code (issue 36)
    assert error.message == "Split is not allowed on this hand now (TS 6H against 9C)"
    assert error.params is not None
    assert error.params["decision"].context == "blackjack decision"
    assert error.extra == {"allowed": ["hit", "stand", "surrender"]}


def test_a_split_takes_the_holder_s_stake_again_and_the_back_bet_that_follows() -> None:
    hands = play.deal("9C", {"1": ["8S", "8H"]})
    bets = [stake("b1", "main", "20"), stake("b2", "back", "10", player="blue")]
    hand, new = blackjack(hands, bets, "split", ["2D", "3C"], followers=("b2",))
    assert hand == 1
    assert [(b.bet_id, b.player, b.bet_type, b.amount, b.hand_key, b.bet) for b in new] == [
        ("b3", "red", "split", Decimal("20"), "1.1",
         {"id": "b3", "type": "split", "amount": "20.00", "bet": "b1", "hand": 2}),
        ("b4", "blue", "split", Decimal("10"), "1.1",
         {"id": "b4", "type": "split", "amount": "10.00", "bet": "b2", "hand": 2}),
    ]


def test_a_follower_is_a_back_bet_on_the_seat() -> None:
    hands = play.deal("9C", {"1": ["8S", "8H"]})
    error = refusal(blackjack, hands, [stake("b1", "main", "20")], "split", ["2D", "3C"],
                    followers=("b7",))
    assert (error.message, error.extra) == ("'b7' is not a back bet on seat 1",
                                            {"field": "followers"})


def test_a_double_on_eleven_stakes_the_bet_again_with_its_card() -> None:
    hands = play.deal("9C", {"1": ["5S", "6H"]})
    bets = [stake("b1", "main", "20")]
    _hand, [double] = blackjack(hands, bets, "double", ["9D"])
    assert (double.bet_id, double.amount, double.stage, double.bet) == (
        "b2", Decimal("20.00"), "decision",
        {"id": "b2", "type": "double", "amount": "20.00", "bet": "b1"})
    error = refusal(blackjack, hands, bets, "double", [])
    assert (error.code, error.message) == ("invalid_outcome",
                                           "cards: 1 card(s) such as \"AS\" or \"TD\"")


def test_a_finished_hand_takes_no_more_decisions() -> None:
    hands = play.apply_decision(play.deal("9C", {"1": ["TS", "6H"]}), 1, 1, "stand", [])
    error = refusal(blackjack, hands, [stake("b1", "main", "20")], "hit", ["2D"])
    assert (error.kind, error.code, error.message) == (
        CONFLICT, "hand_finished", "hand 1 of seat 1 is finished")


def test_a_hand_the_seat_does_not_have_and_a_decision_blackjack_does_not_know() -> None:
    hands = play.deal("9C", {"1": ["TS", "6H"]})
    bets = [stake("b1", "main", "20")]
    assert refusal(blackjack, hands, bets, "hit", ["2D"], hand=2).message == (
        "seat 1 has no hand 2")
    assert refusal(blackjack, hands, bets, "fold").message == "'fold' is not a blackjack decision"


def test_insurance_is_at_most_half_the_bet_cents_down() -> None:
    # half of 25.01 is 12.505: 12.50
    hands = play.deal("AS", {"1": ["TS", "6H"]})
    bets = [stake("b1", "main", "25.01")]
    _hand, [insurance] = blackjack(hands, bets, "insurance", bet_id="b1")
    assert (insurance.bet_type, insurance.amount, insurance.bet) == (
        "insurance", Decimal("12.50"),
        {"id": "b2", "type": "insurance", "amount": "12.50", "bet": "b1"})
    _hand, [smaller] = blackjack(hands, bets, "insurance", bet_id="b1", amount="5")
    assert smaller.amount == Decimal("5.00")
    error = refusal(blackjack, hands, bets, "insurance", bet_id="b1", amount="12.51")
    assert (error.code, error.message, error.extra) == (
        "over_limit", "insurance is at most half the bet: 12.50 (n.º 33)",
        {"article": "Portaria 217/2007, blackjack, n.º 33"})


def test_a_back_bettor_insures_only_after_the_seat_holder() -> None:
    hands = play.deal("AS", {"1": ["TS", "6H"]})
    bets = [stake("b1", "main", "20"), stake("b2", "back", "10", player="blue")]
    error = refusal(blackjack, hands, bets, "insurance", bet_id="b2")
    assert (error.kind, error.code) == (CONFLICT, "decision_not_allowed")
    insured = [*bets, stake("b3", "insurance", "10", bet="b1")]
    _hand, [theirs] = blackjack(hands, insured, "insurance", bet_id="b2")
    assert (theirs.bet_id, theirs.player, theirs.amount) == ("b4", "blue", Decimal("5.00"))
    again = refusal(blackjack, hands, insured, "insurance", bet_id="b1")
    assert (again.code, again.message) == ("already_decided",
                                           "b1 already took insurance or even money")


def test_insurance_names_a_bet_of_the_seat() -> None:
    hands = play.deal("AS", {"1": ["TS", "6H"]})
    error = refusal(blackjack, hands, [stake("b1", "main", "20")], "insurance", bet_id="b9")
    assert (error.message, error.extra) == (
        "name the main or back bet of seat 1 that takes Insurance", {"field": "bet_id"})
