"""What each movement of a shift refers to, in the reader's language (the shift screen's
"Reference" column), from the movement's event data; the projection's English reference is
the fallback for anything not listed here."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from edge.web.labels import label

PAYMENTS = {
    "cash": gettext_lazy("paid in cash"), "card": gettext_lazy("paid by card"),
    "cheque": gettext_lazy("paid by the patron's cheque"),
    "casino_cheque": gettext_lazy("paid by a casino cheque"),
}

BASES = {
    "previous_count": gettext_lazy("previous closing count"),
    "blind_count": gettext_lazy("blind count"),
    "disputed": gettext_lazy("opening disputed"),
}


def said(entry: Any) -> str:
    d = entry.details or {}
    t = entry.event_type
    try:
        if t == "ShiftOpened":
            return str(BASES.get(d.get("basis", ""), entry.reference))
        if t in ("ChipsSold", "ChipsRedeemed"):  # how it was paid, and to whom (a reference)
            how = str(PAYMENTS.get(d.get("payment") or "cash", d.get("payment")))
            patron = d.get("patron_id") or ""
            return (_("%(how)s · patron %(patron)s") % {"how": how, "patron": patron[:8]}
                    if patron else how)
        if t == "FillIssued":
            return _("fill %(slip)s to table %(table)s") % d
        if t == "CreditReceived":
            return _("credit %(slip)s from table %(table)s") % d
        if t == "SlipRefused":
            return _("%(kind)s %(slip)s refused: %(reason)s") % {
                **d, "kind": label("slip", d.get("kind"))}
        if t == "TransferSent":
            return _("to %(cage)s") % {"cage": d["to_window"]}
        if t == "TransferReceived":
            return _("from %(cage)s") % {"cage": d["from_window"]}
        if t == "JackpotPaid":
            return _("jackpot %(pool)s, round %(round)s") % {"pool": d["pool_id"],
                                                            "round": d["round_id"]}
        if t == "DropBoxReceived":
            return _("drop box of table %(table)s") % d
        if t == "CageCashFellBelowMinimum":
            return _("cash below the minimum")
        if t == "CageCashRestoredAboveMinimum":
            return _("cash back above the minimum")
        if t == "ShiftCounted":
            return _("count %(n)s") % {"n": d["count_number"]}
        if t == "VarianceExplained":
            return _("count %(n)s explained") % {"n": d["count_number"]}
        if t == "VarianceApproved":
            return _("count %(n)s approved") % {"n": d["count_number"]}
        if t == "VarianceRefused":
            return _("count %(n)s refused: %(note)s") % {"n": d["count_number"],
                                                        "note": d.get("note", "")}
        if t == "ShiftClosed":  # its entry keeps the variance only: the number is in the text
            number = re.fullmatch(r"closed on count (\d+)", entry.reference or "")
            if number:
                return _("closed on count %(n)s") % {"n": number.group(1)}
    except (KeyError, TypeError):
        pass
    return str(entry.reference)
