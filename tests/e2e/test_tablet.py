"""The pit tablet and the accountant's desk in the browser: a pit boss plays blackjack with a
split, a double and insurance from the screens, asks for a roulette round's void that a second
pit boss approves, while the floor follows rounds recorded elsewhere; an accountant closes a day
from the desk and exports the results as a PDF, read back."""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from pypdf import PdfReader

from casino.context import person_metadata
from casino.models import Casino, Role
from games.limits import default_limits
from games.models import Round
from games.services import round_record, table_configure, table_session_open

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def as_(name: str, role: str) -> Any:
    return person_metadata(username=name, role=role, casino="lisboa")


@pytest.fixture
def floor(demo: None) -> dict[str, str]:
    """Roulette 1 and Blackjack 1, each with an open session."""
    sessions = {}
    for code, game in (("r1", "american_roulette"), ("b1", "blackjack")):
        table_configure(casino="lisboa", code=code, name=code.upper(), game=game, options={},
                        seats=7, chip_set="main", limits=default_limits(game, Decimal("5")),
                        metadata=as_("gestor", Role.ADMINISTRATOR))
        sessions[code] = str(table_session_open(
            casino="lisboa", table=code, opening={"100.00": 10, "25.00": 20},
            metadata=as_("fiscal", Role.PIT_BOSS)).session_id)
    return sessions


def floor_row(page: Any, table: str) -> Any:
    return page.get_by_role("table", name="Open tables").get_by_role("row").filter(
        has=page.get_by_role("link", name=table, exact=True))


def test_a_pit_boss_plays_blackjack_decisions_a_void_is_approved_and_the_floor_follows(
        floor: dict[str, str], person: Callable[[str], Any],
        shot: Callable[[Any, str], None]) -> None:
    chefe = person("chefe")
    shot(chefe, "home-pit-boss")
    chefe.get_by_role("region", name="Casino Lisboa (demo)").get_by_role(
        "link", name="The floor").click()
    assert floor_row(chefe, "r1").get_by_role("cell").nth(5).inner_text() == "€0.00"

    # another pit boss's round, recorded elsewhere: the floor shows it without a reload
    round_record(session_id=floor["r1"], bets=[{"seat": 1, "type": "straight", "numbers": [17],
                                                "amount": "10"}],
                 outcome={"number": 17}, metadata=as_("fiscal", Role.PIT_BOSS))
    row = floor_row(chefe, "r1")
    row.get_by_text("-€350.00").wait_for()
    assert row.get_by_text("outside the band: look into this table").is_visible()
    shot(chefe, "pit-floor")

    # blackjack from the tablet: two seats, the bank shows an ace
    fiscal = person("fiscal")
    fiscal.goto(f"/pit/sessions/{floor['b1']}/")
    fiscal.get_by_role("button", name="Open a round").click()
    bets = fiscal.get_by_role("group", name="Main and back bets")
    for seat, stake in (("1", "20"), ("2", "10")):
        bets.get_by_label("Seat").select_option(seat)
        bets.get_by_label("Stake").fill(stake)
        bets.get_by_role("button", name="Place").click()
    fiscal.get_by_role("button", name="No more bets").click()
    deal = fiscal.get_by_role("group", name="Record the deal")
    deal.get_by_label("Bank's up card").fill("AS")
    deal.get_by_label("Seat 1").fill("8S 8D")
    deal.get_by_label("Seat 2").fill("6H 5C")
    deal.get_by_role("button", name="Record the deal").click()
    fiscal.get_by_role("form", name="Insurance of b1").get_by_role(
        "button", name="Insurance").click()
    assert fiscal.get_by_text("Seat 1: Insurance recorded. Its stake: bet b3.").is_visible()

    def decide(seat: int, hand: int, decision: str, cards: str = "") -> None:
        form = fiscal.get_by_role("form", name=f"Seat {seat}, hand {hand}")
        if cards:
            form.get_by_label("Card(s) drawn").fill(cards)
        form.get_by_role("button", name=decision, exact=True).click()

    decide(1, 1, "Split", "3H KD")
    decide(1, 1, "Hit", "9C")
    decide(1, 1, "Stand")
    decide(1, 2, "Stand")
    shot(fiscal, "pit-blackjack-hands")
    decide(2, 1, "Double", "KS")
    fiscal.get_by_label("Bank's cards").fill("AS 6C")
    fiscal.get_by_role("button", name="Record the outcome").click()
    fiscal.get_by_role("button", name="Settle the round").click()
    # by hand, against the bank's 17: b1 (8 3 9 = 20) and its split b4 (8 K = 18) win 20 each,
    # b2 and its double b5 (6 5 K = 21) win 10 each, the insurance b3 loses 10: -50
    assert fiscal.get_by_text("Round settled: prizes 60.00, result -50.00.").is_visible()
    words = fiscal.get_by_role("table", name="Bets and settlements")
    assert words.get_by_role("row").filter(has_text="Insurance").get_by_text(
        "lost: the stake of 10.00 stays with the bank").is_visible()
    assert fiscal.get_by_text(
        "Bank AS 6C · seat 1: 8S 3H 9C / 8D KD · seat 2: 6H 5C KS (doubled)").is_visible()
    shot(fiscal, "pit-blackjack-settled")

    # roulette: the outcome recorded, then a void asked for; another pit boss approves it
    fiscal.goto(f"/pit/sessions/{floor['r1']}/")
    assert fiscal.get_by_role("row", name="Table win so far").get_by_text("-€350.00").is_visible()
    fiscal.get_by_role("button", name="Open a round").click()
    straight = fiscal.get_by_role("group", name="Straight up")
    straight.get_by_label("Number").fill("5")
    straight.get_by_label("Stake").fill("10")
    straight.get_by_role("button", name="Place").click()
    fiscal.get_by_role("button", name="No more bets").click()
    fiscal.get_by_label("Winning number").fill("5")
    fiscal.get_by_role("button", name="Record the outcome").click()
    ask = fiscal.get_by_role("group", name=re.compile("the outcome is recorded"))
    ask.get_by_label("What happened").fill("the ball jumped out of the wheel")
    ask.get_by_role("button", name="Ask for approval").click()
    round_url = fiscal.url

    chefe.goto("/approvals/lisboa/")
    request = chefe.get_by_role("row").filter(has_text="the ball jumped out of the wheel")
    request.get_by_label("note").fill("seen on the camera")
    request.get_by_role("button", name="Approve").click()
    assert chefe.get_by_text("Approved and recorded.").is_visible()
    fiscal.goto(round_url)
    assert fiscal.get_by_text("asked by fiscal, approved by chefe").is_visible()
    assert Round.objects.filter(status="voided").count() == 1


