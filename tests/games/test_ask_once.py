"""Screens that ask once (issue 36, item 6): stud poker's call and fold are taken from the
buttons, the outcome asks the boxes' cards only, and a box left out is named "folded", not "not
dealt"; blackjack offers even money only to a blackjack against the ace (Portaria 217/2007,
blackjack, n.º 34), insurance to the others (n.º 33)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.models import Role
from games.models import Round

from .test_tablet import _post, _round, _text, person

pytestmark = pytest.mark.django_db


def test_stud_poker_s_outcome_asks_the_cards_only_and_names_a_folded_box(
        make_table: Any) -> None:
    rid = _round(make_table, "stud_poker", [{"seat": 1, "type": "ante", "amount": "10"},
                                            {"seat": 2, "type": "ante", "amount": "10"}])
    fiscal = person("fiscal", Role.PIT_BOSS)
    _post(fiscal, rid, "box:1", action="decision", decision="call", seat="1")
    page = _text(_post(fiscal, rid, "box:2", action="decision", decision="fold", seat="2"))
    assert "Boxes (cards only: call or fold is recorded)" in page
    assert "folded" in page  # box 2, in words
    # box 2 left out: named as folded, nothing recorded
    refused = _text(_post(fiscal, rid, "outcome", action="outcome", dealer="AS KD 7C 5H 2D",
                          hands="1: AH KH QH JH TH"))
    assert "box 2 folded: type its five cards too" in refused
    assert "not dealt" not in refused
    assert Round.objects.get(round_id=rid).outcome is None
    # the cards only: box 1 called and box 2 folded, as the buttons said
    _post(fiscal, rid, "outcome", action="outcome", dealer="AS KD 7C 5H 2D",
          hands="1: AH KH QH JH TH\n2: 9C 7D 5S 3H 2C")
    seats = {s["seat"]: s["decision"] for s in Round.objects.get(round_id=rid).outcome["seats"]}
    assert seats == {1: "call", 2: "fold"}


def test_blackjack_offers_even_money_only_to_a_blackjack_against_the_ace(
        make_table: Any) -> None:
    rid = _round(make_table, "blackjack", [{"seat": 1, "type": "main", "amount": "20"},
                                           {"seat": 2, "type": "main", "amount": "10"}])
    fiscal = person("fiscal", Role.PIT_BOSS)
    page = _post(fiscal, rid, "deal", action="deal", upcard="as",
                 **{"seat-1": "AH KD", "seat-2": "9H 7C"})
    forms = {bet: form for bet, form in
             ((f, page.split(f'aria-label="Insurance of {f}"')[1].split("</form>")[0])
              for f in ("b1", "b2"))}
    assert 'value="even_money"' in forms["b1"]  # A K: a blackjack
    assert 'value="insurance"' in forms["b2"]
    assert 'value="even_money"' not in forms["b2"]  # 9 7: sixteen
