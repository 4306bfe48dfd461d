"""Chemin de fer coups recorded at the pit and settled by the pure rules (CF-1..CF-6)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.errors import InvalidCommand
from pokerroom.models import ChemmyCoup, PokerTable
from pokerroom.services.chemin_de_fer import chemmy_coup_record
from pokerroom.services.tables import poker_player_seat, poker_table_open

from ..conftest import CASINO, credit_balance, floor


@pytest.fixture
def chemmy(casino: str) -> str:
    poker_table_open(casino=CASINO, table="cf1", game="chemin_de_fer", seats=9,
                     min_buy_in=D("100.00"), max_buy_in=D("10000.00"), commission_percent="5",
                     approval_reference="SRIJ 90/2026", metadata=floor())
    for seat in (1, 2, 3):
        poker_player_seat(casino=CASINO, table="cf1", seat=seat, metadata=floor())
    return "cf1"


def test_the_banker_wins_and_the_house_takes_its_commission(chemmy: str) -> None:
    # punter 2S 3H = 5, stands by option; banker 4C 2D = 6 stands: banker wins 60 + 40 = 100.00;
    # commission 5 % = 5.00 (CF-6); bank 300 + 100 - 5 = 395.00
    answer = chemmy_coup_record(casino=CASINO, table=chemmy, banker_seat=1, bank=D("300.00"),
                                stakes={"2": "60.00", "3": "40.00"},
                                punter_cards=["2S", "3H"], banker_cards=["4C", "2D"],
                                punter_option="stand", metadata=floor())
    assert (answer.winner, answer.commission, answer.bank_after) == ("banker", "5.00", "395.00")
    assert PokerTable.objects.get(casino_id=CASINO, code=chemmy).commission == D("5.00")
    assert credit_balance("chemmy_commission", chemmy) == D("5.00")  # the house's revenue


def test_cards_that_break_the_drawing_rules_record_nothing(chemmy: str) -> None:
    # the punter has 6 (3 + 3): stands; a third card breaks CF-2
    with pytest.raises(InvalidCommand) as refused:
        chemmy_coup_record(casino=CASINO, table=chemmy, banker_seat=1, bank=D("100.00"),
                           stakes={"2": "10.00"}, punter_cards=["3S", "3H", "2D"],
                           banker_cards=["KS", "7D"], metadata=floor())
    assert refused.value.code == "punter_draw"
    assert "CF-2" in refused.value.message
    assert not ChemmyCoup.objects.exists()
