"""The coup of a pit round: the jackpot bets of a round the pit recorded, with the cards that
decide them taken from the round itself.

This is what the table-operations code calls when a round with jackpot bets settles, in the
same transaction (``docs/jackpots.md`` § Integration with rounds). The table gives the chips
(seat, player, amount); the cards come from the round:

- blackjack: the seat's first two cards as dealt (``CardsDealt``), then the cards of its decisions
  in the order they were recorded (hits, doubles, and a split's two cards, the first split hand's
  first), the first four of them (BJ n.º 42: "incluindo as correspondentes a pares divididos");
- stud poker: the box's five cards from the outcome, and whether it folded (JP-1).

A round recorded whole (no deal recorded) gives only its hands: after one split the dealing order
follows from them (:func:`hands_first_cards`), after a resplit it does not (which hand was split
again is not in the outcome), so a jackpot bet on a resplit seat must bring the seat's first
cards itself (``cards``, checked against the seat's hands). A void round (golpe nulo) whose chips
were collected is recorded as a void coup: the chips stay in the pool, nothing is won.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from casino.errors import Conflict, InvalidCommand, NotFound
from eventstore import read_stream
from eventstore.commands import command
from eventstore.records import Metadata
from games.models import Round, RoundStatus
from jackpots.answers import CoupSettleAnswer
from jackpots.models import JackpotTable

from .coups import jackpot_coup_settle

FIRST_CARDS = 4  # BJ n.º 42: the first two, three or four cards


def blackjack_first_cards(dealt: Sequence[str], decisions: Sequence[dict[str, Any]]) -> list[str]:
    """The seat's first cards in dealing order: the two dealt, then each decision's cards."""
    cards = list(dealt)
    for decision in decisions:
        cards.extend(decision.get("cards") or [])
    return cards[:FIRST_CARDS]


def hands_first_cards(hands: Sequence[dict[str, Any]]) -> list[str] | None:
    """The first cards of a seat from its hands as an outcome lists them (no deal recorded):
    after a split the two cards first dealt, then each hand's card from the split, the first
    hand's first (split aces get one card each, n.º 26).

    The split's two cards are dealt together, as the pit records them (``decision_record``), so
    a hit on the first split hand comes after them (it never decides a combination anyway: split
    aces take one card each, and a non-ace pair starts no aces combination).

    ``None`` after a resplit (three hands or more; or no hand): the outcome lists hands in play
    order, each new hand right after the one it came from, so ``[p1 x] [c1 y] [p2 c2]`` (the
    first hand split again) and ``[p1 c1] [p2 x] [c2 y]`` (the second) look alike while their
    first four cards differ."""
    if len(hands) == 1:
        return list(hands[0]["cards"])[:FIRST_CARDS]
    if len(hands) != 2:
        return None
    first, second = hands[0]["cards"], hands[1]["cards"]
    return [first[0], second[0], *first[1:2], *second[1:2]][:FIRST_CARDS]


def _given_first_cards(seat: int, hands: Sequence[dict[str, Any]], given: object) -> list[str]:
    """A resplit seat's first cards as the table gives them, checked against its hands: the
    seat's first card first, then cards the seat holds, as many as it has up to four."""
    held = [card for hand in hands for card in hand["cards"]]
    if not isinstance(given, list) or not all(isinstance(c, str) for c in given):
        raise InvalidCommand(
            "seat {seat} split more than once: which hand was split again is not in the "
            "outcome, so give the seat's first cards in dealing order (cards) with its jackpot "
            "bet (Portaria 217/2007, blackjack, n.º 42)",
            params={"seat": seat}, code="dealing_order_needed",
            field="jackpot_bets", seat=seat)
    want = min(FIRST_CARDS, len(held))
    if (len(given) != want or given[0] != hands[0]["cards"][0]
            or Counter(given) - Counter(held)):
        raise InvalidCommand(
            "seat {seat}: {given} are not the seat's first {want} cards in dealing "
            "order (it holds {held})",
            params={"seat": seat, "given": ' '.join(given), "want": want, "held": ' '.join(held)}, code="invalid_outcome", field="jackpot_bets",
            seat=seat)
    return list(given)


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


