"""The tables' approved capital (issue 34): the capital em giro inicial the gaming inspection
approved for each table, with its reference, recorded by the administrator or the accountant
(``table_approve_capital``); what a day's register reads as of the day (docs/gaming-tax.md)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError
from casino.models import Casino
from casino.selectors import roles_in
from edge.web.acting import command_metadata
from games import services
from games.models import Table, TableCapital
from games.roles import CAPITAL_ROLES, READ_ROLES

from .errors import refusal_text


@login_required
@require_http_methods(["GET", "POST"])
def capitals(request: HttpRequest, casino: str) -> HttpResponse:
    held = roles_in(request.user, casino)
    if not held & set(CAPITAL_ROLES + READ_ROLES):
        raise PermissionDenied(_("You may not read the pit of this casino."))
    the_casino = Casino.objects.get(code=casino)
    error, posted = "", {}
    if request.method == "POST":
        metadata = command_metadata(request, casino, CAPITAL_ROLES, held=held, refusal=_(
            "Recording an approved capital needs the administrator or accountant role."))
        posted = request.POST.dict()
        try:
            services.table_approve_capital(
                casino=casino, code=posted.get("table", ""), capital=posted.get("capital", ""),
                reference=posted.get("reference", ""), reason=posted.get("reason", ""),
                metadata=metadata)
        except DomainError as refused:
            error = refusal_text(refused)
        else:
            messages.success(request, _("Approved capital recorded."))
            return redirect("pit-capitals", casino=casino)
    history = list(TableCapital.objects.filter(casino=the_casino).order_by("table", "-position"))
    current = {}
    for row in reversed(history):
        current[row.table] = row
    tables = [(t, current.get(t.code)) for t in Table.objects.filter(casino=the_casino)]
    return render(request, "pit/capitals.html", {
        "casino": the_casino, "tables": tables, "history": history, "error": error,
        "posted": posted, "key": uuid.uuid4().hex, "may_record": bool(held & set(CAPITAL_ROLES))},
        status=400 if error else 200)
