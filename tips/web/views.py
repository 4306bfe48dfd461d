"""The tips' screens (server-rendered, thin): the tip boxes of the last days with the count
room's two counts, the misplaced tips and drops, the periods distributed; a period's report by
category and person, and one person's shares. Each form posts one action (one service call) by
the person logged in; a refusal re-renders the page with what was typed and nothing recorded; a
success redirects (POST-redirect-GET)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError, NotFound
from casino.models import Casino
from casino.money import CASH_DENOMINATIONS, fmt, parse_amount
from casino.selectors import roles_in
from edge.web.acting import command_metadata
from edge.web.money import money_input
from edge.web.refusals import refusal_text
from eventstore.records import Metadata
from tips import selectors, services
from tips.roles import (
    CORRECTION_ROLES,
    COUNTER_ROLES,
    DISTRIBUTE_ROLES,
    DROP_ROLES,
    READ_ROLES,
)


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


def _cash(request: HttpRequest, currency: str) -> dict[str, object]:
    """The count as typed, one box per denomination (empty: none); what is not a whole number
    goes through as typed, for the service to refuse naming it."""
    out: dict[str, object] = {}
    for d in CASH_DENOMINATIONS[currency]:
        raw = request.POST.get(f"cash-{fmt(d)}", "").strip()
        if raw:
            out[fmt(d)] = int(raw) if raw.isdigit() else raw
    return out


# the form's action, and the roles that may post it
ACTION_ROLES: dict[str, tuple[str, ...]] = {
    "drop": DROP_ROLES, "count": COUNTER_ROLES, "confirm": COUNTER_ROLES,
    "report": CORRECTION_ROLES, "correct": CORRECTION_ROLES, "distribute": DISTRIBUTE_ROLES,
}


def _act(action: str, request: HttpRequest, casino: Casino, metadata: Metadata) -> object:
    """The one service the posted form's ``action`` calls."""
    p = request.POST
    if action == "drop":
        return services.tip_box_drop(place=p.get("place", ""), code=p.get("code", "").strip(),
                                     gaming_day=p.get("gaming_day", ""), metadata=metadata)
    if action == "count":
        return services.tip_box_count(gaming_day=p.get("gaming_day", ""), box=p.get("box", ""),
                                      cash=_cash(request, casino.currency), metadata=metadata)
    if action == "confirm":
        return services.tip_box_count_confirm(
            gaming_day=p.get("gaming_day", ""), box=p.get("box", ""),
            cash=_cash(request, casino.currency), metadata=metadata)
    if action == "report":
        return services.tip_misplacement_report(
            direction=p.get("direction", ""), table=p.get("table", "").strip(),
            gaming_day=p.get("gaming_day", ""),
            amount=parse_amount(money_input(p.get("amount", ""))), reason=p.get("reason", ""),
            metadata=metadata)
    if action == "correct":
        return services.tip_misplacement_confirm(correction_id=p.get("correction_id", ""),
                                                 metadata=metadata)
    return services.tip_period_distribute(period=p.get("period", "").strip(), metadata=metadata)


# the rule's period in words (``TipRule.period``: ``day`` or ``month``)
PERIODS = {"day": pgettext_lazy("tip period", "day"),
           "month": pgettext_lazy("tip period", "month")}


@login_required
@require_http_methods(["GET", "POST"])
def tips_screen(request: HttpRequest, casino: str) -> HttpResponse:
    held = _may_read(request, casino)
    the_casino = _casino(casino)
    refusal, posted = "", {}
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in ACTION_ROLES:
            raise Http404("no such action")
        metadata = command_metadata(request, casino, ACTION_ROLES[action], held=held)
        try:
            _act(action, request, the_casino, metadata)
        except DomainError as error:
            refusal, posted = refusal_text(error), request.POST.dict()
        else:
            messages.success(request, _("Recorded."))
            return redirect("tips:tips", casino=casino)
    rule = selectors.rule_get(casino)
    return render(request, "tips/tips.html", {
        "casino": the_casino, "rule": rule,
        "rule_period": PERIODS.get(rule.period, rule.period) if rule else "",
        "boxes": selectors.box_list(casino)[:100],
        "corrections": selectors.correction_list(casino)[:50],
        "periods": selectors.period_list(casino)[:24], "staff": selectors.staff_list(casino),
        "held_now": selectors.tips_held(casino),
        "denominations": [fmt(d) for d in CASH_DENOMINATIONS[the_casino.currency]],
        "may": {name: bool(held & set(roles)) for name, roles in (
            ("drop", DROP_ROLES), ("count", COUNTER_ROLES), ("correct", CORRECTION_ROLES),
            ("distribute", DISTRIBUTE_ROLES))},
        "error": refusal, "posted": posted, "key": uuid.uuid4().hex,
    })


@login_required
def period_screen(request: HttpRequest, casino: str, period: str) -> HttpResponse:
    _may_read(request, casino)
    try:
        report = selectors.period_get(casino, period)
    except NotFound as error:
        raise Http404(error.message) from None
    return render(request, "tips/period.html", {"casino": _casino(casino), "report": report})


@login_required
def person_screen(request: HttpRequest, casino: str, staff: str) -> HttpResponse:
    _may_read(request, casino)
    try:
        rows = selectors.person_shares(casino, staff)
    except NotFound as error:
        raise Http404(error.message) from None
    return render(request, "tips/person.html", {"casino": _casino(casino), "staff": staff,
                                                "rows": rows})
