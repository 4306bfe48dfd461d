"""The pure jackpot rules: ``jackpots.rules.pay_coup`` (docs/jackpots.md § Paying a coup as data).

No database. The worked examples A-D with the figures of docs/jackpots.md, the combinations, every
error of its list (§ Paying a coup as data), and properties of any coup (hypothesis).
"""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jackpots import rules
from jackpots.rules import pay_coup

from .conftest import BLACKJACK, EXAMPLES, STUD, example_request

# --- the worked examples ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_worked_example_pays_the_figures_of_docs_jackpots(name: str) -> None:
    assert pay_coup(example_request(name)) == EXAMPLES[name]["result"]


def test_the_documented_request_and_result_as_data() -> None:
    request = {"game": "stud_poker", "jackpot": copy.deepcopy(STUD), "pool": "52345.67",
               "bets": [{"id": "s1", "amount": "1.00", "cards": ["AS", "KS", "QS", "JS", "TS"]},
                        {"id": "s5", "amount": "1.00", "cards": ["9H", "8H", "7H", "6H", "5H"],
                         "folded": True}]}
    assert pay_coup(request) == {
        "game": "stud_poker", "pool_before": "52345.67", "contributions": "1.40",
        "pool_at_payment": "52347.07",
        "bets": [{"id": "s1", "combination": "royal_flush", "prize": "52347.07"},
                 {"id": "s5", "combination": None, "prize": "0.00"}],
        "paid": "52347.07", "jackpot_won": True, "pool_after": "10000.00"}


def test_example_b_leaves_the_rounding_cent_in_the_pool() -> None:
    coup = rules.coup(example_request("B"))
    straight = next(p for p in coup.payments if p.combination == "straight_flush")
    assert straight.nominal == Decimal("2990.21")  # 10% of 29,902.10
    assert straight.each == Decimal("1495.10")  # 1,495.105 rounded down
    assert straight.pool_before - straight.pool_after == Decimal("2990.20")  # 0.01 stays


def test_example_c_pays_from_the_lowest_combination_to_the_highest() -> None:
    coup = rules.coup(example_request("C"))
    assert [(p.combination, p.pool_before, p.pool_after) for p in coup.payments] == [
        ("two_aces", Decimal("20004.00"), Decimal("19954.00")),
        ("three_aces", Decimal("19954.00"), Decimal("19704.00")),
        ("four_aces_suited", Decimal("19704.00"), Decimal("0.00")),
    ]


def test_example_d_the_top_winners_split_and_a_cent_is_left_for_the_restart() -> None:
    coup = rules.coup(example_request("D"))
    assert coup.leftover == Decimal("0.01")
    assert coup.pool_after == Decimal("10000.01")


# --- combinations -------------------------------------------------------------------------------


def _bj(cards: list[str], paytable: list[dict[str, str]] | None = None) -> str | None:
    config = rules.parse_config("blackjack", dict(BLACKJACK, paytable=paytable or
                                                  BLACKJACK["paytable"]))
    return rules.combination_of(config, cards)


@pytest.mark.parametrize(("cards", "combination"), [
    (["AS", "AH"], "two_aces"),
    (["AS", "AS"], "two_aces_suited"),
    (["AS", "KS"], None),
    (["KS", "AS", "AH"], None),  # the first two must be aces
    (["AS", "AH", "AD"], "three_aces"),
    (["AS", "AS", "AS"], "three_aces"),  # three_aces_suited is not listed: three_aces is
    (["AS", "AH", "9D", "AC"], "two_aces"),  # the first three are not all aces
    (["AS", "AH", "AD", "AC"], "four_aces"),
    (["AH", "AH", "AH", "AH"], "four_aces_suited"),
])
def test_blackjack_combination_is_the_highest_listed_one_the_first_cards_make(
        cards: list[str], combination: str | None) -> None:
    assert _bj(cards) == combination


def test_blackjack_suited_combination_listed() -> None:
    paytable = [{"combination": "three_aces_suited", "pays": "jackpot"},
                {"combination": "two_aces", "pays": "10x"}]
    assert _bj(["AD", "AD", "AD"], paytable) == "three_aces_suited"
    assert _bj(["AD", "AD", "AC"], paytable) == "two_aces"


