"""A pit boss runs a roulette table from the pit's screens."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from casino.context import person_metadata
from casino.models import Role
from games.limits import default_limits
from games.services import round_record, table_configure, table_session_open

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def roulette(demo: None) -> str:
    table_configure(casino="lisboa", code="r1", name="Roulette 1", game="american_roulette",
                    options={}, seats=7, chip_set="main",
                    limits=default_limits("american_roulette", Decimal("5")),
                    metadata=person_metadata(username="gestor", role=Role.ADMINISTRATOR,
                                             casino="lisboa"))
    return "r1"


def bet_rows(page: Any) -> dict[str, list[str]]:
    table = page.get_by_role("table", name="Bets and settlements")
    rows = [r.get_by_role("cell").all_inner_texts() for r in table.get_by_role("row").all()[1:]]
    return {r[0]: r for r in rows if len(r) == 9}


def test_a_pit_boss_opens_a_session_plays_a_round_and_sees_the_result(
        roulette: str, person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    fiscal = person("fiscal")
    fiscal.get_by_role("region", name="Casino Lisboa (demo)").get_by_role(
        "link", name="Pit").click()
    shot(fiscal, "pit-tables")
    fiscal.get_by_role("row").filter(has_text="Roulette 1").get_by_role(
        "link", name="Open a session").click()

    # the table has never closed: the float is counted by denomination
    fiscal.get_by_label("100.00", exact=True).fill("10")
    fiscal.get_by_label("25.00", exact=True).fill("20")
    shot(fiscal, "pit-table-open")
    fiscal.get_by_role("button", name="Open with this count").click()
    assert fiscal.get_by_text("Session opened at table r1, float 1500.00.").is_visible()

    fiscal.get_by_role("button", name="Open a round").click()
    assert fiscal.get_by_text("Round 1 open: place the bets.").is_visible()
    straight = fiscal.get_by_role("group", name="Straight up")
    straight.get_by_label("Number").fill("17")
    straight.get_by_label("Seat").select_option("1")
    straight.get_by_label("Stake").fill("10")
    straight.get_by_role("button", name="Place").click()
    chances = fiscal.get_by_role("group", name="Even chances")
    chances.get_by_label("Bet").select_option(label="Red")
    chances.get_by_label("Seat").select_option("3")
    chances.get_by_label("Person playing").fill("P-b1e0")  # a label, never a name (issue 35)
    chances.get_by_label("Stake").fill("20")
    chances.get_by_role("button", name="Place").click()
    assert fiscal.get_by_text("Bet b2 placed: Red, 20.00 on seat 3.").is_visible()
    shot(fiscal, "pit-round-bets")

    fiscal.get_by_role("button", name="No more bets").click()
    fiscal.get_by_label("Winning number").fill("17")
    fiscal.get_by_role("button", name="Record the outcome").click()
    fiscal.get_by_role("button", name="Settle the round").click()
    assert fiscal.get_by_text("Round settled: prizes 350.00, result -330.00.").is_visible()
    shot(fiscal, "pit-round-settled")
    bets = bet_rows(fiscal)
    assert bets["b1"][1:] == ["1", "seat-1", "Straight up 17", "€10.00", "won", "€350.00", "€360.00",
                              "won: pays 35 to 1, a prize of 350.00; 360.00 to the player with "
                              "the stake"]
    assert bets["b2"][1:] == ["3", "P-b1e0", "Red", "€20.00", "lost", "€0.00", "€0.00",
                              "lost: the stake of 20.00 stays with the bank"]
    assert fiscal.get_by_text("17 (black)").is_visible()

    fiscal.get_by_role("link", name="The session").click()
    result = fiscal.get_by_role("table", name="Session result")
    assert result.get_by_role("row", name="Rounds' result").get_by_role(
        "cell").first.inner_text() == "-€330.00"
    assert result.get_by_role("row", name="Handle").get_by_role(
        "cell").first.inner_text() == "€30.00"
    shot(fiscal, "pit-session")  # the session with its rounds and its result

    # closing: the tray; the drop box goes to the count room, the table win follows its count
    close = fiscal.get_by_role("group", name="Close the session")
    close.get_by_label("100.00", exact=True).fill("10")
    close.get_by_label("25.00", exact=True).fill("6")
    close.get_by_label("5.00", exact=True).fill("4")
    assert close.get_by_label("Drop box count").count() == 0
    close.get_by_role("button", name="Close the session").click()
    shot(fiscal, "pit-session-closed")
    assert fiscal.get_by_text("Session closed: rounds' result -330.00. The drop box goes to the "
                              "count room; the table win follows its count.").is_visible()


def test_the_pit_boss_who_recorded_the_outcome_asks_another_for_the_correction(
        roulette: str, person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    fiscal_meta = person_metadata(username="fiscal", role=Role.PIT_BOSS, casino="lisboa")
    session = table_session_open(casino="lisboa", table=roulette, opening={"100.00": 10},
                                 metadata=fiscal_meta).session_id
    rid = round_record(session_id=session, bets=[{"seat": 2, "type": "red", "amount": "10"}],
                       outcome={"number": 17}, metadata=fiscal_meta).round_id

    fiscal = person("fiscal")
    fiscal.goto(f"/pit/rounds/{rid}/")
    correction = fiscal.get_by_role("group", name="Correction (four eyes)")
    # he recorded it: he may not correct it, he asks another pit boss, with the right number
    assert correction.get_by_role("button", name="Correct and settle again").count() == 0
    correction.get_by_label("Winning number").fill("18")
    correction.get_by_label("What was the mistake").fill("misread the ball")
    correction.get_by_role("button", name="Ask another pit boss to correct it").click()
    assert fiscal.get_by_text("Correction asked for").is_visible()
    shot(fiscal, "pit-correction-asked")
    assert bet_rows(fiscal)["b1"][5] == "lost"  # nothing was re-settled yet

    # the other pit boss finds it waiting on his home and approves it
    chefe = person("chefe")
    chefe.get_by_role("link", name="correct round 1 at table").click()
    row = chefe.get_by_role("row").filter(has_text="misread the ball")
    row.get_by_role("button", name="Approve").click()
    assert chefe.get_by_text("Approved and recorded.").is_visible()
    chefe.goto(f"/pit/rounds/{rid}/")
    assert bet_rows(chefe)["b1"][5:8] == ["won", "€10.00", "€20.00"]
