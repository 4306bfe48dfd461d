"""The poker room's screens: the room, a table's hand entry (a refusal on the page, nothing
recorded), the waiting list, a tournament's entrants and a prize paid at the cage."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from casino.models import Membership, Role
from pokerroom.models import PokerHand, TournamentEntry
from pokerroom.services.tables import poker_chips_buy, poker_player_seat, poker_table_open
from pokerroom.services.tournaments import (
    tournament_announce,
    tournament_eliminate,
    tournament_register,
    tournament_start,
)

from .conftest import CASINO, floor


def _login(role: str) -> Client:
    user = get_user_model().objects.create_user(f"web-{role}")
    Membership.objects.create(user=user, casino_id=CASINO, role=role)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def room(casino: str) -> None:
    poker_table_open(casino=CASINO, table="pl1", game="synthetic_poker", seats=8,
                     min_buy_in=D("20.00"), max_buy_in=D("100.00"), rake_percent="5",
                     rake_cap=D("2.00"), minimum_pot=D("5.00"), approval_reference="SRIJ 9/2026",
                     metadata=floor())
    for seat in (3, 5):
        poker_player_seat(casino=CASINO, table="pl1", seat=seat, metadata=floor())
        poker_chips_buy(casino=CASINO, table="pl1", seat=seat, amount=D("50.00"),
                        metadata=floor())
    tournament_announce(casino=CASINO, tournament="sat", game="omaha", buy_in=D("10.00"),
                        entry_fee=D("1.00"), payout_percents=["100"],
                        approval_reference="SRIJ 10/2026", metadata=floor())
    for _ in range(2):
        tournament_register(casino=CASINO, tournament="sat", metadata=floor())
    tournament_start(casino=CASINO, tournament="sat", metadata=floor())
    tournament_eliminate(casino=CASINO, tournament="sat", entry=1, metadata=floor())


def test_the_room_and_a_hand_entered_by_the_dealer(room: None) -> None:
    pit = _login(Role.PIT_BOSS)
    page = pit.get("/poker-room/lisboa/")
    assert page.status_code == 200
    assert b"pl1" in page.content
    assert b"sat" in page.content
    # 10 + 10 = 20.00, 5 % = 1.00, 19.00 to seat 5
    done = pit.post("/poker-room/lisboa/tables/pl1/", {
        "action": "hand", "in_3": "10.00", "in_5": "10.00", "won_5": "19.00", "rake": "1.00",
        "flop_dealt": "on", "idempotency_key": "h1"})
    assert done.status_code == 302
    assert PokerHand.objects.get().rake == D("1.00")


def test_a_hand_that_does_not_add_up_is_refused_on_the_page(room: None) -> None:
    pit = _login(Role.PIT_BOSS)
    refused = pit.post("/poker-room/lisboa/tables/pl1/", {
        "action": "hand", "in_3": "10.00", "in_5": "10.00", "won_5": "18.00", "rake": "1.00",
        "flop_dealt": "on", "idempotency_key": "h2"})
    assert refused.status_code == 200
    assert b"role=\"alert\"" in refused.content
    assert not PokerHand.objects.exists()


def test_the_waiting_list_on_the_table_page(room: None) -> None:
    pit = _login(Role.PIT_BOSS)
    pit.post("/poker-room/lisboa/tables/pl1/", {"action": "wait", "patron": "P-77",
                                                "idempotency_key": "w1"})
    assert b"P-77" in pit.get("/poker-room/lisboa/tables/pl1/").content


def test_a_prize_paid_at_the_cage_page(room: None) -> None:
    cashier = _login(Role.CASHIER)
    # 2 × 10.00 = 20.00 to entry 2
    page = cashier.post("/poker-room/lisboa/tournaments/sat/", {"entry": "2",
                                                                "idempotency_key": "p1"})
    assert page.status_code == 302
    assert TournamentEntry.objects.get(casino_id=CASINO, tournament="sat", entry=2).paid
    twice = cashier.post("/poker-room/lisboa/tournaments/sat/", {"entry": "2",
                                                                 "idempotency_key": "p2"})
    assert twice.status_code == 200
    assert b"role=\"alert\"" in twice.content


def test_a_cashier_records_no_hand(room: None) -> None:
    response = _login(Role.CASHIER).post("/poker-room/lisboa/tables/pl1/", {
        "action": "hand", "in_3": "10.00"})
    assert response.status_code == 403


def test_a_refusal_in_the_page_s_language(room: None) -> None:
    pit = _login(Role.PIT_BOSS)
    pit.defaults["HTTP_ACCEPT_LANGUAGE"] = "pt-pt"
    # 20.00 in, 18.00 won + 1.00 rake = 19.00: the pot does not add up
    page = pit.post("/poker-room/lisboa/tables/pl1/", {
        "action": "hand", "in_3": "10,00", "in_5": "10,00", "won_5": "18,00", "rake": "1,00",
        "flop_dealt": "on", "idempotency_key": "h3"})
    assert "não é a soma dos ganhos" in page.content.decode()
    assert not PokerHand.objects.exists()
