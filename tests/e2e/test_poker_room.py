"""The poker room in the browser: the pit boss opens the room from the navigation, records a
hand at a table (the dealer's entry), sees a rake above the cap refused on the page with nothing
recorded, then the hand with the approved rake recorded."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from casino.context import person_metadata
from casino.models import Role
from pokerroom.models import PokerHand
from pokerroom.services.tables import poker_chips_buy, poker_player_seat, poker_table_open

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def holdem(demo: None) -> str:
    floor = person_metadata(username="fiscal", role=Role.PIT_BOSS, casino="lisboa")
    poker_table_open(casino="lisboa", table="nl9", game="holdem", seats=6,
                     min_buy_in=Decimal("50.00"), max_buy_in=Decimal("300.00"),
                     rake_percent="5", rake_cap=Decimal("3.00"), minimum_pot=Decimal("1.00"),
                     approval_reference="SRIJ-E2E", metadata=floor)
    for seat in (1, 2):
        poker_player_seat(casino="lisboa", table="nl9", seat=seat, metadata=floor)
        poker_chips_buy(casino="lisboa", table="nl9", seat=seat, amount=Decimal("100.00"),
                        metadata=floor)
    return "nl9"


def test_the_dealer_records_a_hand(holdem: str, person: Any, shot: Any) -> None:
    page = person("fiscal")
    page.get_by_role("link", name="Poker room").first.click()
    page.get_by_role("link", name=holdem).click()
    form = page.locator("#hand form")
    # 40 + 40 = 80.00; 5 % = 4.00 is above the cap of 3.00: typing 4.00 is refused (PR-1)
    form.locator("input[name=in_1]").fill("40.00")
    form.locator("input[name=in_2]").fill("40.00")
    form.locator("input[name=won_1]").fill("76.00")
    form.get_by_label("Rake").fill("4.00")
    form.get_by_role("button", name="Record the hand").click()
    assert "PR-1" in page.get_by_role("alert").inner_text()
    assert not PokerHand.objects.exists()
    form = page.locator("#hand form")
    form.locator("input[name=in_1]").fill("40.00")
    form.locator("input[name=in_2]").fill("40.00")
    form.locator("input[name=won_1]").fill("77.00")
    form.get_by_label("Rake").fill("3.00")
    form.get_by_role("button", name="Record the hand").click()
    page.get_by_text("Hand recorded.").wait_for()
    shot(page, "poker-room-table")
    assert PokerHand.objects.get().rake == Decimal("3.00")
