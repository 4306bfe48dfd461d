"""What a movement's receipt says (``cage.receipt_pdf``), read from the shift's entry: the
movement in words, its pieces by kind titled as the cashier counted them, and the facts a
patron keeps (their reference, how it was paid, the cheque's number)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from edge.web.labels import label
from edge.web.money import money_text

from ..receipt_pdf import ReceiptPrint, piece_groups
from .references import said

# Each movement's pieces, by the key of its event data, titled as the cashier counted them.
TITLES: dict[str, dict[str, Any]] = {
    "ChipsSold": {"cash": gettext_lazy("Cash received"), "chips": gettext_lazy("Chips given"),
                  "change": gettext_lazy("Change given")},
    "ChipsRedeemed": {"chips": gettext_lazy("Chips received"), "cash": gettext_lazy("Cash paid")},
    "JackpotPaid": {"cash": gettext_lazy("Cash paid"), "chips": gettext_lazy("Chips paid")},
    "FillIssued": {"chips": gettext_lazy("Chips sent to the table")},
    "CreditReceived": {"chips": gettext_lazy("Chips from the table")},
    "TransferSent": {"cash": gettext_lazy("Cash sent"), "chips": gettext_lazy("Chips sent")},
    "TransferReceived": {"cash": gettext_lazy("Cash received"),
                         "chips": gettext_lazy("Chips received")},
    "DropBoxReceived": {"cash": gettext_lazy("Notes and coins in the box")},
    "AdjustmentRequested": {"cash": gettext_lazy("Cash"), "chips": gettext_lazy("Chips")},
    "AdjustmentApproved": {"cash": gettext_lazy("Cash"), "chips": gettext_lazy("Chips")},
}

PAYMENTS = {"cash": gettext_lazy("Cash"), "card": gettext_lazy("Card"),
            "cheque": gettext_lazy("Patron's cheque"),
            "casino_cheque": gettext_lazy("Casino cheque (nominative, crossed)")}


def receipt_of(entry: Any, *, casino: Any, shift: Any) -> ReceiptPrint:
    d: dict[str, Any] = entry.details or {}
    facts: list[tuple[str, str]] = []
    if d.get("amount") not in (None, ""):
        facts.append((_("Amount"), money_text(d["amount"], casino.currency)))
    if d.get("patron_id"):
        facts.append((_("Patron (reference)"), str(d["patron_id"])[:8]))
    if d.get("payment"):
        facts.append((_("Payment"), str(PAYMENTS.get(d["payment"], d["payment"]))))
    if d.get("cheque_number"):
        facts.append((_("Cheque number"), str(d["cheque_number"])))
    titles = {k: str(v) for k, v in TITLES.get(entry.event_type, {}).items()}
    return ReceiptPrint(
        casino=casino.name, currency=casino.currency,
        title=label("event", entry.event_type),
        number=f"{shift.cage}-{shift.gaming_day:%Y%m%d}-{entry.version}",
        window=shift.cage, gaming_day=shift.gaming_day.isoformat(),
        when=timezone.localtime(entry.recorded_at).strftime("%Y-%m-%d %H:%M:%S"),
        cashier=entry.actor, reference=said(entry),
        amount_in=Decimal(entry.amount_in or 0), amount_out=Decimal(entry.amount_out or 0),
        groups=piece_groups(d, titles), facts=facts)
