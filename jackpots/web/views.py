"""The jackpot screens (server-rendered, thin): a casino's pools with their meters, and one pool
with its meters, its hits (what each still owes) and its meter corrections.

Reading is for the roles that read the jackpot API. A meter correction is asked for here (the
reason from the kind's list, and words) by the person logged in, in a role that may ask
(``jackpots.services.approvals.METER_CORRECTION``); nothing moves until another person approves
it on the Approvals page (``/approvals/<casino>/``). A refusal re-renders the page with what was
typed and nothing recorded; a request redirects (POST-redirect-GET).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError, NotFound
from casino.models import Casino
from casino.selectors import approval_list, roles_in
from casino.services.approvals import approval_request
from edge.web.acting import command_metadata
from edge.web.money import money_input
from edge.web.refusals import refusal_text
from jackpots import selectors
from jackpots.roles import READ_ROLES
from jackpots.services.approvals import METER_CORRECTION


def _may_read(request: HttpRequest, casino: str) -> set[str]:
    held = roles_in(request.user, casino)
    if not held & set(READ_ROLES):
        raise PermissionDenied
    return held


def _casino(code: str) -> Casino:
    found = Casino.objects.filter(code=code).first()
    if found is None:
        raise Http404(f"there is no casino {code!r}")
    return found


@login_required
def pool_list(request: HttpRequest, casino: str) -> HttpResponse:
    _may_read(request, casino)
    return render(request, "jackpots/pools.html", {
        "casino": _casino(casino), "pools": selectors.pool_list(casinos=[casino])})


@login_required
@require_http_methods(["GET", "POST"])
def pool_screen(request: HttpRequest, casino: str, pool: str) -> HttpResponse:
    held = _may_read(request, casino)
    try:
        found = selectors.pool_get(casino, pool)
    except NotFound as error:
        raise Http404(error.message) from None
    refusal, posted = "", {}
    if request.method == "POST":
        p = request.POST
        # the role in which the person asks: one the kind lets ask, else any held (the service
        # refuses it on the page, saying which roles may)
        metadata = command_metadata(
            request, casino, [*sorted(METER_CORRECTION.request_roles), *sorted(held)], held=held)
        try:
            approval_request(
                kind=METER_CORRECTION.name, subject=found.pool_id, reason=p.get("reason", ""),
                explanation=p.get("explanation", ""),
                details={"meter": p.get("meter", ""), "direction": p.get("direction", ""),
                         "amount": money_input(p.get("amount", ""))}, metadata=metadata)
        except DomainError as error:
            refusal, posted = refusal_text(error), p.dict()
        else:
            messages.success(request, _("Correction asked for: it is recorded once another "
                                        "person approves it on the Approvals page."))
            return redirect("jackpots:pool", casino=casino, pool=found.pool_id)
    context: dict[str, Any] = {
        "casino": _casino(casino), "pool": found,
        "hits": selectors.prize_list(casino, pool_id=found.pool_id)[:50],
        "corrections": approval_list(casino=casino, kind=METER_CORRECTION.name,
                                     subject=found.pool_id)[:20],
        "kind": METER_CORRECTION, "may_ask": bool(held & METER_CORRECTION.request_roles),
        "error": refusal, "posted": posted, "key": uuid.uuid4().hex,
    }
    return render(request, "jackpots/pool.html", context)
