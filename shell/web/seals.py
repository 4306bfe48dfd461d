"""The seals screen: each sealed gaming day of a casino, with what its seal signs, and the
public key the regulator checks it with (``docs/event-hash.md``). Read-only: a seal is made by
the gaming-day close, never by hand."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from casino.errors import DomainError
from casino.models import Casino
from casino.selectors import casino_codes_for, seal_list
from edge.web.refusals import refusal_text
from reporting.seals import seal_public_key

from .navigation import LEDGER_ROLES


def _readable(request: HttpRequest, casino: str) -> Casino:
    if casino not in casino_codes_for(request.user, *LEDGER_ROLES):
        raise PermissionDenied
    return get_object_or_404(Casino, code=casino)


@login_required
@require_GET
def seals(request: HttpRequest, casino: str) -> HttpResponse:
    the_casino = _readable(request, casino)
    try:
        published, key_error = seal_public_key(casino), ""
    except DomainError as error:
        published, key_error = None, refusal_text(error)
    # a day's archive: a regulator's inspector reads it through the regulator's API, the
    # casino's staff through the casino's (each is refused on the other's)
    inspector = hasattr(request.user, "regulator_account")
    return render(request, "casino/seals.html", {
        "casino": the_casino, "seals": seal_list(casino=casino).order_by("-gaming_day"),
        "published": published, "key_error": key_error, "inspector": inspector})


@login_required
@require_GET
def seal_key(request: HttpRequest, casino: str) -> HttpResponse:
    """The public key as a PEM file (what ``manage.py export_seal_key`` writes)."""
    _readable(request, casino)
    try:
        published = seal_public_key(casino)
    except DomainError as error:
        return HttpResponse(refusal_text(error), status=409, content_type="text/plain")
    response = HttpResponse(published.public_key, content_type="application/x-pem-file")
    response["Content-Disposition"] = f'attachment; filename="{casino}-seal-key.pem"'
    return response
