"""API tokens (``/tokens/``): issue one (for yourself, or, as a regulator's account manager, for
an inspector of your jurisdiction), re-authenticated (your password, and your second factor
where your role asks for one), see it once, revoke it.

The rules of who may issue and revoke whose token are ``access.services``'; this view
posts one action, re-renders with the refusal, or shows the new token once.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from access.models import RegulatorAccount, TerminalAccount
from access.services import (
    DEFAULT_DAYS,
    may_manage,
    token_issue,
    token_revoke,
    tokens_managed_by,
)
from casino.errors import DomainError
from edge.web.refusals import refusal_text


def _holders(request: HttpRequest) -> list[Any]:
    """Who the person may issue a token to: themself, the inspectors they manage and, for a
    superuser, the terminals."""
    inspectors = RegulatorAccount.objects.select_related("user").order_by("user__username")
    terminals = TerminalAccount.objects.select_related("user").order_by("user__username")
    accounts: list[RegulatorAccount | TerminalAccount] = [*inspectors, *terminals]
    holders: list[Any] = [a.user for a in accounts if a.user_id != request.user.pk
                          and may_manage(request.user, a.user)]  # type: ignore[arg-type]
    return [request.user, *holders]


def reauthenticated(request: HttpRequest) -> bool:
    """Whether the person proved who they are with this very form: their password and, where
    their role asks for one, their second factor (``shell.web.second_factor``)."""
    from .second_factor import second_factor_confirms

    password = request.POST.get("password", "")
    return bool(password) and len(password) <= 1000 and request.user.check_password(
        password) and second_factor_confirms(request, request.POST.get("otp", ""))


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    issued = None
    error = ""
    if request.method == "POST":
        try:
            if "revoke" in request.POST:
                token_revoke(token_key=request.POST["revoke"], by=request.user)  # type: ignore[arg-type]
                messages.success(request, _("The token was revoked."))
                return redirect("tokens")
            holder = get_user_model().objects.filter(
                username=request.POST.get("holder", "")).first()
            if holder is None:
                raise DomainError(_("choose whom the token is for"))
            days = request.POST.get("days", "")[:6]
            issued = token_issue(holder=holder, name=request.POST.get("name", ""),
                                 days=int(days) if days.isdigit() else 0,
                                 issuer=request.user,  # type: ignore[arg-type]
                                 reauthenticated=reauthenticated(request))
        except DomainError as refusal:
            error = refusal_text(refusal)
    return render(request, "casino/tokens.html", {
        "issued": issued, "error": error, "holders": _holders(request),
        "tokens": tokens_managed_by(request.user),  # type: ignore[arg-type]
        "default_days": DEFAULT_DAYS,
    }, status=400 if error else 200)
