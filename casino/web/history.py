"""The history of any recorded thing: its events, who recorded each, in which role, when.

``/history/<casino>/<kind>/<id>/``: ``kind`` is the stream's type (a shift, a table session, a
round, a drop box, a cage, a table, a jackpot pool, a chip set, an approval, a seal), ``id`` its
id (for the kinds named within a casino, the code). The events are read through the upcasters.
What each event carried stays on the screens of the thing itself (a shift's figures are for those
who may see them: a cashier counting blind does not), and in the regulator's API.
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
from casino.models import Casino, Membership

from .labels import label

# stream types, and whether the id is a code within the casino (``cage/<casino>.<code>``)
KINDS = {"shift": False, "table_session": False, "round": False, "drop_box": False,
         "approval": False, "cage": True, "table": True, "jackpot": True, "chipset": True,
         "seal": True}


@dataclass(frozen=True)
class Line:
    version: int
    what: str
    who: str
    role: str
    when: Any


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
    lines = [Line(version=e.version, what=label("event", e.event_type),
                  who=str((e.metadata or {}).get("actor", "")),
                  role=label("role", (e.metadata or {}).get("role", "")),
                  when=e.recorded_at)
             for e in events]
    return render(request, "casino/history.html", {
        "casino": the_casino, "kind": kind, "ident": ident, "lines": lines})
