"""The patron found or registered inside a cage form (htmx), without leaving it: the cashier's
sale or redemption keeps every box as typed while only the patron's part of the form is drawn
again. Posted (the document's number never travels in a URL); a refusal is said in the patron's
part, at its field.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from casino.errors import DomainError
from casino.models import Casino
from edge.web.acting import command_metadata, require_roles
from edge.web.refusals import refusal_text

from .. import selectors
from .. import services as compliance
from ..services._common import REGISTER_ROLES

DOCUMENT = ("document_type", "document_number", "document_country")
REGISTER = ("name", "date_of_birth", "nationality", "address", "document_image")


@login_required
@require_POST
def patron_inline(request: HttpRequest, casino: str) -> HttpResponse:
    """``action``: ``find`` (by the document shown), ``register`` (and verify), ``clear``."""
    require_roles(request, casino, REGISTER_ROLES)
    the_casino = get_object_or_404(Casino, code=casino)
    p = request.POST
    form = "".join(c for c in p.get("form", "") if c.isalnum() or c == "_")[:20]
    context: dict[str, Any] = {"casino": the_casino, "form": form, "open": True,
                               "key": uuid.uuid4().hex,
                               "typed": {k: p.get(k, "") for k in DOCUMENT + REGISTER}}
    action = p.get("action", "")
    try:
        if action == "find":
            found = selectors.patron_find(casino, **{k: p.get(k, "") for k in DOCUMENT})
            if found is None:
                context["not_found"] = True
            else:
                context["patron_id"] = str(found.patron_id)
                context["patron_name"] = (selectors.patron_identity(found) or {}).get("name", "")
        elif action == "register":
            meta = command_metadata(request, casino, REGISTER_ROLES)
            done = compliance.patron_register(
                metadata=meta, place="cage", verified=p.get("verified") == "1",
                pep=p.get("pep") == "1", **{f: p.get(f, "") for f in DOCUMENT + REGISTER})
            context["patron_id"] = str(done.patron_id)
            context["patron_name"] = p.get("name", "")
            context["registered"] = True
        elif action == "clear":
            context["open"] = False
    except DomainError as error:  # said at the patron's part of the form, nothing recorded
        context["refusal"] = refusal_text(error)
        context["not_found"] = action == "register"
    return render(request, "compliance/_patron_box.html", context)