def _stud(cards: list[str], paytable: list[dict[str, str]] | None = None,
          folded: bool = False) -> str | None:
    config = rules.parse_config("stud_poker", dict(STUD, paytable=paytable or STUD["paytable"]))
    return rules.combination_of(config, cards, folded=folded)


def test_stud_combination_is_the_hand_own_category_only() -> None:
    assert _stud(["7C", "7D", "7H", "7S", "3C"]) == "four_of_a_kind"
    three = [{"combination": "four_of_a_kind", "pays": "jackpot"},
             {"combination": "three_of_a_kind", "pays": "5x"}]
    assert _stud(["7C", "7D", "7H", "2S", "3C"], three) == "three_of_a_kind"
    assert _stud(["7C", "7D", "7H", "3S", "3C"], three) is None  # a full house is not a trio
    assert _stud(["2C", "2D", "5H", "9S", "KC"]) is None


def test_a_royal_flush_counts_as_a_straight_flush_when_royal_is_not_listed() -> None:
    paytable = [{"combination": "straight_flush", "pays": "jackpot"},
                {"combination": "flush", "pays": "50x"}]
    assert _stud(["AS", "KS", "QS", "JS", "TS"], paytable) == "straight_flush"
    assert _stud(["AS", "2S", "3S", "4S", "5S"], paytable) == "straight_flush"  # 5-high


def test_a_folded_stud_hand_wins_nothing_but_its_chip_feeds_the_pool() -> None:
    request = example_request("A")
    request["bets"] = [dict(request["bets"][0], folded=True)]
    result = pay_coup(request)
    assert result["bets"] == [{"id": "seat1", "combination": None, "prize": "0.00"}]
    assert result["contributions"] == "0.70"
    assert result["pool_after"] == "52346.37"
    assert result["jackpot_won"] is False


def test_blackjack_equal_prizes_are_each_paid_or_share_the_pool_when_it_cannot() -> None:
    config = dict(BLACKJACK, paytable=[{"combination": "four_aces_suited", "pays": "jackpot"},
                                       {"combination": "two_aces", "pays": "100%"}])
    request = {"game": "blackjack", "jackpot": config, "pool": "10.00",
               "bets": [{"id": "a", "amount": "1.00", "cards": ["AS", "AH"]},
                        {"id": "b", "amount": "1.00", "cards": ["AD", "AC"]},
                        {"id": "c", "amount": "1.00", "cards": ["AD", "AS"]}]}
    # pool 12.40 after the increments: 100% of it for each of three winners cannot be paid
    result = pay_coup(request)
    assert [b["prize"] for b in result["bets"]] == ["4.13", "4.13", "4.13"]
    assert result["pool_after"] == "0.01"


def test_a_fixed_prize_never_exceeds_the_pool() -> None:
    request = example_request("B")
    request["pool"] = "50.00"
    request["bets"] = [request["bets"][2]]  # the full house: 100x = 100.00 > 50.70
    result = pay_coup(request)
    assert result["bets"][0]["prize"] == "50.70"
    assert result["pool_after"] == "0.00"


# --- the cap (extension, off unless asked) ------------------------------------------------------


def test_a_cap_diverts_what_would_take_the_pool_over_it() -> None:
    request = example_request("B")
    request["cap"] = "30001.00"
    result = pay_coup(request)
    assert result["contributions"] == "2.10"
    assert result["diverted"] == "1.10"
    assert result["pool_at_payment"] == "30001.00"
    assert "diverted" not in pay_coup(example_request("B"))


def test_a_cap_below_the_start_is_an_invalid_option() -> None:
    request = example_request("B")
    request["cap"] = "9999.99"
    assert pay_coup(request)["error"]["code"] == "invalid_option"


# --- errors (docs/jackpots.md § Paying a coup as data, Errors) ----------------------------------


def _error(request: Any) -> dict[str, Any]:
    result = pay_coup(request)
    assert set(result) == {"error"}, result
    assert result["error"]["message"]
    error: dict[str, Any] = result["error"]
    return error


