"""The pit's services (writes). Each is a command (``eventstore.commands.command``: one transaction), takes ``metadata``
and records events; retried with the same idempotency key, it records nothing twice and answers
as at first, even when the state has moved on since (the session closed, the round settled).

Importing the package registers the pit's four-eyes kinds (``count_room.DROP_VARIANCE``).
"""

from . import approvals
from .count_room import drop_box_count, drop_box_count_confirm
from .rounds import (
    bet_place,
    bet_withdraw,
    deal_record,
    decision_record,
    jackpot_bet_place,
    outcome_record,
    round_close_betting,
    round_correct,
    round_open,
    round_record,
    round_settle,
    round_void,
)
from .sessions import (
    colour_chips_exchange,
    colour_chips_issue,
    credit_request,
    drop_record,
    fill_request,
    slip_void,
    table_session_close,
    table_session_open,
)
from .table_currency import table_change_currency
from .tables import (
    drop_definition_set,
    table_approve_capital,
    table_change_limits,
    table_change_options,
    table_change_tax_class,
    table_configure,
)

__all__ = [
    "approvals",
    "bet_place",
    "bet_withdraw",
    "colour_chips_exchange",
    "colour_chips_issue",
    "credit_request",
    "deal_record",
    "decision_record",
    "drop_box_count",
    "drop_box_count_confirm",
    "drop_definition_set",
    "drop_record",
    "fill_request",
    "jackpot_bet_place",
    "outcome_record",
    "round_close_betting",
    "round_correct",
    "round_open",
    "round_record",
    "round_settle",
    "round_void",
    "slip_void",
    "table_approve_capital",
    "table_change_currency",
    "table_change_limits",
    "table_change_options",
    "table_change_tax_class",
    "table_configure",
    "table_session_close",
    "table_session_open",
]
