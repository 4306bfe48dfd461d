"""The hand in play on the pit tablet: blackjack's deal and decisions, stud poker's call or fold,
and each bet's settlement in words.

What the screen offers comes from the rules: a blackjack hand shows the decisions
``games.engine.blackjack.allowed_decisions`` allows now; the service checks them again
(``decision_record``) and its refusal is shown beside the form. Parsing only here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from casino.errors import InvalidCommand
from games.engine import blackjack as bj
from games.engine.errors import RoundError
from games.models import Bet, Round, RoundStatus

from .forms import parse_cards
from .labels import Label, bet_type_label

DECISIONS: dict[str, Label] = {
    "hit": pgettext_lazy("blackjack decision", "Hit"),
    "stand": pgettext_lazy("blackjack decision", "Stand"),
    "double": pgettext_lazy("blackjack decision", "Double"),
    "split": pgettext_lazy("blackjack decision", "Split"),
    "surrender": pgettext_lazy("blackjack decision", "Surrender"),
    "insurance": pgettext_lazy("blackjack decision", "Insurance"),
    "even_money": pgettext_lazy("blackjack decision", "Even money"),
    "call": pgettext_lazy("stud poker decision", "Call"),
    "fold": pgettext_lazy("stud poker decision", "Fold"),
}
# The decisions of a hand, in the order a dealer says them; the cards each one takes.
HAND_DECISIONS = ("hit", "stand", "double", "split", "surrender")
CARDS_NEEDED = {"hit": 1, "double": 1, "split": 2}


def _cards_text(cards: Sequence[str]) -> str:
    return " ".join(cards)


def deal_seats(the_round: Round, bets: Sequence[Bet]) -> list[int]:
    """Blackjack, betting closed, no deal yet: the seats the deal goes to (a holder's stake)."""
    if the_round.game != "blackjack" or the_round.status != RoundStatus.CLOSED:
        return []
    if (the_round.play or {}).get("seats"):
        return []
    return sorted({b.seat for b in bets if b.bet_type == "main" and not b.withdrawn})


def blackjack_hands(the_round: Round, bets: Sequence[Bet]) -> list[dict[str, Any]]:
    """Each seat's hands as played, with the decisions allowed now on the hand in play."""
    state = the_round.play or {}
    if the_round.game != "blackjack" or not state.get("seats"):
        return []
    upcard = state["upcard"]
    playing = the_round.status == RoundStatus.CLOSED
    seats = []
    for seat, hands in sorted(state["seats"].items(), key=lambda kv: int(kv[0])):
        rows = []
        in_play_found = False
        for number, hand in enumerate(hands, start=1):
            allowed: set[str] = set()
            if playing and not hand["done"] and not in_play_found:
                in_play_found = True
                try:
                    allowed = bj.allowed_decisions(
                        {"cards": hand["cards"], "split": hand["split"],
                         "double": hand["double"]}, upcard) & set(HAND_DECISIONS)
                except RoundError:
                    allowed = set()
            flags = [str(DECISIONS[f]).lower() for f in ("split", "double", "surrender")
                     if hand.get(f)]
            rows.append({
                "number": number, "cards": _cards_text(hand["cards"]),
                "total": _total(hand["cards"], bool(hand["double"])), "flags": ", ".join(flags),
                "done": hand["done"], "in_play": bool(allowed),
                "decisions": [(d, DECISIONS[d], CARDS_NEEDED.get(d, 0))
                              for d in HAND_DECISIONS if d in allowed],
            })
        backs = [b for b in bets if b.seat == int(seat) and b.bet_type == "back"]
        seats.append({"seat": int(seat), "hands": rows,
                      "backs": [(b.bet_id, b.player, b.amount) for b in backs]})
    return seats


def _total(cards: Sequence[str], doubled: bool) -> int:
    try:
        return bj.hand_total(list(cards), doubled=doubled)[0]
    except (KeyError, RoundError):
        return 0


def insurable_bets(the_round: Round, bets: Sequence[Bet]) -> list[dict[str, Any]]:
    """Against a bank's ace (n.os 33, 34): the main and back bets that may take insurance or
    even money, with half the bet, the most insurance takes."""
    state = the_round.play or {}
    if (the_round.game != "blackjack" or the_round.status != RoundStatus.CLOSED
            or not state.get("seats") or not str(state.get("upcard", "")).startswith("A")):
        return []
    taken = {b.bet.get("bet") for b in bets if b.bet_type == "insurance"}
    out = []
    for b in bets:
        if b.bet_type not in ("main", "back") or b.bet_id in taken or b.bet.get("even_money"):
            continue
        out.append({"bet": b, "half": (b.amount / 2).quantize(Decimal("0.01"), "ROUND_DOWN"),
                    "type": bet_type_label("blackjack", b.bet_type),
                    # even money only on a blackjack against the ace (n.º 34): asked once
                    "even_money": _blackjack_dealt(state, b.seat)})
    return out


def _blackjack_dealt(state: Mapping[str, Any], seat: int) -> bool:
    """The seat's first hand, as dealt, is a blackjack (an ace and a ten-value card)."""
    hands = (state.get("seats") or {}).get(str(seat)) or []
    if not hands or hands[0].get("split"):
        return False
    try:
        return bj.is_blackjack(list(hands[0]["cards"]))
    except (KeyError, RoundError):
        return False


# A stud poker box once decided, in words (a folded box is "folded", never "not dealt").
BOX_DECIDED = {"call": gettext_lazy("called"), "fold": gettext_lazy("folded")}


def stud_boxes(the_round: Round, bets: Sequence[Bet]) -> list[dict[str, Any]]:
    """Stud poker, betting closed: each box with an ante, and its call or fold when decided."""
    if the_round.game != "stud_poker" or the_round.status not in (RoundStatus.CLOSED,
                                                                    RoundStatus.OUTCOME,
                                                                    RoundStatus.SETTLED):
        return []
    decided = (the_round.play or {}).get("decisions", {})
    return [{"seat": b.seat, "ante": b.amount, "player": b.player,
             "decision": BOX_DECIDED.get(decided.get(str(b.seat), ""), ""),
             "open": the_round.status == RoundStatus.CLOSED and str(b.seat) not in decided}
            for b in bets if b.bet_type == "ante"]


# --- what a posted decision becomes ------------------------------------------------------------


def parse_deal(posted: Mapping[str, str], seats: Sequence[int]) -> dict[str, Any]:
    """``deal_record``'s arguments: the bank's up card and two cards per seat."""
    upcard = parse_cards(posted.get("upcard", ""), gettext_lazy("Bank's up card"))
    if len(upcard) != 1:
        raise InvalidCommand(_("Bank's up card: one card, such as 7H"))
    dealt = {}
    for seat in seats:
        what = _("Seat %(n)s") % {"n": seat}
        cards = parse_cards(posted.get(f"seat-{seat}", ""), what)
        if len(cards) != 2:
            raise InvalidCommand(_("%(field)s: two cards, such as AS KD") % {"field": what})
        dealt[str(seat)] = cards
    return {"upcard": upcard[0], "seats": dealt}


def parse_decision(posted: Mapping[str, str], followers: Sequence[str]) -> dict[str, Any]:
    """``decision_record``'s arguments from a hand's form (or an insurance form)."""
    decision = posted.get("decision", "")
    if decision not in DECISIONS:
        raise InvalidCommand(_("Choose the decision with its button."))
    try:
        seat = int(posted.get("seat", ""))
        hand = int(posted.get("hand", "1") or "1")
    except ValueError:
        raise InvalidCommand(_("This form is not one of this page's: reload the page.")) from None
    spec: dict[str, Any] = {"seat": seat, "hand": hand, "decision": decision}
    need = CARDS_NEEDED.get(decision, 0)
    if need:
        what = _("Card drawn") if need == 1 else _("The cards of the two hands")
        cards = parse_cards(posted.get(f"cards-{decision}", "") or posted.get("cards", ""), what)
        if len(cards) != need:
            raise InvalidCommand(
                _("%(field)s: %(n)s card(s), such as %(example)s")
                % {"field": what, "n": need, "example": "9H" if need == 1 else "9H 4C"})
        spec["cards"] = cards
    if decision in ("split", "double"):
        spec["followers"] = list(followers)
    if decision in ("insurance", "even_money"):
        spec["bet_id"] = posted.get("bet_id", "")
        if decision == "insurance" and (posted.get("amount") or "").strip():
            spec["amount"] = posted["amount"].strip().replace(",", ".")
    return spec


# --- settlement in words ------------------------------------------------------------------------


def _ratio(win: Decimal, stake: Decimal) -> str:
    ratio = (win / stake).normalize() if stake else Decimal(0)
    text = format(ratio, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def settlement_text(bet: Bet) -> str:
    """What the settlement did with a bet, as a pit boss says it to the player."""
    amount = bet.amount
    win = bet.win if bet.win is not None else Decimal(0)
    returned = bet.returned if bet.returned is not None else Decimal(0)
    if bet.withdrawn:
        return _("taken down before the roll: the stake went back to the player")
    if bet.status == "won":
        text = _("won: pays %(ratio)s to 1, a prize of %(win)s; %(returned)s to the player "
                 "with the stake") % {"ratio": _ratio(win, amount), "win": win,
                                      "returned": returned}
        if bet.capped_win is not None and bet.capped_win != win:
            text += " " + _("(the table's prize cap held it at %(cap)s)") % {
                "cap": bet.capped_win}
        return text
    if bet.status == "lost":
        return _("lost: the stake of %(amount)s stays with the bank") % {"amount": amount}
    if bet.status == "push":
        return _("stands (push): the stake of %(amount)s goes back to the player") % {
            "amount": returned}
    if bet.status == "half_lost":
        return _("half lost: %(returned)s of the %(amount)s staked goes back to the player") % {
            "returned": returned, "amount": amount}
    if bet.status == "pending":
        return _("still working: it is carried to the next roll")
    return ""