def _with(**changes: Any) -> dict[str, Any]:
    request = example_request("A")
    request.update(changes)
    return request


def _with_bet(index: int, **changes: Any) -> dict[str, Any]:
    request = example_request("A")
    request["bets"][index].update(changes)
    return request


@pytest.mark.parametrize("game", ["craps", "roulette", "baccarat", ""])
def test_unknown_game(game: str) -> None:
    assert _error(_with(game=game))["code"] == "unknown_game"


@pytest.mark.parametrize("jackpot", [
    None,
    {},
    dict(STUD, start="9999.99"),  # below 10,000 x bet (SP n.º 10)
    dict(STUD, bet="0"),
    dict(STUD, increment_percent="0"),
    dict(STUD, increment_percent="100.5"),
    dict(STUD, increment_percent=70),
    dict(STUD, paytable=[]),
    dict(STUD, paytable=[{"combination": "royal_flush", "pays": "500x"}]),  # no "jackpot"
    dict(STUD, paytable=[{"combination": "flush", "pays": "jackpot"},
                         {"combination": "royal_flush", "pays": "10%"}]),  # top is not highest
    dict(STUD, paytable=[{"combination": "two_aces", "pays": "jackpot"}]),  # not a stud one
    dict(STUD, paytable=[{"combination": "royal_flush", "pays": "jackpot"},
                         {"combination": "royal_flush", "pays": "5x"}]),
    dict(STUD, paytable=[{"combination": "royal_flush", "pays": "jackpot"},
                         {"combination": "flush", "pays": "101%"}]),
    dict(STUD, paytable=[{"combination": "royal_flush", "pays": "jackpot"},
                         {"combination": "flush", "pays": "half"}]),
    dict(STUD, colour="red"),
])
def test_invalid_option(jackpot: Any) -> None:
    assert _error(_with(jackpot=jackpot))["code"] == "invalid_option"


def test_missing_jackpot_is_an_invalid_option() -> None:
    request = example_request("A")
    del request["jackpot"]
    assert _error(request)["code"] == "invalid_option"


@pytest.mark.parametrize("request_", [
    "not an object",
    [],
    {"jackpot": STUD, "pool": "1.00", "bets": []},  # no game
    {"game": 7, "jackpot": STUD, "pool": "1.00", "bets": []},
])
def test_malformed_frame(request_: Any) -> None:
    assert _error(request_)["code"] == "malformed"


@pytest.mark.parametrize("pool", [None, 52345.67, Decimal("52345.67"), "52,345.67", "1.234", "-5",
                                  "", "abc"])
def test_pool_not_an_amount_string_is_malformed(pool: Any) -> None:
    request = example_request("A")
    if pool is None:
        del request["pool"]
    else:
        request["pool"] = pool
    assert _error(request)["code"] == "malformed"


@pytest.mark.parametrize("bets", [None, {}, "s1", 5])
def test_bets_not_a_list_is_malformed(bets: Any) -> None:
    request = example_request("A")
    if bets is None:
        del request["bets"]
    else:
        request["bets"] = bets
    assert _error(request)["code"] == "malformed"


def test_repeated_id_is_an_invalid_bet() -> None:
    request = example_request("A")
    request["bets"][1]["id"] = "seat1"
    error = _error(request)
    assert (error["code"], error["bet"]) == ("invalid_bet", "seat1")


@pytest.mark.parametrize("amount", ["2.00", "0.99", "0", "1.005", "one"])
def test_an_amount_other_than_the_jackpot_bet_is_an_invalid_bet(amount: str) -> None:
    error = _error(_with_bet(2, amount=amount))
    assert (error["code"], error["bet"]) == ("invalid_bet", "seat3")


def test_an_amount_equal_as_a_number_is_the_jackpot_bet() -> None:
    assert "error" not in pay_coup(_with_bet(2, amount="1"))


@pytest.mark.parametrize("cards", [
    ["AS", "KS", "QS", "JS"],  # stud poker: five cards
    ["AS", "KS", "QS", "JS", "TS", "9S"],
    [],
    "AS KS QS JS TS",
])
def test_the_wrong_number_of_cards_is_an_invalid_bet(cards: Any) -> None:
    error = _error(_with_bet(0, cards=cards))
    assert (error["code"], error["bet"]) == ("invalid_bet", "seat1")