@command("jackpot_round_settle")
def jackpot_round_settle(
    *, round_id: str, bets: Sequence[dict[str, Any]], metadata: Metadata,
    pool_id: str | None = None,
) -> CoupSettleAnswer:
    """Record the coup of the pit's round ``round_id`` in the pool its table feeds.

    ``bets``: the round's jackpot chips, ``{"seat", "player", "amount", "id"?}`` each, as
    collected before the deal (BJ n.º 48, SP n.º 16); at blackjack a round recorded whole may
    give a resplit seat's first cards (``cards``). The round must have its outcome recorded, or
    be void (its chips collected: a void coup, nothing won). ``pool_id``: the pool the table fed
    when the round opened (default: the one it feeds now).
    """

    the_round = Round.objects.filter(round_id=round_id).first()
    if the_round is None:
        raise NotFound("there is no round {round_id}",
                       params={"round_id": round_id}, round=str(round_id))
    void = the_round.status == RoundStatus.VOIDED
    if not void and the_round.status not in (RoundStatus.OUTCOME, RoundStatus.SETTLED):
        raise Conflict("the jackpot is paid once the round's cards are all known (record the "
                       "outcome first)", code="no_outcome", round=str(round_id))
    if pool_id is None:
        link = JackpotTable.objects.filter(casino_id=the_round.casino_id,
                                           table=the_round.table).first()
        if link is None:
            raise Conflict("table {table} feeds no jackpot pool",
                           params={"table": the_round.table}, code="no_jackpot",
                           table=the_round.table)
        pool_id = link.pool_id
    if void:  # the chips are in the pool; no card of an annulled coup counts
        return jackpot_coup_settle(
            pool_id=pool_id, round_id=str(the_round.round_id), table=the_round.table,
            bets=[{k: v for k, v in bet.items() if k != "cards"} for bet in bets],
            metadata=metadata, opened_at=the_round.opened_at, void=True)
    outcome = the_round.outcome or {}
    given: list[dict[str, Any]] = []
    if the_round.game == "blackjack":
        cards: dict[int, list[str] | None] = dict(
            _blackjack_cards(str(the_round.round_id), the_round.play or {}))
        hands: dict[int, list[dict[str, Any]]] = {}
        if not cards:  # a whole round recorded at once: the hands are in the outcome
            hands = {int(s["seat"]): s["hands"] for s in outcome.get("seats", [])}
            cards = {seat: hands_first_cards(seat_hands) for seat, seat_hands in hands.items()}
        for bet in bets:
            seat = bet.get("seat")
            if not isinstance(seat, int) or seat not in cards:
                raise InvalidCommand("seat {seat} was not dealt in this round",
                                     params={"seat": seat}, field="seat")
            first = cards[seat]
            if bet.get("cards") is not None and first is not None and bet["cards"] != first:
                raise InvalidCommand("seat {seat}: its first cards in dealing order are "
                                     "{first}, not {cards!r}",
                                     params={"seat": seat, "first": ' '.join(first), "cards": bet['cards']},
                                     code="invalid_outcome", field="cards", seat=seat)
            if first is None:
                first = _given_first_cards(seat, hands[seat], bet.get("cards"))
            given.append({**bet, "cards": first})
    elif the_round.game == "stud_poker":
        boxes = _stud_cards(outcome)
        for bet in bets:
            seat = bet.get("seat")
            if seat not in boxes:
                raise InvalidCommand("box {seat} was not dealt in this round",
                                     params={"seat": seat}, field="seat")
            hand, folded = boxes[seat]
            given.append({**bet, "cards": hand, "folded": folded})
    else:
        raise InvalidCommand("table {table} plays a game with no jackpot: only blackjack and "
                             "stud poker have one", params={"table": the_round.table})
    return jackpot_coup_settle(pool_id=pool_id, round_id=str(the_round.round_id),
                               table=the_round.table, bets=given, metadata=metadata,
                               opened_at=the_round.opened_at)
