"""The cage's write side: every public service is a command (``@command``), takes keyword
arguments and a ``metadata`` (who acts, in which role and casino, with which idempotency key),
and returns the command's answer (a retry with the same key gets the first answer back)."""

from . import approvals  # (registers the cage's kinds of approval)
from .cages import cage_configure, cage_minimum_cash_change
from .days import gaming_day_chips_record
from .shifts import (
    shift_close,
    shift_count,
    shift_open,
    shift_opening_dispute,
    shift_opening_dispute_resolve,
    variance_approve,
    variance_explain,
    variance_refuse,
)
from .slips import credit_receive, fill_issue, slip_refuse
from .transactions import (
    adjustment_approve,
    adjustment_reject,
    adjustment_request,
    chips_put_into_service,
    chips_redeem,
    chips_sell,
    chips_take_out_of_service,
    drop_box_receive,
    transfer_send,
)

__all__ = [
    "adjustment_approve",
    "adjustment_reject",
    "adjustment_request",
    "approvals",
    "cage_configure",
    "cage_minimum_cash_change",
    "chips_put_into_service",
    "chips_redeem",
    "chips_sell",
    "chips_take_out_of_service",
    "credit_receive",
    "drop_box_receive",
    "fill_issue",
    "gaming_day_chips_record",
    "shift_close",
    "shift_count",
    "shift_open",
    "shift_opening_dispute",
    "shift_opening_dispute_resolve",
    "slip_refuse",
    "transfer_send",
    "variance_approve",
    "variance_explain",
    "variance_refuse",
]