@pytest.mark.parametrize("cards", [["AS"], ["AS", "AH", "AD", "AC", "KS"]])
def test_blackjack_counts_two_to_four_cards(cards: list[str]) -> None:
    request = example_request("C")
    request["bets"][0]["cards"] = cards
    assert _error(request)["code"] == "invalid_bet"


@pytest.mark.parametrize("card", ["1S", "AX", "as", "10S", "", 14, None])
def test_a_card_that_is_not_a_card_is_an_invalid_outcome(card: Any) -> None:
    error = _error(_with_bet(0, cards=["AS", "KS", "QS", "JS", card]))
    assert error["code"] == "invalid_outcome"


def test_a_card_twice_in_one_deck_is_an_invalid_outcome() -> None:
    assert _error(_with_bet(1, cards=["AS", "5H", "9H", "JH", "KH"]))["code"] == "invalid_outcome"
    assert _error(_with_bet(1, cards=["2H", "2H", "9H", "JH", "KH"]))["code"] == "invalid_outcome"


def test_a_blackjack_card_more_often_than_six_decks_hold_is_an_invalid_outcome() -> None:
    request = example_request("C")
    request["bets"].append({"id": "seat7", "amount": "1.00", "cards": ["AH", "2C"]})  # 7th AH
    assert _error(request)["code"] == "invalid_outcome"


def test_only_stud_poker_folds() -> None:
    request = example_request("C")
    request["bets"][0]["folded"] = True
    assert _error(request)["code"] == "invalid_bet"
    assert _error(_with_bet(0, folded="yes"))["code"] == "invalid_bet"


def test_an_unknown_bet_field_is_an_invalid_bet() -> None:
    assert _error(_with_bet(0, type="jackpot"))["code"] == "invalid_bet"


@pytest.mark.parametrize("bet", [["seat1"], {"amount": "1.00", "cards": []},
                                 {"id": 1, "amount": "1.00", "cards": []},
                                 {"id": "x", "amount": 1, "cards": []}])
def test_a_bet_frame_of_the_wrong_kind_is_malformed(bet: Any) -> None:
    request = example_request("A")
    request["bets"][0] = bet
    assert _error(request)["code"] == "malformed"


def test_no_bets_pays_nothing_and_keeps_the_pool() -> None:
    request = _with(bets=[])
    assert pay_coup(request) == {
        "game": "stud_poker", "pool_before": "52345.67", "contributions": "0.00",
        "pool_at_payment": "52345.67", "bets": [], "paid": "0.00", "jackpot_won": False,
        "pool_after": "52345.67"}


# --- properties ---------------------------------------------------------------------------------

RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = [r + s for r in RANKS for s in SUITS]


@st.composite
def stud_coups(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.integers(min_value=0, max_value=7))
    deck = draw(st.permutations(DECK))
    bets = []
    for i in range(players):
        bets.append({"id": f"p{i}", "amount": "1.00", "cards": list(deck[5 * i:5 * i + 5]),
                     "folded": draw(st.booleans())})
    pool = draw(st.decimals(min_value=0, max_value=10**6, places=2))
    paytable = draw(st.sampled_from([
        STUD["paytable"],
        [{"combination": "straight_flush", "pays": "jackpot"},
         {"combination": "four_of_a_kind", "pays": "33.33%"},
         {"combination": "three_of_a_kind", "pays": "2.5x"},
         {"combination": "straight", "pays": "7x"}],
    ]))
    return {"game": "stud_poker", "jackpot": dict(STUD, paytable=paytable), "pool": str(pool),
            "bets": bets}


@st.composite
def blackjack_coups(draw: st.DrawFn) -> dict[str, Any]:
    aces = st.sampled_from(["AS", "AH", "AD", "AC"])
    card = st.one_of(aces, aces, st.sampled_from(DECK))
    bets = []
    for i in range(draw(st.integers(min_value=0, max_value=7))):
        cards = draw(st.lists(card, min_size=2, max_size=4))
        bets.append({"id": f"p{i}", "amount": "1.00", "cards": cards})
    pool = draw(st.decimals(min_value=0, max_value=10**6, places=2))
    return {"game": "blackjack", "jackpot": copy.deepcopy(BLACKJACK), "pool": str(pool),
            "bets": bets}


