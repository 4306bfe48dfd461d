"""The history of any recorded thing: its events, who recorded each, in which role, when.

``/history/<casino>/<kind>/<id>/``: ``kind`` is the stream's type (a shift, a table session, a
round, a drop box, a cage, a table, a jackpot pool, a chip set, an approval, a seal), ``id`` its
id (for the kinds named within a casino, the code). The events are read through the upcasters.
What each event carried is shown to those who see a shift's expected figures (a cashier counting
blind sees who, what and when only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from casino.eventstore.store import read_stream
from casino.models import Casino, Membership, Role

from .labels import label

# stream types, and whether the id is a code within the casino (``cage/<casino>.<code>``)
KINDS = {"shift": False, "table_session": False, "round": False, "drop_box": False,
         "approval": False, "cage": True, "table": True, "jackpot": True, "chipset": True,
         "seal": True}
SEES_DETAILS = {Role.CAGE_SUPERVISOR, Role.PIT_BOSS, Role.ACCOUNTANT, Role.REGULATOR,
                Role.ADMINISTRATOR}


@dataclass(frozen=True)
class Line:
    version: int
    what: str
    who: str
    role: str
    when: Any
    details: list[tuple[str, str]]


def _details(data: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for key, value in data.items():
        if value in (None, "", [], {}):
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        out.append((key.replace("_", " "), str(value)))
    return out


@login_required
def history(request: HttpRequest, casino: str, kind: str, ident: str) -> HttpResponse:
    the_casino = Casino.objects.filter(code=casino).first()
    if the_casino is None or kind not in KINDS:
        raise Http404(_("there is no such thing to show the history of"))
    held = set(Membership.objects.filter(user_id=int(request.user.pk or 0), casino_id=casino)
               .values_list("role", flat=True))
    superuser = bool(getattr(request.user, "is_superuser", False))
    if not held and not superuser:
        raise PermissionDenied(_("you hold no role in this casino"))
    stream = f"{kind}/{casino}.{ident}" if KINDS[kind] else f"{kind}/{ident}"
    events = [e for e in read_stream(stream)
              if (e.metadata or {}).get("casino", casino) == casino]
    if not events:
        raise Http404(_("nothing is recorded under this reference"))
    details = superuser or bool(held & SEES_DETAILS)
    lines = [Line(version=e.version, what=label("event", e.event_type),
                  who=str((e.metadata or {}).get("actor", "")),
                  role=label("role", (e.metadata or {}).get("role", "")),
                  when=e.recorded_at,
                  details=_details(e.event.to_data()) if details else [])
             for e in events]
    return render(request, "casino/history.html", {
        "casino": the_casino, "kind": kind, "ident": ident, "lines": lines,
        "details": details})
