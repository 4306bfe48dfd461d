"""Bacará ponto e banca and its Macau variant (Portaria 217/2007, Cap. III, Secções III and IV).

The tableau (n.º 13; PB-1 in docs/settlement.md § Interpretations) is checked cell by cell against
the standard table, written out here by hand; coups are in ``cases/punto_banco*.jsonl``; random
coups in ``test_properties_cards.py``.
"""

from __future__ import annotations

import pytest

from games.engine import GAMES, check_bet
from games.engine.baccarat import banker_draws, hand_value, is_natural, next_draw, player_draws
from games.engine.cards import RANKS
from games.engine.errors import RoundError

# One card of each point value 0-9.
CARD_OF = {0: "KS", 1: "AS", 2: "2S", 3: "3S", 4: "4S", 5: "5S", 6: "6S", 7: "7S", 8: "8S", 9: "9S"}
# Two cards totalling t (for t in 0..9), neither a natural unless t >= 8.
TWO_OF = {t: ["KH", CARD_OF[t]] for t in range(10)}

# PB-1 (docs/settlement.md § Interpretations), rule 4: banker two-card total -> player third-card
# values it draws on.
DRAWS_ON = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}


def test_player_draws_on_0_to_5() -> None:
    for total in range(8):
        assert player_draws(TWO_OF[total]) is (total <= 5)


def test_banker_after_the_player_stood_draws_on_0_to_5() -> None:
    for total in range(8):
        assert banker_draws(TWO_OF[total], None) is (total <= 5)


@pytest.mark.parametrize("banker", range(8))
@pytest.mark.parametrize("third", range(10))
def test_banker_against_the_players_third_card(banker: int, third: int) -> None:
    assert banker_draws(TWO_OF[banker], CARD_OF[third]) is (third in DRAWS_ON[banker])


def test_naturals_stop_everything() -> None:
    assert is_natural(["9S", "KD"])
    assert is_natural(["4S", "4D"])
    assert not is_natural(["7S", "KD"])
    assert next_draw(["2S", "3D"], ["9H", "KC"]) is None  # banker natural: the player does not draw
    assert next_draw(["8S", "KD"], ["2H", "3D"]) is None


def test_next_draw_follows_the_deal() -> None:
    assert next_draw(["2S", "3D"], ["2H", "3C"]) == "player"
    assert next_draw(["2S", "3D", "8C"], ["TH", "3C"]) is None  # banker 3, player's third 8
    assert next_draw(["2S", "3D", "9C"], ["TH", "3C"]) == "banker"
    assert next_draw(["2S", "3D", "9C"], ["TH", "3C", "4D"]) is None
    assert next_draw(["7S", "KD"], ["6H", "QC"]) is None
    assert next_draw(["6S", "KD"], ["2H", "3D"]) == "banker"


def test_hand_value_is_the_last_digit() -> None:
    assert hand_value(["9S", "5D", "KH"]) == 4
    assert hand_value(["KS", "QD"]) == 0
    assert {hand_value([rank + "S"]) for rank in RANKS} == set(range(10))


def test_options_defaults_per_variant() -> None:
    assert GAMES["punto_banco"].check_options({}) == {
        "decks": 8,
        "banker_deduction": "five_percent",
        "pairs": True,
    }
    # Secção IV n.º 11: pair bets only by the concessionaire's option.
    assert GAMES["punto_banco_macau"].check_options({}) == {
        "decks": 8,
        "banker_deduction": "five_percent",
        "pairs": False,
    }


@pytest.mark.parametrize("game", ["punto_banco", "punto_banco_macau"])
def test_placement_of_pair_bets_follows_the_option(game: str) -> None:
    pair = {"id": "p", "type": "banker_pair", "amount": "5"}
    check_bet(game, {"pairs": True}, pair)
    with pytest.raises(RoundError) as raised:
        check_bet(game, {"pairs": False}, pair)
    assert (raised.value.code, raised.value.bet) == ("invalid_bet", "p")
    for kind in ("player", "banker", "tie"):
        check_bet(game, {"pairs": False}, {"id": "x", "type": kind, "amount": "5"})
