"""A refusal, in words a pit boss reads in their own language.

Every refusal is shown translated by ``edge.web.refusals.refusal_text`` (the service's template
in the page's language). For the refusals a pit boss meets every day, the pit says it in its own
words from the error's code and details; a rule of the game or a limit gets a lead before the
service's words.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from casino.errors import DomainError
from edge.web.refusals import refusal_text as said

MESSAGES: dict[str, Promise] = {
    "four_eyes": _("You recorded the outcome being corrected: another pit boss must approve "
                   "the correction (four eyes)."),
    "already_settled": _("The round is already settled: a mistake is put right by a "
                         "correction."),
    "betting_open": _("Bets are still being taken: call no more bets first."),
    "betting_closed": _("No more bets: betting is closed for this round."),
    "no_outcome": _("The round has no outcome yet."),
    "outcome_recorded": _("The outcome is recorded: settle the round, or void it."),
    "round_voided": _("The round is void."),
    "session_closed": _("The session of this table is closed."),
    "session_open": _("This table already has an open session."),
    "round_in_progress": _("A round is in progress: settle or void it first."),
    "slip_not_voidable": _("Only a slip the cage has not acted on can be voided."),
    "bets_working": _("Craps bets are still working: play on until they are decided."),
    "colour_chips_out": _("Colour chips are still out: exchange them first (n.º 15)."),
    "concurrent_change": _("Someone else recorded on this at the same time; nothing of yours "
                           "was recorded: reload the page and try again."),
    "decision_only": _("This stake is taken only as a decision of the hand in play."),
    "correction_unsupported": _("Bets of this round carried from roll to roll: it cannot be "
                                "corrected (void it before settlement instead)."),
}

# Refusals whose details only the service can say (the rule, the limit and its article): a lead
# in the page's language, then the service's words.
LEADS: dict[str, Promise] = {
    "invalid_bet": _("The rules of the game refuse this bet"),
    "invalid_outcome": _("The rules of the game refuse this outcome"),
    "invalid_option": _("The rules of the game refuse the table's options"),
    "over_limit": _("Outside the table's limits"),
    "bet_not_offered": _("This table does not take this bet"),
    "decision_not_allowed": _("The rules do not allow this decision now"),
}

WITH_DETAILS: dict[str, tuple[Promise, str]] = {
    "duplicate_slip": (_("Slip number %(value)s is already used: slips are pre-numbered and "
                         "each number is used once, voided or not."), "slip"),
    "no_such_seat": (_("This table has no seat %(value)s."), "seat"),
}


def refusal_text(error: Exception) -> str:
    """The message to show for a refusal of a service (nothing was recorded)."""
    if isinstance(error, DomainError):
        if error.code in MESSAGES:
            return str(MESSAGES[error.code])
        if error.code == "invalid" and error.extra.get("field") == "reason":
            return str(_("Say why: the reason is recorded with the event."))
        if error.code in WITH_DETAILS:
            template, key = WITH_DETAILS[error.code]
            if key in error.extra:
                return str(template) % {"value": error.extra[key]}
        if error.code in LEADS:
            return f"{LEADS[error.code]}: {said(error)}"
    return said(error)