def test_an_accountant_closes_a_day_from_the_desk_and_exports_a_pdf(
        floor: dict[str, str], person: Callable[[str], Any],
        shot: Callable[[Any, str], None]) -> None:
    round_record(session_id=floor["r1"], bets=[{"seat": 2, "type": "red", "amount": "20"}],
                 outcome={"number": 4}, metadata=as_("fiscal", Role.PIT_BOSS))  # black: +20
    today = Casino.objects.get(code="lisboa").gaming_day(timezone.now())
    yesterday = (today - dt.timedelta(days=1)).isoformat()

    desk = person("contabilista")
    shot(desk, "home-accountant")
    desk.get_by_role("region", name="Casino Lisboa (demo)").get_by_role(
        "link", name="The desk").click()
    days = desk.get_by_role("table", name="Gaming days and their closes")
    days.get_by_role("button", name=f"Close {yesterday}").click()
    assert desk.get_by_text(f"gaming day {yesterday} closed").is_visible()
    desk.goto("/ledger/lisboa/desk/")
    assert days.get_by_role("row").filter(has_text=yesterday).get_by_text(
        "closed by contabilista").is_visible()
    shot(desk, "ledger-desk")

    desk.get_by_label("File").select_option("pdf")
    desk.get_by_role("button", name="Export the results").click()
    with desk.expect_download() as download:
        desk.get_by_role("link", name=re.compile("^Download results-lisboa")).click()
    text = " ".join(p.extract_text() for p in PdfReader(
        io.BytesIO(Path(download.value.path()).read_bytes())).pages)
    assert "Table results" in text
    assert "American roulette" in text
    assert "20.00" in text
