"""An outcome as the pit records it: checked against what was recorded while the round was played
(the craps table point, the blackjack hands as they were played, the stud poker boxes' calls)
and completed from it, before the rules engine settles it.

Pure: the round travels as its point and its ``play`` (``games.play``); a refusal is a
``RuleError``.
"""

from __future__ import annotations

import copy
from typing import Any

from games import play
from games.rules.bets import BetView
from games.rules.errors import conflict, invalid


def prepare_outcome(game: str, outcome: object, point: int | None, hands: play.Play
                    ) -> dict[str, Any]:
    """A copy of ``outcome``, completed with the round's ``point`` (craps) and ``hands``
    (blackjack's hands, stud poker's decisions); refused where it contradicts them."""
    if not isinstance(outcome, dict):
        raise invalid("the outcome is an object in the game's own form", field="outcome")
    prepared = copy.deepcopy(outcome)
    if game == "craps":
        if "point" in prepared and prepared["point"] != point:
            raise invalid("the table point before this roll is {point}, not "
                          "{point_2}",
                          params={"point": point, "point_2": prepared['point']}, code="invalid_outcome", field="outcome")
        prepared["point"] = point
    elif game == "blackjack" and hands.get("seats"):
        seats = play.outcome_seats(hands)
        if "seats" in prepared and prepared["seats"] != seats:
            raise invalid("the hands differ from those recorded as they were played",
                          code="invalid_outcome", field="outcome")
        prepared["seats"] = seats
        dealer = prepared.get("dealer")
        if (isinstance(dealer, dict) and isinstance(dealer.get("cards"), list)
                and dealer["cards"] and dealer["cards"][0] != hands["upcard"]):
            raise invalid("the bank's up card was {upcard}",
                          params={"upcard": hands['upcard']},
                          code="invalid_outcome", field="outcome")
    elif game == "stud_poker" and hands.get("decisions"):
        recorded = hands["decisions"]
        outcome_seats = prepared.get("seats")
        if isinstance(outcome_seats, list):
            for seat in outcome_seats:
                if isinstance(seat, dict) and str(seat.get("seat")) in recorded:
                    decision = recorded[str(seat["seat"])]
                    if seat.setdefault("decision", decision) != decision:
                        raise invalid("box {seat} decided {decision}",
                                      params={"seat": seat['seat'], "decision": decision},
                                      code="invalid_outcome", field="outcome")
    return prepared


def undecided_boxes(bets: list[BetView], hands: play.Play) -> list[int]:
    """Stud poker: the boxes with an ante that have neither called nor folded."""
    decided = hands.get("decisions", {})
    return sorted(b.seat for b in bets if b.bet_type == "ante" and str(b.seat) not in decided)


def check_decided(game: str, bets: list[BetView], hands: play.Play) -> None:
    """Stud poker, once a box has decided: no outcome before every box with an ante has."""
    if game == "stud_poker" and hands.get("decisions"):
        undecided = undecided_boxes(bets, hands)
        if undecided:
            raise conflict("boxes {undecided} have not called or folded",
                           params={"undecided": undecided}, code="undecided")
