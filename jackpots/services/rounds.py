"""The coup of a pit round: the jackpot bets of a round the pit recorded, with the cards that
decide them taken from the round itself.

This is what the table-operations code calls when a round with jackpot bets settles, in the
same transaction (``docs/jackpots.md`` § Integration with rounds). The table gives the chips
(seat, player, amount); the cards come from the round:

- blackjack: the seat's first two cards as dealt (``CardsDealt``), then the cards of its decisions
  in the order they were recorded (hits, doubles, and a split's two cards, the first split hand's
  first), the first four of them (BJ n.º 42: "incluindo as correspondentes a pares divididos");
- stud poker: the box's five cards from the outcome, and whether it folded (JP-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from casino.errors import Conflict, InvalidCommand, NotFound
from casino.eventstore.store import Metadata, read_stream
from jackpots.models import JackpotTable

from ._common import Result
from .coups import jackpot_coup_settle

FIRST_CARDS = 4  # BJ n.º 42: the first two, three or four cards


def blackjack_first_cards(dealt: Sequence[str], decisions: Sequence[dict[str, Any]]) -> list[str]:
    """The seat's first cards in dealing order: the two dealt, then each decision's cards."""
    cards = list(dealt)
    for decision in decisions:
        cards.extend(decision.get("cards") or [])
    return cards[:FIRST_CARDS]


def hands_first_cards(hands: Sequence[dict[str, Any]]) -> list[str]:
    """The first cards of a seat from its hands as an outcome lists them (no deal recorded):
    after a split the two cards first dealt, then each hand's card from the split, the first
    hand's first (split aces get one card each, n.º 26)."""
    if len(hands) == 1:
        return list(hands[0]["cards"])[:FIRST_CARDS]
    cards = [hands[0]["cards"][0], hands[1]["cards"][0]]
    for hand in hands:
        cards.extend(hand["cards"][1:])
    return cards[:FIRST_CARDS]


def _blackjack_cards(round_id: str, play: dict[str, Any]) -> dict[int, list[str]]:
    dealt: dict[str, list[str]] = {}
    for recorded in read_stream(f"round/{round_id}"):  # the deal as recorded (CardsDealt)
        if recorded.event_type == "CardsDealt":
            dealt = dict(recorded.data["seats"])
    decisions = play.get("decisions", {})
    return {int(seat): blackjack_first_cards(cards, decisions.get(seat, []))
            for seat, cards in dealt.items()}


def _stud_cards(outcome: dict[str, Any]) -> dict[int, tuple[list[str], bool]]:
    return {int(s["seat"]): (list(s["cards"]), s.get("decision") == "fold")
            for s in outcome.get("seats", [])}


@transaction.atomic
def jackpot_round_settle(
    *, round_id: str, bets: Sequence[dict[str, Any]], metadata: Metadata,
) -> Result:
    """Record the coup of the pit's round ``round_id`` in the pool its table feeds.

    ``bets``: the round's jackpot chips, ``{"seat", "player", "amount"}`` each, as collected
    before the deal (BJ n.º 48, SP n.º 16). The round must have its outcome recorded.
    """
    from games.models import Round, RoundStatus  # the pit's rounds (read only)

    the_round = Round.objects.filter(round_id=round_id).first()
    if the_round is None:
        raise NotFound(f"there is no round {round_id}", round=str(round_id))
    if the_round.status not in (RoundStatus.OUTCOME, RoundStatus.SETTLED):
        raise Conflict("the jackpot is paid once the round's cards are all known (record the "
                       "outcome first)", code="no_outcome", round=str(round_id))
    link = JackpotTable.objects.filter(casino_id=the_round.casino_id,
                                       table=the_round.table).first()
    if link is None:
        raise Conflict(f"table {the_round.table} feeds no jackpot pool", code="no_jackpot",
                       table=the_round.table)
    outcome = the_round.outcome or {}
    given: list[dict[str, Any]] = []
    if the_round.game == "blackjack":
        cards = _blackjack_cards(str(the_round.round_id), the_round.play or {})
        if not cards:  # a whole round recorded at once: the hands are in the outcome
            cards = {int(s["seat"]): hands_first_cards(s["hands"])
                     for s in outcome.get("seats", [])}
        for bet in bets:
            seat = bet.get("seat")
            if seat not in cards:
                raise InvalidCommand(f"seat {seat} was not dealt in this round", field="seat")
            given.append({**bet, "cards": cards[seat]})
    elif the_round.game == "stud_poker":
        boxes = _stud_cards(outcome)
        for bet in bets:
            seat = bet.get("seat")
            if seat not in boxes:
                raise InvalidCommand(f"box {seat} was not dealt in this round", field="seat")
            hand, folded = boxes[seat]
            given.append({**bet, "cards": hand, "folded": folded})
    else:
        raise InvalidCommand(f"{the_round.game} has no jackpot")
    return jackpot_coup_settle(pool_id=link.pool_id, round_id=str(the_round.round_id),
                               table=the_round.table, bets=given, metadata=metadata,
                               opened_at=the_round.opened_at)
