"""The house's commission at a cash table of póquer não bancado: the rake on each pot, or a
charge per period of play (Portaria 217/2007, 1.º and 2.º; ``docs/poker-room.md``).

The Portaria makes the house's income at the non-banked games a commission, not a win: the
players play against each other and the pot is theirs, less the commission. Its figures (the
percentage, the cap, the minimum pot, whether a hand that ends before the flop pays) were not
found in the text we could reach (Anexo, Título II): they are the casino's parameters, each with
the Inspecção-Geral de Jogos' approval reference, flagged **unverified** (PR-1 in
``docs/poker-room.md``) until a número is cited.

A hand recorded at a table must add up: what the seats put in is the pot, the pot is what the
winners take plus the rake, and the rake is the configured one (:func:`check_hand`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from pokerroom.rules.errors import RuleError
from pokerroom.rules.money import ZERO, share

RAKE = "rake"
TIME_CHARGE = "time_charge"
CHARGES = (RAKE, TIME_CHARGE)


@dataclass(frozen=True)
class RakeRule:
    """A table's approved commission (PR-1). ``percent`` of each pot, at most ``cap``, on pots of
    ``minimum_pot`` or more; ``no_flop_no_drop``: a hand won before the flop pays none."""

    percent: Decimal
    cap: Decimal
    minimum_pot: Decimal
    no_flop_no_drop: bool = True

    def __post_init__(self) -> None:
        if not ZERO <= self.percent <= Decimal(100):
            raise RuleError("rake_percent", "the rake's percentage must be 0 to 100 (PR-1), not {p}",
                            {"p": self.percent})
        if self.cap < ZERO or self.minimum_pot < ZERO:
            raise RuleError("rake_cap", "the rake's cap and minimum pot cannot be negative (PR-1)")


def rake_due(rule: RakeRule, pot: Decimal, *, flop_dealt: bool) -> Decimal:
    """The rake the rule takes from ``pot``: nothing before the flop where ``no_flop_no_drop``,
    nothing below the minimum pot, else the percentage rounded down to the cent, at most the cap.

    5 % of 123.45 = 6.1725 -> 6.17; with a cap of 5.00 -> 5.00.
    """
    if rule.no_flop_no_drop and not flop_dealt:
        return ZERO
    if pot < rule.minimum_pot:
        return ZERO
    return min(share(pot, rule.percent), rule.cap, pot)


@dataclass(frozen=True)
class Hand:
    """A hand as the dealer records it: each seat's chips into the pot, each winner's share,
    the rake taken. All amounts in the table's currency."""

    contributions: Mapping[int, Decimal]
    awards: Mapping[int, Decimal]
    rake: Decimal
    flop_dealt: bool

    @property
    def pot(self) -> Decimal:
        return sum(self.contributions.values(), ZERO)


def check_hand(rule: RakeRule, hand: Hand) -> Decimal:
    """The hand's pot if it adds up and its rake is the rule's; else a :class:`RuleError` naming
    the rule broken (nothing of the hand is to be recorded)."""
    for seat, amount in [*hand.contributions.items(), *hand.awards.items()]:
        if amount < ZERO:
            raise RuleError("negative_amount", "seat {seat}: an amount cannot be negative",
                            {"seat": seat})
    if not hand.contributions or hand.pot == ZERO:
        raise RuleError("empty_pot", "a hand needs chips in the pot")
    if not hand.awards:
        raise RuleError("no_winner", "a hand's pot goes to at least one seat")
    stray = sorted(set(hand.awards) - set(hand.contributions))
    if stray:
        raise RuleError("winner_not_in_hand", "seat {seat} wins a pot it put nothing into",
                        {"seat": stray[0]})
    pot = hand.pot
    if hand.rake < ZERO:
        raise RuleError("negative_amount", "the rake cannot be negative")
    if hand.rake > pot:
        raise RuleError("rake_above_pot", "the rake {rake} is more than the pot {pot} (PR-1)",
                        {"rake": hand.rake, "pot": pot})
    if hand.rake > rule.cap:
        raise RuleError("rake_above_cap", "the rake {rake} is above the table's cap {cap} (PR-1)",
                        {"rake": hand.rake, "cap": rule.cap})
    due = rake_due(rule, pot, flop_dealt=hand.flop_dealt)
    if hand.rake != due:
        raise RuleError(
            "rake_not_as_approved",
            "the rake {rake} is not the approved one: {due} on a pot of {pot} (PR-1{flop})",
            {"rake": hand.rake, "due": due, "pot": pot,
             "flop": "" if hand.flop_dealt or not rule.no_flop_no_drop else ", no flop no drop"},
        )
    awarded = sum(hand.awards.values(), ZERO)
    if awarded + hand.rake != pot:
        raise RuleError(
            "pot_does_not_add_up",
            "the pot {pot} is not the prizes {awarded} plus the rake {rake}",
            {"pot": pot, "awarded": awarded, "rake": hand.rake},
        )
    return pot


def time_charge(rate: Decimal, *, minutes: int, period_minutes: int) -> Decimal:
    """The charge per time of play (PR-2): ``rate`` for each period begun.

    30.00 per 60 minutes, 61 minutes played -> two periods begun -> 60.00.
    """
    if rate < ZERO:
        raise RuleError("time_charge", "a time charge cannot be negative")
    if period_minutes <= 0 or minutes < 0:
        raise RuleError("time_charge", "a period of play must be a positive number of minutes")
    periods = -(-minutes // period_minutes)
    return rate * periods
