"""Bets on plain values: the shape of a new bet, the table's limits (each refusal naming its
article), the odds limit, a player's straight-up maximum, taking a bet down. The figures are
worked out by hand in the comments."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from games.rules.bets import (
    TABLE_LIMITS,
    BetView,
    TableRules,
    check_limits,
    check_odds,
    check_straight_per_player,
    check_withdrawable,
    new_bets,
    next_id,
)
from games.rules.errors import CONFLICT, INVALID, RuleError

ROULETTE = TableRules(code="AR1", game="american_roulette", seats=6, limits={
    "straight": {"min": "5.00", "max": "150.00"},  # 5 x 30 (n.º 32 a)
    "even_chances": {"min": "5.00", "max": "2700.00"},  # 5 x 540 (n.º 32 b)
})
BLACKJACK = TableRules(code="BJ1", game="blackjack", seats=7,
                       limits={"main": {"min": "10.00", "max": "300.00"}})
CRAPS = TableRules(code="CR1", game="craps", seats=12, limits={
    "pass": {"min": "10.00", "max": "1000.00"}, "odds": {"min": "10.00", "max": "1000.00"},
    "place_6_8": {"min": "6.00", "max": "600.00"}})


def bet(bet_id: str, bet_type: str, amount: str, *, seat: int = 1, player: str = "red",
        base: str | None = None, carried_from: str | None = None, **fields: Any) -> BetView:
    """A bet of the round as the services read it: its amount to the cent."""
    value = Decimal(amount).quantize(Decimal("0.01"))
    return BetView(bet_id=bet_id, seat=seat, player=player, bet_type=bet_type, amount=value,
                   bet={"id": bet_id, "type": bet_type, "amount": str(value), **fields},
                   base=base, carried_from=carried_from)


def refusal(call: Any, *args: Any, **kwargs: Any) -> RuleError:
    with pytest.raises(RuleError) as refused:
        call(*args, **kwargs)
    return refused.value


# --- a new bet ----------------------------------------------------------------------------------


def test_a_new_bet_gets_the_first_free_id_and_the_engine_s_fields() -> None:
    [made] = new_bets(ROULETTE, {}, [{"seat": 2, "type": "red", "amount": "20"}],
                      [bet("b1", "black", "10")])
    assert made == BetView(bet_id="b2", seat=2, player="seat-2", bet_type="red",
                           amount=Decimal("20.00"),
                           bet={"id": "b2", "type": "red", "amount": "20.00"})


def test_the_next_id_skips_the_ids_taken() -> None:
    assert next_id(set()) == "b1"
    assert next_id({"b1", "b3"}) == "b4"  # two used: b3 first, taken; then b4
    assert next_id({"x", "y"}) == "b3"


def test_a_bet_over_the_table_maximum_is_refused_naming_the_article() -> None:
    error = refusal(new_bets, ROULETTE, {}, [{"seat": 1, "type": "red", "amount": "2700.01"}], [])
    assert (error.kind, error.code) == (INVALID, "over_limit")
    assert error.message == "red 2700.01 is over the table maximum 2700.00 for even_chances"
    assert error.extra == {"article": TABLE_LIMITS, "bet": "b1", "maximum": "2700.00"}


def test_a_bet_at_the_table_maximum_is_taken() -> None:
    [made] = new_bets(ROULETTE, {}, [{"seat": 1, "type": "red", "amount": "2700"}], [])
    assert made.amount == Decimal("2700.00")


def test_a_bet_below_the_table_minimum_is_refused() -> None:
    error = refusal(new_bets, ROULETTE, {}, [{"seat": 1, "type": "red", "amount": "4.99"}], [])
    assert error.message == "red 4.99 is below the table minimum 5.00 for even_chances"
    assert error.extra == {"article": TABLE_LIMITS, "bet": "b1", "minimum": "5.00"}


def test_a_bet_the_table_has_no_limits_for_is_not_offered() -> None:
    error = refusal(new_bets, ROULETTE, {}, [{"seat": 1, "type": "dozen", "amount": "10",
                                              "dozen": 1}], [])
    assert (error.code, error.message) == ("bet_not_offered", "dozen bets are not taken at table AR1")


def test_a_seat_the_table_lacks_is_refused() -> None:
    error = refusal(new_bets, ROULETTE, {}, [{"seat": 7, "type": "red", "amount": "10"}], [])
    assert (error.kind, error.code, error.message) == (
        INVALID, "no_such_seat", "table AR1 has no seat 7 (seats 1 to 6)")
    assert error.extra == {"field": "seat", "seat": 7}


def test_a_bet_id_already_used_is_refused() -> None:
    error = refusal(new_bets, ROULETTE, {},
                    [{"seat": 1, "type": "red", "amount": "10", "id": "b1"}], [bet("b1", "red", "5")])
    assert (error.code, error.message, error.extra) == (
        "invalid", "bet id 'b1' is already used in this round", {"field": "id"})


def test_a_bet_that_is_not_an_object_is_refused_by_its_place() -> None:
    error = refusal(new_bets, ROULETTE, {}, [{"seat": 1, "type": "red", "amount": "10"}, "red"], [])
    assert (error.message, error.extra) == ("bet 2 is not an object", {"field": "bets"})


def test_the_engine_s_refusal_keeps_its_code_and_names_the_bet() -> None:
    error = refusal(new_bets, ROULETTE, {}, [{"seat": 1, "type": "straight", "amount": "10",
                                              "numbers": [40]}], [])
    assert (error.kind, error.code) == (INVALID, "invalid_bet")
    assert error.extra == {"field": "bets", "bet": "b1"}


def test_a_double_is_taken_only_as_a_decision_of_the_hand() -> None:
    error = refusal(new_bets, BLACKJACK, {}, [{"seat": 1, "type": "double", "amount": "10"}], [])
    assert (error.kind, error.code, error.extra) == (CONFLICT, "decision_only", {"field": "type"})


def test_even_money_is_a_decision_except_in_a_whole_round() -> None:
    spec = {"seat": 1, "type": "main", "amount": "10", "even_money": True}
    assert refusal(new_bets, BLACKJACK, {}, [spec], []).code == "decision_only"
    [made] = new_bets(BLACKJACK, {}, [spec], [], whole=True)
    assert made.bet == {"id": "b1", "type": "main", "amount": "10.00", "even_money": True,
                        "seat": 1}


# --- blackjack and stud poker -------------------------------------------------------------------


def test_a_blackjack_stake_is_a_multiple_of_the_minimum() -> None:
    error = refusal(check_limits, BLACKJACK, {}, bet("b1", "main", "15"), [])
    assert error.message == "a blackjack stake is the minimum 10.00 or a multiple of it"
    assert error.extra == {"article": "Portaria 217/2007, blackjack, n.º 14", "bet": "b1"}


def test_the_stakes_on_one_seat_stay_within_the_maximum() -> None:
    holder = bet("b1", "main", "250")
    check_limits(BLACKJACK, {}, bet("b2", "back", "50", player="blue"), [holder])  # 300: taken
    error = refusal(check_limits, BLACKJACK, {}, bet("b2", "back", "60", player="blue"), [holder])
    assert error.message == "the stakes on seat 1 would be 310.00, over the table maximum 300.00"
    assert error.extra == {"article": "Portaria 217/2007, blackjack, n.º 15", "bet": "b2"}


def test_a_seat_has_one_holder_and_a_back_bet_needs_one() -> None:
    taken = refusal(check_limits, BLACKJACK, {}, bet("b2", "main", "10", player="blue"),
                    [bet("b1", "main", "10")])
    assert (taken.kind, taken.code) == (CONFLICT, "seat_taken")
    no_holder = refusal(check_limits, BLACKJACK, {}, bet("b1", "back", "10", seat=3), [])
    assert (no_holder.code, no_holder.message) == ("no_holder",
                                                   "seat 3 has no holder's stake to back")


def test_a_stud_poker_box_takes_one_ante() -> None:
    table = TableRules(code="SP1", game="stud_poker", seats=7,
                       limits={"ante": {"min": "10.00", "max": "250.00"}})
    error = refusal(check_limits, table, {}, bet("b2", "ante", "10", player="blue"),
                    [bet("b1", "ante", "10")])
    assert (error.code, error.message) == (
        "seat_taken", "box 1 already has an ante (one box per player, n.º 5)")


# --- craps: multiples and odds ------------------------------------------------------------------


def test_a_place_bet_is_a_multiple_of_its_minimum() -> None:
    error = refusal(check_limits, CRAPS, {}, bet("b1", "place", "10", number=6), [])
    assert error.message == "place bets are multiples of the minimum 6.00"  # 10 is not 6 x n
    check_limits(CRAPS, {}, bet("b1", "place", "12", number=6), [])  # 6 x 2


def test_odds_may_not_exceed_the_bet_they_back() -> None:
    line = bet("b1", "pass", "10")
    first = bet("b2", "odds", "6", base="b1", on="pass")
    check_odds(first, [line])  # 6 on 10
    error = refusal(check_odds, bet("b3", "odds", "5", base="b1", on="pass"), [line, first])
    assert (error.code, error.message) == (  # 6 + 5 = 11 on 10
        "over_limit", "odds of 11.00 on a 10.00 pass bet: odds may not exceed the bet they back")
    assert error.extra == {"article": "Portaria 217/2007, craps, n.º 11.1", "bet": "b3"}


def test_odds_name_the_bet_they_back() -> None:
    unnamed = refusal(check_odds, bet("b2", "odds", "5", on="pass"), [bet("b1", "pass", "10")])
    assert (unnamed.message, unnamed.extra) == (
        "odds back a line or come bet: name it in base",
        {"field": "base", "article": "Portaria 217/2007, craps, n.º 11.1"})
    wrong = refusal(check_odds, bet("b2", "odds", "5", base="b1", on="come"),
                    [bet("b1", "pass", "10")])
    assert wrong.message == "odds on come need a come bet to back; 'b1' is not one"


def test_odds_on_a_come_bet_ride_on_its_point() -> None:
    come = bet("b1", "come", "10", point=6)
    error = refusal(check_odds, bet("b2", "odds", "5", base="b1", on="come", point=8), [come])
    assert (error.message, error.extra) == ("odds on a come bet ride on that bet's point",
                                            {"field": "point"})
    check_odds(bet("b2", "odds", "5", base="b1", on="come", point=6), [come])


def test_the_odds_limit_is_checked_when_the_bet_is_placed() -> None:
    specs = [{"seat": 1, "type": "pass", "amount": "10"},
             {"seat": 1, "type": "odds", "on": "pass", "base": "b1", "amount": "20"}]
    error = refusal(new_bets, CRAPS, {}, specs, [])
    assert error.message == "odds of 20.00 on a 10.00 pass bet: odds may not exceed the bet they back"


# --- roulette: a player's straight-up maximum ---------------------------------------------------


def test_a_player_s_straight_ups_on_one_number_stay_within_the_straight_maximum() -> None:
    mine = [bet("b1", "straight", "100", numbers=[17])]
    check_straight_per_player(ROULETTE, bet("b2", "straight", "50", numbers=[17]), mine)  # 150
    error = refusal(check_straight_per_player, ROULETTE,
                    bet("b2", "straight", "51", numbers=[17]), mine)  # 151
    assert error.message == ("red would have 151.00 on number 17 in straight and neighbours "
                             "bets, over the straight maximum 150.00")
    assert error.extra == {"article": "Portaria 217/2007, roleta americana, n.º 32 d)",
                           "bet": "b2"}


def test_a_neighbours_bet_counts_its_chip_on_each_number() -> None:
    # 17 and 2 either side (25, 2 | 34, 6): 50 over five numbers, 10 on each; 141 + 10 = 151
    mine = [bet("b1", "neighbours", "50", number=17, neighbours=4)]
    error = refusal(check_straight_per_player, ROULETTE,
                    bet("b2", "straight", "141", numbers=[34]), mine)
    assert error.message.startswith("red would have 151.00 on number 34 ")
    check_straight_per_player(ROULETTE, bet("b2", "straight", "140", numbers=[34]), mine)


def test_another_player_s_straight_ups_are_not_counted() -> None:
    theirs = bet("b1", "straight", "150", numbers=[17], player="blue")
    check_limits(ROULETTE, {}, bet("b2", "straight", "150", numbers=[17]), [theirs])
    error = refusal(check_limits, ROULETTE, {}, bet("b2", "straight", "150", numbers=[17]),
                    [bet("b1", "straight", "5", numbers=[17])])
    assert error.message.startswith("red would have 155.00 on number 17 ")


# --- punto banco Macau ----------------------------------------------------------------------------


def test_player_and_banker_by_one_player_differ_by_the_minimum() -> None:
    table = TableRules(code="PB1", game="punto_banco_macau", seats=14,
                       limits={"player_banker": {"min": "10.00", "max": "700.00"}})
    banker = bet("b1", "banker", "95")
    error = refusal(check_limits, table, {}, bet("b2", "player", "100"), [banker])  # 100 - 95 = 5
    assert error.message == ("red bets on both player and banker: the difference must be at "
                             "least the table minimum 10.00")
    assert error.extra["article"] == "Portaria 217/2007, bacará ponto e banca/Macau, n.º 11"
    check_limits(table, {}, bet("b2", "player", "105"), [banker])  # 10: taken
    check_limits(table, {}, bet("b2", "player", "100", player="blue"), [banker])


# --- taking a bet down --------------------------------------------------------------------------


def test_a_carried_craps_bet_comes_down_only_where_the_rules_allow() -> None:
    check_withdrawable("craps", bet("b1", "place", "12", carried_from="r1", number=6))
    error = refusal(check_withdrawable, "craps", bet("b1", "pass", "10", carried_from="r1"))
    assert (error.kind, error.code, error.message) == (
        CONFLICT, "not_withdrawable",
        "this bet stays on the table once its point is set: only odds, place, lay, big 6, big 8 "
        "and hardway bets come down (Portaria 217/2007, craps, n.º 10.9)")  # no code (issue 36)
    assert error.extra == {"bet_type": "pass"}


def test_only_a_carried_bet_comes_down() -> None:
    error = refusal(check_withdrawable, "banca_francesa", bet("b1", "small", "10"))
    assert (error.code, error.message) == (
        "not_withdrawable", "only a bet left working by an earlier round is taken down here")
    check_withdrawable("banca_francesa", bet("b1", "small", "10", carried_from="r1"))
    assert refusal(check_withdrawable, "american_roulette",
                   bet("b1", "red", "10", carried_from="r1")).code == "not_withdrawable"


def test_a_carried_bet_reads_the_last_round_s_pending_item() -> None:
    carried = BetView.carried({"bet_id": "b4", "seat": 2, "player": "red", "amount": "10.00",
                               "bet": {"id": "b4", "type": "come", "amount": "10.00", "point": 6},
                               "base": None, "from_round_id": "r1"})
    assert (carried.bet_type, carried.amount, carried.stage, carried.carried_from) == (
        "come", Decimal("10.00"), "carried", "r1")