def _check_coup(request: dict[str, Any]) -> None:
    result = pay_coup(request)
    if "error" in result:  # a blackjack card drawn more often than six decks hold
        assert result["error"]["code"] == "invalid_outcome"
        return
    d = Decimal
    pool_before, paid, after = d(result["pool_before"]), d(result["paid"]), d(result["pool_after"])
    start = d(request["jackpot"]["start"]) if result["jackpot_won"] else d(0)
    # every cent is accounted for: pool + paid = pool before + contributions + restart
    assert after + paid == pool_before + d(result["contributions"]) + start
    assert d(result["pool_at_payment"]) == pool_before + d(result["contributions"])
    assert paid == sum(d(b["prize"]) for b in result["bets"])
    assert paid <= d(result["pool_at_payment"])
    assert after >= 0
    assert all(d(b["prize"]) >= 0 and d(b["prize"]) == d(b["prize"]).quantize(d("0.01"))
               for b in result["bets"])
    assert [b["id"] for b in result["bets"]] == [b["id"] for b in request["bets"]]
    assert result["contributions"] == f"{d('0.70' if request['game'] == 'stud_poker' else '0.80') * len(request['bets']):.2f}"
    # a top winner takes everything left but the rounding cents
    if result["jackpot_won"]:
        assert d(0) <= after - start < d("0.01") * len(request["bets"])
    # deterministic
    assert pay_coup(copy.deepcopy(request)) == result


@settings(max_examples=300, deadline=None)
@given(stud_coups())
def test_any_stud_coup_accounts_for_every_cent(request_: dict[str, Any]) -> None:
    _check_coup(request_)


@settings(max_examples=300, deadline=None)
@given(blackjack_coups())
def test_any_blackjack_coup_accounts_for_every_cent(request_: dict[str, Any]) -> None:
    _check_coup(request_)


@settings(max_examples=200, deadline=None)
@given(stud_coups(), st.decimals(min_value=10000, max_value=2 * 10**6, places=2))
def test_a_capped_pool_never_grows_past_its_cap_by_contributions(request_: dict[str, Any],
                                                                 cap: Decimal) -> None:
    request_["cap"] = str(cap)
    result = pay_coup(request_)
    d = Decimal
    before, at = d(result["pool_before"]), d(result["pool_at_payment"])
    assert at <= max(before, cap)
    assert at == before + d(result["contributions"]) - d(result["diverted"])


# --- the void coup (extension, off unless asked) ------------------------------------------------


def test_a_void_coup_takes_its_increments_and_pays_nothing() -> None:
    # Example C's chips in an annulled coup: 20,000.00 + 5 x 1.00 x 80% = 20,004.00, no prize.
    request = example_request("C")
    for bet in request["bets"]:
        del bet["cards"]
    request["void"] = True
    assert pay_coup(request) == {
        "game": "blackjack", "pool_before": "20000.00", "contributions": "4.00",
        "pool_at_payment": "20004.00",
        "bets": [{"id": f"seat{s}", "combination": None, "prize": "0.00"} for s in (1, 2, 3, 5, 6)],
        "paid": "0.00", "jackpot_won": False, "pool_after": "20004.00", "void": True}
    assert pay_coup(dict(request, void=False))["error"]["code"] == "invalid_bet"  # cards needed


def test_a_void_coup_decides_nothing_so_its_bets_carry_no_cards() -> None:
    request = dict(example_request("A"), void=True)
    assert pay_coup(request)["error"] == {
        "code": "invalid_bet", "message": "a void coup decides nothing: its bets carry no cards",
        "bet": "seat1"}
    assert pay_coup(dict(request, void="yes"))["error"]["code"] == "malformed"
    for bet in request["bets"]:
        bet["cards"] = []
    assert pay_coup(request)["void"] is True
    assert "void" not in pay_coup(example_request("A"))  # off: exactly the documented result
