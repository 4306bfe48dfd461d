"""No personal data in events (issue 35, finding 4): a player at a table is a label (a seat, a
pseudonym, a patron), a name is refused; the events recorded before named players and cannot be
rewritten: their upcaster serves each name as its seat's label."""

from __future__ import annotations

import pytest

from casino.errors import InvalidCommand
from casino.players import is_label, pseudonymised
from eventstore.events import decode
from games.players import player_checked


@pytest.mark.parametrize("label", ["", "seat-1", "seat-12", "P-7f3a", "P-0123456789abcdef",
                                   "patron-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"])
def test_labels_are_players(label: str) -> None:
    assert is_label(label)
    assert player_checked(label) == label


@pytest.mark.parametrize("name", ["Rita", "seat 3", "player 1", "P-Rita", "seat-0", "seat-100",
                                  "P-7f3", "patron-Rita", "Zoë"])
def test_a_name_is_refused_naming_the_field(name: str) -> None:
    with pytest.raises(InvalidCommand) as refused:
        player_checked(name)
    assert refused.value.extra["field"] == "player"


def test_an_old_bet_naming_rita_is_served_as_her_seat() -> None:
    old = {"round_id": "r1", "bet_id": "b1", "seat": 3, "player": "Rita", "amount": "10.00",
           "bet": {"id": "b1", "type": "red", "amount": "10.00"}}
    bet = decode("BetPlaced", 1, old)
    assert (bet.seat, bet.player) == (3, "seat-3")  # type: ignore[attr-defined]
    settled = decode("BetSettled", 1, {
        "round_id": "r1", "bet_id": "b1", "seat": 3, "player": "Rita", "bet_type": "red",
        "status": "won", "stake": "10.00", "win": "10.00", "returned": "20.00"})
    assert settled.player == "seat-3"  # type: ignore[attr-defined]


def test_an_old_drop_without_a_seat_and_old_colour_chips_name_nobody() -> None:
    drop = decode("DropRecorded", 1, {"session_id": "s1", "table": "r1", "amount": "50.00",
                                      "player": "Rita"})
    assert (drop.player, drop.patron_id) == ("", "")  # type: ignore[attr-defined]
    chips = decode("ColourChipsIssued", 1, {
        "session_id": "s1", "table": "r1", "colour": "red", "player": "Ana",
        "chip_value": "5.00", "chips": 20, "amount": "100.00", "paid_with": "chips"})
    assert chips.player == ""  # type: ignore[attr-defined]


def test_a_labels_of_an_old_coup_inside_its_request_and_seats_too() -> None:
    data = {"pool_id": "p", "round_id": "r", "table": "sp1", "config_version": 1,
            "request": {"bets": [{"bet_id": "j1", "seat": 2, "player": "Rui"}]},
            "result": {}, "seats": {"j1": {"seat": 2, "player": "Rui"},
                                    "j2": {"seat": 5, "player": "P-7f3a"}}}
    coup = pseudonymised(data)
    assert coup["request"]["bets"][0]["player"] == "seat-2"
    assert coup["seats"] == {"j1": {"seat": 2, "player": "seat-2"},
                             "j2": {"seat": 5, "player": "P-7f3a"}}  # a label is kept
    assert data["seats"]["j1"]["player"] == "Rui"  # the stored event is never changed
    assert decode("JackpotCoupSettled", 1, data).seats["j1"]["player"] == "seat-2"  # type: ignore[attr-defined]
