"""The cage terminal's movements: one at a time, chosen by a button or its key.

A window's cashier serves a queue: a sale, a redemption, the pit's fills and credits, a jackpot
payout, a transfer, an adjustment, a drop box from the count room. The vault adds chips put into
service or taken out of it (a cage supervisor's). The page draws the chosen movement's form only
(``?m=sell``); after a movement is recorded the same one is chosen again, for the next in the
queue, with its receipt at hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ..models import CageKind


@dataclass(frozen=True)
class Movement:
    code: str  # the form's ``m``
    label: Promise
    key: str  # the key that chooses it (a letter, also the button's accesskey)


WINDOW = (
    Movement("sell", _("Sale"), "s"), Movement("redeem", _("Redemption"), "r"),
    Movement("fill", _("Fill"), "f"), Movement("credit", _("Credit"), "c"),
    Movement("jackpot", _("Jackpot payout"), "p"), Movement("transfer", _("Transfer"), "t"),
    Movement("adjust", _("Adjustment"), "a"), Movement("drop", _("Drop box"), "d"),
)
VAULT = (
    Movement("transfer", _("Transfer"), "t"), Movement("adjust", _("Adjustment"), "a"),
)
VAULT_SUPERVISOR = (
    Movement("into_service", _("Chips into service"), "i"),
    Movement("out_of_service", _("Chips out of service"), "o"),
)

# The movements list's filter: a kind of movement and the events it shows.
KINDS = (
    ("sale", _("Sales"), ("ChipsSold",)), ("redemption", _("Redemptions"), ("ChipsRedeemed",)),
    ("fill", _("Fills"), ("FillIssued",)), ("credit", _("Credits"), ("CreditReceived",)),
    ("payout", _("Jackpot payouts"), ("JackpotPaid",)),
    ("transfer", _("Transfers"), ("TransferSent", "TransferReceived")),
    ("adjustment", _("Adjustments"), ("AdjustmentRequested", "AdjustmentApproved",
                                      "AdjustmentRejected")),
    ("drop", _("Drop boxes"), ("DropBoxReceived",)),
    ("refused", _("Slips refused"), ("SlipRefused",)),
)


def movements(shift: Any, supervisor: bool) -> tuple[Movement, ...]:
    if shift.cage_kind == CageKind.VAULT:
        return (VAULT_SUPERVISOR if supervisor else ()) + VAULT
    return WINDOW


def chosen(code: object, offered: tuple[Movement, ...]) -> str:
    """The movement asked for, if offered here; else the first (a sale at a window)."""
    codes = [m.code for m in offered]
    text = str(code or "")
    return text if text in codes else (codes[0] if codes else "")


# The movement a form belongs to when it does not say (``m``): by its action.
_BY_ACTION = {"fill": "fill", "credit": "credit", "ask_late_fill": "fill"}


def refused_movement(posted: Any) -> str:
    """The movement whose form was refused, to draw it again as typed."""
    if posted.get("m"):
        return str(posted["m"])
    action = str(posted.get("action", ""))
    if action == "refuse":
        return str(posted.get("kind", ""))
    return _BY_ACTION.get(action, action)


def shown_kinds(kind: str) -> tuple[str, ...]:
    """The events of the movements list's filter ``kind`` (none: every movement)."""
    for code, _label, types in KINDS:
        if code == kind:
            return types
    return ()
