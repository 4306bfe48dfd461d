"""Every code a screen shows, as a person says it: one place, marked for translation.

Screens never show a stored code (``banca_francesa``, ``requested``, ``FillIssued``): they pass it
through ``label(kind, code)`` (in templates ``{% load casino_labels %}`` and
``{{ code|label:"game" }}``), which gives the translated word, or the code itself when nothing
is known (a new code shows, untranslated, rather than an empty cell). Kinds:

* ``game``: the engine's game codes (``games.engine.registry``);
* ``status``: statuses of shifts, sessions, rounds, slips, drop boxes, approvals, adjustments;
* ``slip``: fill or credit;
* ``role``: a person's roles;
* ``event``: event types as a history says them ("Chips sold");
* ``outcome``: a bet's or hand's result words (won, lost, push, ...);
* ``combination``: a jackpot's winning combinations (four aces of one suit, royal flush);
* ``field``: the fields of an event, as its history shows them ("Cash paid", "Count").

Account names come from the chart, which keeps an English and a Portuguese name for every
account: ``account_name(row)`` picks the one of the active language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

GAMES: Mapping[str, Promise] = {
    "punto_banco": _("Punto banco"),
    "punto_banco_macau": _("Punto banco (Macau)"),
    "banca_francesa": _("Banca francesa"),
    "blackjack": _("Blackjack"),
    "craps": _("Craps"),
    "cussec": _("Cussec"),
    "football_poker": _("Football poker"),
    "american_roulette": _("American roulette"),
    "french_roulette": _("French roulette"),
    "stud_poker": _("Stud poker"),
    # the poker room's non-banked games (Portaria 217/2007, 1.º and 2.º)
    "holdem": _("Hold'em poker"),
    "omaha": _("Omaha poker"),
    "synthetic_poker": _("Synthetic poker"),
    "chemin_de_fer": _("Chemin de fer"),
}

STATUSES: Mapping[str, Promise] = {
    "open": pgettext_lazy("status", "Open"),
    "closed": pgettext_lazy("status", "Closed"),
    "counted": pgettext_lazy("status", "Counted, waiting to close"),
    "disputed": pgettext_lazy("status", "Opening disputed"),
    "requested": pgettext_lazy("status", "Requested"),
    "issued": pgettext_lazy("status", "Issued by the cage"),
    "received": pgettext_lazy("status", "Received by the cage"),
    "refused": pgettext_lazy("status", "Refused by the cage"),
    "voided": pgettext_lazy("status", "Voided"),
    "approved": pgettext_lazy("status", "Approved"),
    "rejected": pgettext_lazy("status", "Rejected"),
    "resolved": pgettext_lazy("status", "Resolved"),
    "confirmed": pgettext_lazy("status", "Counted by two counters"),
    "betting": pgettext_lazy("status", "Taking bets"),
    "outcome": pgettext_lazy("status", "Outcome recorded"),
    "settled": pgettext_lazy("status", "Settled"),
    "placed": pgettext_lazy("status", "Placed"),
    "registering": pgettext_lazy("status", "Registering"),
    "running": pgettext_lazy("status", "Running"),
    "finished": pgettext_lazy("status", "Finished"),
    "returned": pgettext_lazy("status", "Returned"),
    "won": pgettext_lazy("status", "Won"),
    "lost": pgettext_lazy("status", "Lost"),
    "void": pgettext_lazy("status", "Void"),
}

SLIPS: Mapping[str, Promise] = {
    "fill": pgettext_lazy("slip", "Fill"),
    "credit": pgettext_lazy("slip", "Credit"),
}

ROLES: Mapping[str, Promise] = {
    "cashier": pgettext_lazy("role", "Cashier"),
    "cage_supervisor": pgettext_lazy("role", "Cage supervisor"),
    "pit_boss": pgettext_lazy("role", "Pit boss"),
    "accountant": pgettext_lazy("role", "Accountant"),
    "regulator": pgettext_lazy("role", "Regulator"),
    "administrator": pgettext_lazy("role", "Administrator"),
}

OUTCOMES: Mapping[str, Promise] = {
    "win": pgettext_lazy("outcome", "Won"),
    "won": pgettext_lazy("outcome", "Won"),
    "lose": pgettext_lazy("outcome", "Lost"),
    "lost": pgettext_lazy("outcome", "Lost"),
    "push": pgettext_lazy("outcome", "Push (stake returned)"),
    "tie": pgettext_lazy("outcome", "Tie"),
    "half": pgettext_lazy("outcome", "Half lost (en prison)"),
    "prison": pgettext_lazy("outcome", "In prison"),
    "void": pgettext_lazy("outcome", "Void, stake returned"),
    "surrender": pgettext_lazy("outcome", "Surrendered (half returned)"),
    "blackjack": pgettext_lazy("outcome", "Blackjack"),
    "bust": pgettext_lazy("outcome", "Bust"),
    "player": pgettext_lazy("outcome", "Player"),
    "banker": pgettext_lazy("outcome", "Banker"),
    "carried": pgettext_lazy("outcome", "Carried to the next roll"),
}

EVENTS: Mapping[str, Promise] = {
    "CageConfigured": pgettext_lazy("event", "Cage configured"),
    "CageMinimumCashChanged": pgettext_lazy("event", "Minimum cash changed"),
    "ShiftOpened": pgettext_lazy("event", "Shift opened"),
    "ShiftOpeningDisputed": pgettext_lazy("event", "Opening disputed"),
    "ShiftOpeningDisputeResolved": pgettext_lazy("event", "Opening dispute resolved"),
    "ChipsSold": pgettext_lazy("event", "Chips sold"),
    "ChipsRedeemed": pgettext_lazy("event", "Chips redeemed"),
    "FillIssued": pgettext_lazy("event", "Fill issued"),
    "CreditReceived": pgettext_lazy("event", "Credit received"),
    "SlipRefused": pgettext_lazy("event", "Slip refused"),
    "TransferSent": pgettext_lazy("event", "Transfer sent"),
    "TransferReceived": pgettext_lazy("event", "Transfer received"),
    "JackpotPaid": pgettext_lazy("event", "Jackpot paid"),
    "DropBoxReceived": pgettext_lazy("event", "Drop box received"),
    "AdjustmentRequested": pgettext_lazy("event", "Adjustment asked for"),
    "AdjustmentApproved": pgettext_lazy("event", "Adjustment approved"),
    "AdjustmentRejected": pgettext_lazy("event", "Adjustment rejected"),
    "ChipsPutIntoService": pgettext_lazy("event", "Chips put into service"),
    "ChipsTakenOutOfService": pgettext_lazy("event", "Chips taken out of service"),
    "CageCashFellBelowMinimum": pgettext_lazy("event", "Cash fell below the minimum"),
    "CageCashRestoredAboveMinimum": pgettext_lazy("event", "Cash back above the minimum"),
    "ShiftCounted": pgettext_lazy("event", "Shift counted"),
    "VarianceExplained": pgettext_lazy("event", "Variance explained"),
    "VarianceApproved": pgettext_lazy("event", "Variance approved"),
    "VarianceRefused": pgettext_lazy("event", "Variance refused"),
    "ShiftClosed": pgettext_lazy("event", "Shift closed"),
    "FillRequested": pgettext_lazy("event", "Fill requested"),
    "CreditRequested": pgettext_lazy("event", "Credit requested"),
    "SlipVoided": pgettext_lazy("event", "Slip voided"),
    "TableSessionOpened": pgettext_lazy("event", "Session opened"),
    "TableSessionClosed": pgettext_lazy("event", "Session closed"),
    "DropRecorded": pgettext_lazy("event", "Cash into the drop box"),
    "DropBoxCounted": pgettext_lazy("event", "Drop box counted"),
    "DropBoxCountConfirmed": pgettext_lazy("event", "Drop box count confirmed"),
    "RoundOpened": pgettext_lazy("event", "Round opened"),
    "RoundClosed": pgettext_lazy("event", "No more bets"),
    "RoundSettled": pgettext_lazy("event", "Round settled"),
    "RoundVoided": pgettext_lazy("event", "Round voided"),
    "BetPlaced": pgettext_lazy("event", "Bet placed"),
    "BetWithdrawn": pgettext_lazy("event", "Bet withdrawn"),
    "BetCarried": pgettext_lazy("event", "Bet carried to the next roll"),
    "BetSettled": pgettext_lazy("event", "Bet settled"),
    "BettingClosed": pgettext_lazy("event", "No more bets"),
    "CardsDealt": pgettext_lazy("event", "Cards dealt"),
    "DecisionRecorded": pgettext_lazy("event", "Player's decision"),
    "OutcomeRecorded": pgettext_lazy("event", "Outcome recorded"),
    "RoundCorrected": pgettext_lazy("event", "Round corrected"),
    "DropCounted": pgettext_lazy("event", "Drop counted"),
    "TableVarianceApproved": pgettext_lazy("event", "Table variance approved"),
    "DropVarianceApproved": pgettext_lazy("event", "Drop variance approved"),
    "ApprovalWithdrawn": pgettext_lazy("event", "Approval request withdrawn"),
    "ApprovalRequested": pgettext_lazy("event", "Approval asked for"),
    "ApprovalGranted": pgettext_lazy("event", "Approved"),
    "ApprovalRefused": pgettext_lazy("event", "Approval refused"),
    # the tips and the exchange at the cage (issue 39)
    "TipBoxCountConfirmed": pgettext_lazy("event", "Tip box counted"),
    "TipMisplacementCorrected": pgettext_lazy("event", "Misplaced tip or drop corrected"),
    "TipsDistributed": pgettext_lazy("event", "Tips distributed"),
    "ExchangeDeskOpened": pgettext_lazy("event", "Exchange desk opened"),
    "ForeignCashBought": pgettext_lazy("event", "Foreign notes bought"),
    "ForeignCashSold": pgettext_lazy("event", "Foreign notes sold"),
    "ForeignCashRevalued": pgettext_lazy("event", "Foreign notes revalued"),
    # the poker room (issue 38)
    "PokerTableOpened": pgettext_lazy("event", "Poker table opened"),
    "PokerPlayerSeated": pgettext_lazy("event", "Player seated"),
    "PokerPlayerLeft": pgettext_lazy("event", "Player left the table"),
    "PokerWaitlistJoined": pgettext_lazy("event", "Joined the waiting list"),
    "PokerWaitlistLeft": pgettext_lazy("event", "Left the waiting list"),
    "PokerChipsBought": pgettext_lazy("event", "Chips bought at a poker table"),
    "PokerHandRecorded": pgettext_lazy("event", "Poker hand recorded"),
    "PokerTimeCharged": pgettext_lazy("event", "Time charge collected"),
    "RakeBoxCounted": pgettext_lazy("event", "Rake box counted"),
    "ChemmyCoupSettled": pgettext_lazy("event", "Chemin de fer coup settled"),
    "TournamentAnnounced": pgettext_lazy("event", "Tournament announced"),
    "TournamentEntered": pgettext_lazy("event", "Tournament entry"),
    "TournamentStarted": pgettext_lazy("event", "Tournament started"),
    "TournamentChipsBought": pgettext_lazy("event", "Tournament re-buy or add-on"),
    "TournamentPlayerEliminated": pgettext_lazy("event", "Player eliminated"),
    "TournamentFinished": pgettext_lazy("event", "Tournament finished"),
    "TournamentPrizePaid": pgettext_lazy("event", "Tournament prize paid"),
}

# the fields of events, as a history says them (``shell.web.history``; the fields it leaves
# out, and why, are in its ``NOT_SHOWN``)
FIELDS: Mapping[str, Promise] = {
    "window": pgettext_lazy("field", "Cage"),
    "payment": pgettext_lazy("field", "Payment"),
    "cheque_number": pgettext_lazy("field", "Cheque number"),
    "table": pgettext_lazy("field", "Table"),
    "game": pgettext_lazy("field", "Game"),
    "gaming_day": pgettext_lazy("field", "Gaming day"),
    "booked_day": pgettext_lazy("field", "Booked in the gaming day"),
    "kind": pgettext_lazy("field", "Kind"),
    "name": pgettext_lazy("field", "Name"),
    "code": pgettext_lazy("field", "Code"),
    "number": pgettext_lazy("field", "Number"),
    "basis": pgettext_lazy("field", "Opened on"),
    "slip": pgettext_lazy("field", "Slip"),
    "amount": pgettext_lazy("field", "Amount"),
    "chip_set": pgettext_lazy("field", "Chip set"),
    "chips": pgettext_lazy("field", "Chips"),
    "cash": pgettext_lazy("field", "Cash"),
    "change": pgettext_lazy("field", "Change given"),
    "cash_value": pgettext_lazy("field", "Cash value"),
    "minimum_cash": pgettext_lazy("field", "Minimum cash"),
    "opening": pgettext_lazy("field", "Opening count"),
    "opening_amount": pgettext_lazy("field", "Opening amount"),
    "closing": pgettext_lazy("field", "Closing count"),
    "closing_amount": pgettext_lazy("field", "Closing amount"),
    "previous_closing": pgettext_lazy("field", "Previous closing count"),
    "counted": pgettext_lazy("field", "Counted"),
    "counted_amount": pgettext_lazy("field", "Counted amount"),
    "counted_by": pgettext_lazy("field", "Counted by"),
    "count_number": pgettext_lazy("field", "Count"),
    "roll_difference": pgettext_lazy("field", "Difference from the previous closing count"),
    "variance_cash": pgettext_lazy("field", "Variance in cash"),
    "variance_chips": pgettext_lazy("field", "Variance in chips"),
    "variance_value": pgettext_lazy("field", "Variance value"),
    "from_window": pgettext_lazy("field", "From"),
    "to_window": pgettext_lazy("field", "To"),
    "direction": pgettext_lazy("field", "Direction"),
    "reason": pgettext_lazy("field", "Reason"),
    "reason_code": pgettext_lazy("field", "Reason"),
    "explanation": pgettext_lazy("field", "Explanation"),
    "note": pgettext_lazy("field", "Note"),
    "summary": pgettext_lazy("field", "Summary"),
    "subject": pgettext_lazy("field", "Subject"),
    "reference": pgettext_lazy("field", "Reference"),
    "requested_by": pgettext_lazy("field", "Asked by"),
    "stage": pgettext_lazy("field", "Stage"),
    "seat": pgettext_lazy("field", "Seat"),
    "player": pgettext_lazy("field", "Player"),
    "mark": pgettext_lazy("field", "Player's mark"),
    "outcome": pgettext_lazy("field", "Outcome"),
    "point": pgettext_lazy("field", "Point"),
    "point_after": pgettext_lazy("field", "Point after the roll"),
    "winner": pgettext_lazy("field", "Winner"),
    "handle": pgettext_lazy("field", "Handle"),
    "result": pgettext_lazy("field", "Result"),
    "result_delta": pgettext_lazy("field", "Change of the result"),
    "prizes": pgettext_lazy("field", "Jackpot prizes"),
    "pool_id": pgettext_lazy("field", "Jackpot"),
    "after_close": pgettext_lazy("field", "After the session's close"),
    "correction": pgettext_lazy("field", "A correction"),
    "drop_count_room": pgettext_lazy("field", "Drop counted in the count room"),
    "bet_type": pgettext_lazy("field", "Bet"),
    "stake": pgettext_lazy("field", "Stake"),
    "win": pgettext_lazy("field", "Won"),
    "capped_win": pgettext_lazy("field", "Won, within the table's cap"),
    "returned": pgettext_lazy("field", "Returned to the player"),
    "status": pgettext_lazy("field", "Status"),
    "carried": pgettext_lazy("field", "Carried to the next roll"),
    "decision": pgettext_lazy("field", "Decision"),
    "hand": pgettext_lazy("field", "Hand"),
    "cards": pgettext_lazy("field", "Cards"),
    "upcard": pgettext_lazy("field", "Dealer's upcard"),
    "variance": pgettext_lazy("field", "Variance"),
    "mistake_by": pgettext_lazy("field", "Whose mistake"),
    # the tips and the exchange at the cage (issue 39)
    "box": pgettext_lazy("field", "Tip box"),
    "currency": pgettext_lazy("field", "Currency"),
    "reported_by": pgettext_lazy("field", "Reported by"),
    "period": pgettext_lazy("field", "Period"),
    "first_day": pgettext_lazy("field", "First gaming day"),
    "last_day": pgettext_lazy("field", "Last gaming day"),
    "total": pgettext_lazy("field", "Total"),
    "boxes": pgettext_lazy("field", "In the tip boxes"),
    "corrections": pgettext_lazy("field", "Corrections"),
    "fund_percent": pgettext_lazy("field", "Fund's share (%)"),
    "fund": pgettext_lazy("field", "To the fund"),
    "staff": pgettext_lazy("field", "To the staff"),
    "categories": pgettext_lazy("field", "By category"),
    "shares": pgettext_lazy("field", "By person"),
    "source": pgettext_lazy("field", "Rule"),
    "book_currency": pgettext_lazy("field", "Book currency"),
    "foreign": pgettext_lazy("field", "Foreign amount"),
    "foreign_variance": pgettext_lazy("field", "Variance in foreign notes"),
    "rate": pgettext_lazy("field", "Rate"),
    "rate_approval_id": pgettext_lazy("field", "Rate's approval"),
    "mid": pgettext_lazy("field", "Middle rate"),
    "paid": pgettext_lazy("field", "Paid"),
    "received": pgettext_lazy("field", "Received"),
    "book_value": pgettext_lazy("field", "Book value"),
    "holding": pgettext_lazy("field", "Held"),
    "book_before": pgettext_lazy("field", "Book value before"),
    "book_after": pgettext_lazy("field", "Book value after"),
    "difference": pgettext_lazy("field", "Difference"),
    "correction_id": pgettext_lazy("field", "Correction"),
    "deal_id": pgettext_lazy("field", "Deal"),
}

# jackpot combinations (``jackpots.rules.COMBINATIONS``)
COMBINATIONS: Mapping[str, Promise] = {
    "two_aces": pgettext_lazy("combination", "Two aces"),
    "two_aces_suited": pgettext_lazy("combination", "Two aces of one suit"),
    "three_aces": pgettext_lazy("combination", "Three aces"),
    "three_aces_suited": pgettext_lazy("combination", "Three aces of one suit"),
    "four_aces": pgettext_lazy("combination", "Four aces"),
    "four_aces_suited": pgettext_lazy("combination", "Four aces of one suit"),
    "three_of_a_kind": pgettext_lazy("combination", "Three of a kind"),
    "straight": pgettext_lazy("combination", "Straight"),
    "flush": pgettext_lazy("combination", "Flush"),
    "full_house": pgettext_lazy("combination", "Full house"),
    "four_of_a_kind": pgettext_lazy("combination", "Four of a kind"),
    "straight_flush": pgettext_lazy("combination", "Straight flush"),
    "royal_flush": pgettext_lazy("combination", "Royal flush"),
}

# How a movement was paid (cage.services.transactions).
PAYMENTS: Mapping[str, Promise] = {
    "cash": pgettext_lazy("payment", "Cash"),
    "card": pgettext_lazy("payment", "Card"),
    "cheque": pgettext_lazy("payment", "Patron's cheque"),
    "casino_cheque": pgettext_lazy("payment", "Casino cheque (nominative, crossed)"),
}

# The house's charge at a table of the poker room (pokerroom.rules.rake; CF-6).
CHARGES: Mapping[str, Promise] = {
    "rake": pgettext_lazy("charge", "Rake on each pot"),
    "time_charge": pgettext_lazy("charge", "Charge per time of play"),
    "commission": pgettext_lazy("charge", "Commission on the banker's winnings"),
}

# The slot floor's meters (the SAS/G2S meter set: machines.meters; docs/machines.md).
METERS: Mapping[str, Promise] = {
    "coin_in": pgettext_lazy("meter", "Coin in"),
    "coin_out": pgettext_lazy("meter", "Coin out"),
    "jackpots": pgettext_lazy("meter", "Jackpots paid by hand"),
    "cancelled_credits": pgettext_lazy("meter", "Cancelled credits"),
    "bills_in": pgettext_lazy("meter", "Bills in"),
    "tickets_in": pgettext_lazy("meter", "Tickets in"),
    "tickets_out": pgettext_lazy("meter", "Tickets out"),
    "progressive_contributions": pgettext_lazy("meter", "Progressive contributions"),
    "games_played": pgettext_lazy("meter", "Games played"),
}

KINDS: Mapping[str, Mapping[str, Promise]] = {
    "game": GAMES, "status": STATUSES, "slip": SLIPS, "role": ROLES, "outcome": OUTCOMES,
    "event": EVENTS, "combination": COMBINATIONS, "field": FIELDS, "payment": PAYMENTS,
    "charge": CHARGES, "meter": METERS,
}


def label(kind: str, code: object) -> str:
    """The person's word for ``code`` of ``kind``; the code itself when none is known."""
    text = "" if code is None else str(code)
    found = KINDS.get(kind, {}).get(text)
    return str(found) if found is not None else text


def account_name(account: Any) -> str:
    """An account's name in the active language (the chart keeps ``name`` and ``name_pt``)."""
    language = (get_language() or "en").lower()
    name_pt = getattr(account, "name_pt", None)
    if name_pt is None and isinstance(account, Mapping):
        name_pt = account.get("name_pt")
    name = getattr(account, "name", None)
    if name is None and isinstance(account, Mapping):
        name = account.get("name")
    if language.startswith("pt") and name_pt:
        return str(name_pt)
    return str(name or "")
