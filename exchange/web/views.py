"""The exchange at the cage (a screen of its own, thin): the currencies accepted and their
rates, the proposals waiting for a second person, the holdings in their currency and in the
book currency, the deals; forms to post a rate, approve one, open the desk, buy and sell
foreign notes and revalue. A refusal re-renders the page with nothing recorded; a success
redirects (POST-redirect-GET)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError
from casino.models import Casino
from casino.money import CASH_DENOMINATIONS, fmt
from casino.selectors import roles_in
from edge.web.acting import command_metadata
from edge.web.refusals import refusal_text
from eventstore.records import Metadata
from exchange import selectors, services
from exchange.roles import DESK_ROLES, RATE_ROLES, READ_ROLES, REVALUE_ROLES

ACTION_ROLES: dict[str, tuple[str, ...]] = {
    "rate": RATE_ROLES, "approve": RATE_ROLES, "open": DESK_ROLES, "buy": DESK_ROLES,
    "sell": DESK_ROLES, "revalue": REVALUE_ROLES,
}


def _counts(request: HttpRequest, prefix: str) -> dict[str, object]:
    """Pieces typed one box per denomination (``<prefix>-<denomination>``); empty: none."""
    out: dict[str, object] = {}
    for name in request.POST:
        raw = request.POST.get(name, "").strip()
        if name.startswith(prefix + "-") and raw:
            out[name[len(prefix) + 1:]] = int(raw) if raw.isdigit() else raw
    return out


def _act(action: str, request: HttpRequest, metadata: Metadata) -> object:
    p = request.POST
    currency = p.get("currency", "")
    if action == "rate":
        return services.exchange_rate_post(currency=currency, mid=p.get("mid", "").strip(),
                                           spread_percent=p.get("spread_percent", "0").strip(),
                                           metadata=metadata)
    if action == "approve":
        return services.exchange_rate_approve(proposal_id=p.get("proposal_id", ""),
                                              metadata=metadata)
    if action == "open":
        return services.exchange_desk_open(cash=_counts(request, "book"), metadata=metadata)
    if action == "buy":
        return services.foreign_cash_buy(currency=currency,
                                         cash=_counts(request, f"fx-{currency}"),
                                         metadata=metadata)
    if action == "sell":
        return services.foreign_cash_sell(currency=currency,
                                          cash=_counts(request, f"fx-{currency}"),
                                          metadata=metadata)
    return services.foreign_cash_revalue(metadata=metadata)


@login_required
@require_http_methods(["GET", "POST"])
def exchange_screen(request: HttpRequest, casino: str) -> HttpResponse:
    held = roles_in(request.user, casino)
    if not held & set(READ_ROLES):
        raise PermissionDenied
    the_casino = Casino.objects.filter(code=casino).first()
    if the_casino is None:
        raise Http404(f"there is no casino {casino!r}")
    refusal = ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in ACTION_ROLES:
            raise Http404("no such action")
        metadata = command_metadata(request, casino, ACTION_ROLES[action], held=held)
        try:
            _act(action, request, metadata)
        except DomainError as error:
            refusal = refusal_text(error)
        else:
            messages.success(request, _("Recorded."))
            return redirect("exchange:desk", casino=casino)
    return render(request, "exchange/desk.html", {
        "casino": the_casino, "currencies": selectors.currency_list(casino),
        "proposals": selectors.proposals_open(casino), "desk": selectors.desk_get(casino),
        "holdings": selectors.holdings(casino), "deals": selectors.deal_list(casino)[:50],
        "rates": selectors.rate_history(casino)[:20],
        "revaluations": selectors.revaluation_list(casino)[:20],
        "book_notes": [fmt(d) for d in CASH_DENOMINATIONS[the_casino.currency]],
        "may": {"rate": bool(held & set(RATE_ROLES)), "desk": bool(held & set(DESK_ROLES)),
                "revalue": bool(held & set(REVALUE_ROLES))},
        "error": refusal, "key": uuid.uuid4().hex,
    })
