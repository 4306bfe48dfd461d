"""The approvals screen: what awaits a second person's approval in one casino, with the
request's reason, words and figures, and the buttons to approve, refuse or withdraw it.

Requests are made from the screens of the thing they change (a round, a slip, a meter); this
page is where the second person decides. A refusal of the decision itself (your own request,
a role that may not approve) is shown on the page, with nothing recorded.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError
from casino.models import Approval, Casino, Role
from casino.selectors import approval_list, casino_codes_for, roles_in
from casino.services import approvals as service
from edge.web.acting import command_metadata
from edge.web.refusals import refusal_text


def _role_in(held: set[str], wanted: Iterable[str]) -> str:
    for role in sorted(wanted):
        if role in held:
            return role
    return ""


@login_required
@require_http_methods(["GET", "POST"])
def approvals(request: HttpRequest, casino: str) -> HttpResponse:
    if casino not in casino_codes_for(request.user, *Role):
        raise PermissionDenied
    the_casino = get_object_or_404(Casino, code=casino)
    held = roles_in(request.user, casino)
    error = ""
    if request.method == "POST":
        error = _decide(request, casino, held)
        if not error:
            return redirect("approvals", casino=casino)
    pending = []
    for approval in approval_list(casino=casino, status="requested"):
        procedure = service.PROCEDURES.get(approval.kind)
        kind = procedure.kind if procedure else None
        pending.append({
            "approval": approval, "summary": service.approval_said(approval),
            "label": kind.label if kind else approval.kind,
            "reason": kind.reason(approval.reason).label if kind else approval.reason,
            "may_decide": bool(kind and _role_in(held, kind.approve_roles)
                               and approval.requested_by != request.user.get_username()),
            "own": approval.requested_by == request.user.get_username(),
        })
    decided = [(a, service.approval_said(a))
               for a in approval_list(casino=casino).exclude(status="requested")[:50]]
    return render(request, "casino/approvals.html", {
        "casino": the_casino, "pending": pending, "decided": decided, "error": error,
        "key": uuid.uuid4().hex})


def _decide(request: HttpRequest, casino: str, held: set[str]) -> str:
    """Record the posted decision; the refusal's text, or "" when recorded."""
    action = request.POST.get("action", "")
    approval_id = request.POST.get("approval", "")
    note = request.POST.get("note", "")
    try:
        approval = Approval.objects.filter(id=uuid.UUID(approval_id),
                                                   casino_id=casino).first()
    except ValueError:
        approval = None
    if approval is None or action not in ("grant", "refuse", "withdraw"):
        return _("This form is not one of this page's: reload the page.")
    kind = service.procedure_of(approval.kind).kind
    roles = sorted(kind.approve_roles) if action != "withdraw" else []
    # a role that may decide, else any held (the service refuses it on the page, saying which
    # roles may: never a 403; the page is reached with one role at least)
    metadata = command_metadata(request, casino, [*roles, *sorted(held)], held=held)
    try:
        if action == "grant":
            service.approval_grant(approval_id=approval_id, note=note, metadata=metadata)
            messages.success(request, _("Approved and recorded."))
        elif action == "refuse":
            service.approval_refuse(approval_id=approval_id, note=note, metadata=metadata)
            messages.success(request, _("Refused."))
        else:
            service.approval_withdraw(approval_id=approval_id, note=note, metadata=metadata)
            messages.success(request, _("Withdrawn."))
    except DomainError as refusal:
        return refusal_text(refusal)
    return ""
