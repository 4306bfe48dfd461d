"""The roles screen (``/roles/<casino>/``): who holds which role in one casino, and the forms
to grant and remove one. Only the casino's administrator opens it.

The rules are ``access.roles``': a cashier's, a pit boss's, an accountant's or a compliance
officer's role is granted at once; an administrator's or a cage supervisor's is asked for here
(approval kind ``role_grant``) and granted when another administrator approves it on the
approvals page. A refusal is shown on the page (400), with nothing recorded.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from access.roles import (
    CASINO_ROLES,
    FOUR_EYES_ROLES,
    ROLE_GRANT,
    role_grant,
    role_holder_list,
    role_remove,
)
from casino.errors import DomainError
from casino.models import Casino, Role
from casino.selectors import approval_list
from casino.services.approvals import approval_request, approval_said
from edge.web.acting import command_metadata, require_roles
from edge.web.refusals import refusal_text

from .navigation import ROLE_LABELS


@login_required
@require_http_methods(["GET", "POST"])
def roles(request: HttpRequest, casino: str) -> HttpResponse:
    held = require_roles(request, casino, [Role.ADMINISTRATOR])
    the_casino = get_object_or_404(Casino, code=casino)
    error = ""
    if request.method == "POST":
        error = _act(request, casino, held)
        if not error:
            return redirect("roles", casino=casino)
    choices = [(role, ROLE_LABELS.get(role, role), role in FOUR_EYES_ROLES)
               for role in sorted(CASINO_ROLES)]
    people = [(user, [(role, ROLE_LABELS.get(role, role)) for role in held_roles])
              for user, held_roles in role_holder_list(casino=casino)]
    return render(request, "casino/roles.html", {
        "casino": the_casino, "people": people, "choices": choices,
        "reasons": ROLE_GRANT.reasons, "error": error, "posted": request.POST,
        "asked": [(a, approval_said(a)) for a in approval_list(
            casino=casino, status="requested", kind=ROLE_GRANT.name)],
        "key": uuid.uuid4().hex}, status=400 if error else 200)


def _act(request: HttpRequest, casino: str, held: set[str]) -> str:
    """Record the posted grant, request or removal; the refusal's text, or "" when recorded."""
    action = request.POST.get("action", "")
    if action not in ("grant", "remove"):
        return _("This form is not one of this page's: reload the page.")
    username = request.POST.get("username", "").strip()[:150]
    user = get_user_model().objects.filter(username=username).first() if username else None
    if user is None:
        return _("There is no login “%(name)s”: type the person’s login exactly.") % {
            "name": username}
    role = request.POST.get("role", "")[:40]
    metadata = command_metadata(request, casino, [Role.ADMINISTRATOR], held=held)
    try:
        if action == "remove":
            role_remove(user_id=user.pk, role=role, metadata=metadata)
            messages.success(request, _("The role was removed."))
        elif role in FOUR_EYES_ROLES:
            approval_request(kind=ROLE_GRANT.name, subject=f"{user.pk}:{role}",
                             reason=request.POST.get("reason", ""),
                             explanation=request.POST.get("explanation", ""), metadata=metadata)
            messages.success(request, _("Asked: another administrator approves it on the "
                                        "approvals page, and the role is granted then."))
        else:
            role_grant(user_id=user.pk, role=role, metadata=metadata)
            messages.success(request, _("The role was granted."))
    except DomainError as refusal:
        return refusal_text(refusal)
    return ""
