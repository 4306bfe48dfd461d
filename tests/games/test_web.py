"""The pit's screens: they render for a pit boss and are closed to others, and each form records
through its service (once per form render), or shows the refusal beside the form."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from casino.models import Membership, Role
from eventstore.models import StoredEvent
from games.models import Bet, Round, Slip, TableSession
from games.services import round_record, table_session_close, table_session_open

from .conftest import CASINO, pit

pytestmark = pytest.mark.django_db


def person(username: str, *roles: str) -> Client:
    user = get_user_model().objects.create_user(username, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    client = Client()
    client.force_login(user)
    return client


def key(page: Any, name: str) -> str:
    """The idempotency key the page drew for one of its forms."""
    found = re.search(r'name="idempotency_key" value="([^"]*:' + re.escape(name) + ')"',
                      page.content.decode())
    assert found, f"no form {name!r} on the page"
    return found.group(1)


def test_tables_session_round_and_gaming_day_pages(make_table) -> None:
    table = make_table("punto_banco", minimum="10")
    sid = table_session_open(casino=CASINO, table=table, opening={"100.00": 10},
                             metadata=pit()).session_id
    rid = round_record(session_id=sid, bets=[{"seat": 1, "type": "player", "amount": "20"}],
                       outcome={"player": ["9S", "KH"], "banker": ["2C", "3D"]},
                       metadata=pit()).round_id
    table_session_close(session_id=sid, closing={"100.00": 9, "25.00": 3, "5.00": 1}, metadata=pit())
    client = person("fiscal", Role.PIT_BOSS)
    assert "Punto banco" in client.get("/pit/").content.decode()
    assert "Punto banco" in client.get(f"/pit/{CASINO}/").content.decode()
    page = client.get(f"/pit/sessions/{sid}/").content.decode()
    assert "-€20.00" in page  # the session's result, in the casino's currency
    assert "Hold check" in page
    round_page = client.get(f"/pit/rounds/{rid}/").content.decode()
    assert "Player" in round_page
    assert "won" in round_page
    assert "By game" in client.get("/pit/gaming-days/").content.decode()
    stranger = person("caixa", Role.CASHIER)
    assert stranger.get(f"/pit/sessions/{sid}/").status_code == 403
    assert stranger.get(f"/pit/{CASINO}/").status_code == 403


def test_a_pit_boss_plays_a_roulette_round_from_the_screens(
        make_table, cage, django_capture_on_commit_callbacks) -> None:
    make_table("american_roulette", "r1", minimum="5")
    fiscal = person("fiscal", Role.PIT_BOSS)

    # the table has never closed: its float is counted
    table_page = fiscal.get(f"/pit/{CASINO}/tables/r1/")
    assert "This table has never closed" in table_page.content.decode()
    opened = fiscal.post(f"/pit/{CASINO}/tables/r1/", {
        "action": "open", "mode": "count", "opening-100.00": "10", "opening-25.00": "20",
        "idempotency_key": key(table_page, "count")})
    session = TableSession.objects.get()
    assert opened.status_code == 302
    assert opened["Location"] == f"/pit/sessions/{session.session_id}/"
    assert session.opening_amount == 1500

    # a fill, a credit, a void, a drop
    page = fiscal.get(f"/pit/sessions/{session.session_id}/")
    fiscal.post(f"/pit/sessions/{session.session_id}/", {
        "action": "fill", "slip": "F-1", "chips-25.00": "8",
        "idempotency_key": key(page, "slip")})
    page = fiscal.get(f"/pit/sessions/{session.session_id}/")
    fiscal.post(f"/pit/sessions/{session.session_id}/", {
        "action": "credit", "slip": "C-1", "chips-100.00": "1",
        "idempotency_key": key(page, "slip")})
    page = fiscal.get(f"/pit/sessions/{session.session_id}/")
    assert "Void the slip" in page.content.decode()
    fiscal.post(f"/pit/sessions/{session.session_id}/", {
        "action": "void_slip", "kind": "credit", "slip": "C-1", "reason": "wrong table",
        "idempotency_key": key(page, "void1")})
    cage("F-1")  # the cage issues the fill
    page = fiscal.get(f"/pit/sessions/{session.session_id}/")
    dropped = fiscal.post(f"/pit/sessions/{session.session_id}/", {
        "action": "drop", "amount": "200.00", "seat": "2",
        "idempotency_key": key(page, "drop")}, follow=True)
    assert "Drop of 200.00 recorded." in dropped.content.decode()
    assert {s.number: s.status for s in Slip.objects.all()} == {"F-1": "issued", "C-1": "voided"}

    # a round: two bets (one form per bet type), no more bets, the outcome, settle
    page = fiscal.get(f"/pit/sessions/{session.session_id}/")
    opened = fiscal.post(f"/pit/sessions/{session.session_id}/", {
        "action": "open_round", "idempotency_key": key(page, "round")})
    the_round = Round.objects.get()
    assert opened["Location"] == f"/pit/rounds/{the_round.round_id}/"
    page = fiscal.get(f"/pit/rounds/{the_round.round_id}/")
    html = page.content.decode()
    assert "Straight up" in html
    assert "Number and neighbours" in html
    straight = {"action": "bet", "form": "straight", "type": "straight", "numbers": "17",
                "seat": "1", "player": "", "amount": "10",
                "idempotency_key": key(page, "bet:straight")}
    fiscal.post(f"/pit/rounds/{the_round.round_id}/", straight)
    fiscal.post(f"/pit/rounds/{the_round.round_id}/", straight)  # a double submit
    assert Bet.objects.count() == 1
    fiscal.post(f"/pit/rounds/{the_round.round_id}/", {
        "action": "bet", "form": "even_chances", "type": "red", "seat": "3",
        "player": "P-b00b", "amount": "20", "idempotency_key": key(page, "bet:even_chances")})
    page = fiscal.get(f"/pit/rounds/{the_round.round_id}/")
    fiscal.post(f"/pit/rounds/{the_round.round_id}/", {
        "action": "close_betting", "idempotency_key": key(page, "close")})
    page = fiscal.get(f"/pit/rounds/{the_round.round_id}/")
    fiscal.post(f"/pit/rounds/{the_round.round_id}/", {
        "action": "outcome", "number": "17", "idempotency_key": key(page, "outcome")})
    page = fiscal.get(f"/pit/rounds/{the_round.round_id}/")
    settled = fiscal.post(f"/pit/rounds/{the_round.round_id}/", {
        "action": "settle", "idempotency_key": key(page, "settle")}, follow=True)
    html = settled.content.decode()
    assert "Round settled: prizes 350.00, result -330.00." in html
    assert {b.bet_id: (b.status, str(b.win)) for b in Bet.objects.all()} == {
        "b1": ("won", "350.00"), "b2": ("lost", "0.00")}

    # the same pit boss may not correct his own outcome
    refused = fiscal.post(f"/pit/rounds/{the_round.round_id}/", {
        "action": "correct", "number": "18", "reason": "misread the ball",
        "idempotency_key": key(settled, "correct")})
    assert refused.status_code == 200
    assert "another pit boss must approve the correction" in refused.content.decode()
    assert 'value="misread the ball"' in refused.content.decode()  # what was typed stays
    chefe = person("chefe", Role.PIT_BOSS)
    page = chefe.get(f"/pit/rounds/{the_round.round_id}/")
    chefe.post(f"/pit/rounds/{the_round.round_id}/", {
        "action": "correct", "number": "18", "reason": "misread the ball",
        "idempotency_key": key(page, "correct")})
    assert Round.objects.get().result == -10  # 17 lost (10), red won (20)

    # close with the closing count; the drop box goes to the count room (no drop count here)
    page = fiscal.get(f"/pit/sessions/{session.session_id}/")
    assert 'name="drop_count"' not in page.content.decode()
    # the close goes to the workers (``games.table_session_close``) once the request commits
    with django_capture_on_commit_callbacks(execute=True):
        fiscal.post(f"/pit/sessions/{session.session_id}/", {
            "action": "close", "closing-100.00": "10", "closing-25.00": "28",
            "idempotency_key": key(page, "close")})
    session.refresh_from_db()
    assert session.status == "closed"
    closed = fiscal.get(f"/pit/sessions/{session.session_id}/")
    assert "Not counted yet: two counters count it" in closed.content.decode()
    # the next session rolls the float
    roll_page = fiscal.get(f"/pit/{CASINO}/tables/r1/")
    assert "Open on the last closing count" in roll_page.content.decode()
    fiscal.post(f"/pit/{CASINO}/tables/r1/", {"action": "open", "mode": "roll",
                                             "idempotency_key": key(roll_page, "roll")})
    assert TableSession.objects.filter(status="open").get().opening_amount == 1700


def test_refusals_are_shown_beside_the_form_and_record_nothing(make_table) -> None:
    make_table("french_roulette", "r2", minimum="5")
    fiscal = person("fiscal", Role.PIT_BOSS)
    sid = table_session_open(casino=CASINO, table="r2", opening={"100.00": 10},
                             metadata=pit("fiscal")).session_id
    page = fiscal.get(f"/pit/sessions/{sid}/")
    fiscal.post(f"/pit/sessions/{sid}/", {"action": "open_round",
                                          "idempotency_key": key(page, "round")})
    rid = Round.objects.get().round_id
    page = fiscal.get(f"/pit/rounds/{rid}/")
    before = StoredEvent.objects.count()
    # the form parses (a split is two numbers); the engine decides (17-19 is not a split)
    refused = fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "bet", "form": "split", "type": "split", "numbers": "17 19", "seat": "1",
        "amount": "5", "idempotency_key": key(page, "bet:split")})
    html = refused.content.decode()
    assert refused.status_code == 200
    assert 'role="alert"' in html
    assert 'value="17 19"' in html
    assert "The rules of the game refuse this bet: " in html
    not_a_number = fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "bet", "form": "straight", "type": "straight", "numbers": "seventeen",
        "seat": "1", "amount": "5", "idempotency_key": key(page, "bet:straight")})
    assert "write a whole number" in not_a_number.content.decode()
    # (a close refused while a round is in progress: tests/games/test_floor.py)
    assert StoredEvent.objects.count() == before
    # another bet type, its fields as JSON (a float is refused: money is never a float)
    page = fiscal.get(f"/pit/rounds/{rid}/")
    floats = fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "bet", "form": "other", "type": "split", "fields": '{"numbers": [17.0, 20]}',
        "seat": "2", "amount": "5", "idempotency_key": key(page, "bet:other")})
    assert "write amounts as strings" in floats.content.decode()
    fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "bet", "form": "other", "type": "split", "fields": '{"numbers": [17, 20]}',
        "seat": "2", "amount": "5", "idempotency_key": key(page, "bet:other")})
    assert Bet.objects.get().bet["numbers"] == [17, 20]
    # no form for whoever is not a pit boss, and no recording either
    accountant = person("contabilista", Role.ACCOUNTANT)
    assert "Place a bet" not in accountant.get(f"/pit/rounds/{rid}/").content.decode()
    assert accountant.post(f"/pit/rounds/{rid}/", {
        "action": "close_betting", "idempotency_key": "x"}).status_code == 403
    # a void needs its reason; the bets then settle nothing
    page = fiscal.get(f"/pit/rounds/{rid}/")
    no_reason = fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "void", "reason": " ", "idempotency_key": key(page, "void")})
    assert "Say why: the reason is recorded with the event." in no_reason.content.decode()
    voided = fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "void", "reason": "ball jumped out", "idempotency_key": key(page, "void")},
        follow=True)
    assert "Round void: nothing is settled." in voided.content.decode()
    assert Round.objects.get().status == "voided"
    assert Bet.objects.get().status == ""
    assert "Open the next round" in voided.content.decode()


# Per game: one bet through its form, and the outcome through the game's outcome form.
PLAYS = {
    "american_roulette": ({"form": "series", "type": "series", "series": "big", "amount": "45"},
                          {"number": "0"}, "won"),
    "french_roulette": ({"form": "dozen", "type": "dozen", "dozen": "2", "amount": "5"},
                        {"number": "14"}, "won"),
    "banca_francesa": ({"form": "lines", "type": "big_line", "amount": "10"},
                       {"die1": "5", "die2": "5", "die3": "5"}, "won"),
    "craps": ({"form": "line", "type": "pass", "amount": "5"}, {"die1": "3", "die2": "4"}, "won"),
    "cussec": ({"form": "faces", "type": "single", "number": "5", "amount": "5"},
               {"die1": "5", "die2": "2", "die3": "5"}, "won"),
    "blackjack": ({"form": "seat", "type": "main", "amount": "5"},
                  {"dealer": "TS 7H", "hands": "1: AS KD"}, "won"),
    "stud_poker": ({"form": "ante", "type": "ante", "amount": "5"},
                   {"dealer": "AS KD 7C 5H 2D", "hands": "1: 9C 7D 5S 3H 2C passo"}, "lost"),
    "punto_banco": ({"form": "baccarat", "type": "player", "amount": "10"},
                    {"player": "9S KH", "banker": "2C 3D"}, "won"),
    "punto_banco_macau": ({"form": "baccarat", "type": "banker", "amount": "10"},
                          {"player": "9s kh", "banker": "2c 3d"}, "lost"),
    "football_poker": ({"form": "hand", "type": "upper", "amount": "5"}, {"hands": "1: 4S KD"},
                       "won"),
}


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_every_game_takes_a_bet_and_an_outcome_from_its_forms(make_table, game: str) -> None:
    bet, outcome, status = PLAYS[game]
    make_table(game, "t1", minimum="5")
    sid = table_session_open(casino=CASINO, table="t1", opening={"100.00": 10},
                             metadata=pit("fiscal")).session_id
    fiscal = person("fiscal", Role.PIT_BOSS)
    page = fiscal.get(f"/pit/sessions/{sid}/")
    fiscal.post(f"/pit/sessions/{sid}/", {"action": "open_round",
                                          "idempotency_key": key(page, "round")})
    rid = Round.objects.get().round_id
    url = f"/pit/rounds/{rid}/"
    page = fiscal.get(url)
    placed = fiscal.post(url, {"action": "bet", "seat": "1", "player": "",
                               "idempotency_key": key(page, f"bet:{bet['form']}"), **bet})
    assert placed.status_code == 302, placed.content.decode()
    page = fiscal.get(url)
    fiscal.post(url, {"action": "close_betting", "idempotency_key": key(page, "close")})
    page = fiscal.get(url)
    recorded = fiscal.post(url, {"action": "outcome", "idempotency_key": key(page, "outcome"),
                                 **outcome})
    assert recorded.status_code == 302, re.findall(r'class="alert"[^>]*>(.*?)</p>',
                                                   recorded.content.decode(), re.S)
    page = fiscal.get(url)
    settled = fiscal.post(url, {"action": "settle", "idempotency_key": key(page, "settle")},
                          follow=True)
    assert Bet.objects.get().status == status
    assert "Round settled" in settled.content.decode()


def test_the_pit_pages_render_in_portuguese_when_the_language_is_pt_pt(make_table) -> None:
    make_table("american_roulette", "r1", minimum="5")
    sid = table_session_open(casino=CASINO, table="r1", opening={"100.00": 10},
                             metadata=pit("fiscal")).session_id
    fiscal = person("fiscal", Role.PIT_BOSS)
    fiscal.cookies["django_language"] = "pt-pt"
    page = fiscal.get(f"/pit/sessions/{sid}/")
    html = page.content.decode()
    assert '<html lang="pt-pt">' in html
    assert "Roleta americana" in html
    assert "partida de" in html
    assert "Abrir um golpe" in html
    assert "Resultado da partida" in html
    assert "Open a round" not in html
    opened = fiscal.post(f"/pit/sessions/{sid}/", {"action": "open_round",
                                                   "idempotency_key": key(page, "round")},
                         follow=True)
    html = opened.content.decode()
    assert "Golpe 1 aberto: registe as apostas." in html
    assert "Pleno" in html
    assert "Nada mais" in html
    # amounts typed and shown the Portuguese way
    rid = Round.objects.get().round_id
    placed = fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "bet", "form": "straight", "type": "straight", "numbers": "17", "seat": "1",
        "amount": "5,50", "idempotency_key": key(opened, "bet:straight")}, follow=True)
    assert "Aposta b1 registada: Pleno, 5,50 no lugar 1." in placed.content.decode()
    assert Bet.objects.get().amount == Decimal("5.50")
    # a refusal in the pit boss's language too
    refused = fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "settle", "idempotency_key": "settle-too-early"})
    assert "Ainda se estão a receber apostas" in refused.content.decode()
    # the rules engine's own refusal (a template of games.engine) in Portuguese, its values kept
    off_layout = fiscal.post(f"/pit/rounds/{rid}/", {
        "action": "bet", "form": "straight", "type": "straight", "numbers": "40", "seat": "1",
        "amount": "5", "idempotency_key": key(placed, "bet:straight")})
    html = off_layout.content.decode()
    assert "As regras do jogo recusam esta aposta: straight: o tapete só tem de 0 a 36, não " \
           "[40]" in html, re.findall(r'class="alert"[^>]*>(.*?)</p>', html, re.S)
    assert "the layout has only" not in html


def test_a_jackpot_chip_is_placed_from_the_round_page(make_table) -> None:
    from casino.context import person_metadata
    from jackpots.services import jackpot_pool_create

    make_table("blackjack", "bj1", minimum="10")
    jackpot_pool_create(
        casino=CASINO, pool_id="pool-bj1", name="Pool bj1", game="blackjack", tables=["bj1"],
        bet=Decimal("1.00"), increment_percent="80", start=Decimal("10000.00"),
        paytable=[{"combination": "four_aces_suited", "pays": "jackpot"},
                  {"combination": "two_aces", "pays": "25x"}],
        approved_on="2024-03-01", approval_reference="IGJ 123/2024",
        metadata=person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino=CASINO))
    sid = table_session_open(casino=CASINO, table="bj1", opening={"100.00": 50},
                             metadata=pit("fiscal")).session_id
    fiscal = person("fiscal", Role.PIT_BOSS)
    page = fiscal.get(f"/pit/sessions/{sid}/")
    fiscal.post(f"/pit/sessions/{sid}/", {"action": "open_round",
                                          "idempotency_key": key(page, "round")})
    url = f"/pit/rounds/{Round.objects.get().round_id}/"
    page = fiscal.get(url)
    assert "Jackpot chip" in page.content.decode()
    fiscal.post(url, {"action": "bet", "form": "seat", "type": "main", "seat": "2",
                      "amount": "10", "idempotency_key": key(page, "bet:seat")})
    page = fiscal.get(url)
    placed = fiscal.post(url, {"action": "jackpot_bet", "seat": "2", "player": "",
                               "amount": "1.00", "idempotency_key": key(page, "jackpot")},
                         follow=True)
    assert re.search(r"Jackpot chip \w+ placed on seat 2\.", placed.content.decode())
    page = fiscal.get(url)
    fiscal.post(url, {"action": "close_betting", "idempotency_key": key(page, "close")})
    page = fiscal.get(url)
    fiscal.post(url, {"action": "outcome", "dealer": "TS 7H", "hands": "2: AS AD",
                      "idempotency_key": key(page, "outcome")})
    page = fiscal.get(url)
    settled = fiscal.post(url, {"action": "settle", "idempotency_key": key(page, "settle")},
                          follow=True).content.decode()
    assert "won a combination" in settled
    assert "two_aces" in settled
