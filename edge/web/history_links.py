"""Where a recorded thing's history is: the link every screen shows beside a stream
(the page itself is ``shell.web.history``)."""

from __future__ import annotations

from django.urls import reverse

# stream types, and whether the id is a code within the casino (``cage/<casino>.<code>``)
KINDS = {"shift": False, "table_session": False, "round": False, "drop_box": False,
         "approval": False, "cage": True, "table": True, "jackpot": True, "chipset": True,
         "seal": True}


def history_url(stream: str, casino: str) -> str:
    """The history page in ``casino`` of ``stream`` (``shift/<id>``, ``cage/<casino>.<code>``),
    or "" when its type has none."""
    kind, _, ident = stream.partition("/")
    if kind not in KINDS or not ident:
        return ""
    if KINDS[kind]:
        casino, _, ident = ident.partition(".")
    return reverse("history", args=[casino, kind, ident]) if casino and ident else ""
