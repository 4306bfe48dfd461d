"""The compliance officer's screens (alerts, suspicious-transaction reports and their workflow,
patrons) and the cage's patron picker. A page posts one action, re-renders with the refusal and
nothing recorded, or redirects. The cage sees only the picker: never an alert or a report (no
tipping off)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError, InvalidCommand, NotFound
from casino.models import Casino
from casino.services.approvals import approval_request
from edge.web.acting import command_metadata, require_roles
from edge.web.money import money_input
from edge.web.refusals import refusal_text
from eventstore import clock

from .. import names, selectors
from .. import services as compliance
from ..models import LinkingPeriod, ReportStatus
from ..services import linking
from ..services._common import COMPLIANCE_ROLES, REGISTER_ROLES
from ..services.corrections import FIELDS as CORRECTION_FIELDS
from ..services.corrections import PATRON_CORRECTION
from ..services.diligence import PEP_MOVEMENT
from ..services.patrons import DOCUMENT_TYPES

# The patron's fields a correction names, as the patron's page shows them.
A = TypeVar("A")  # a service's answer

FIELD_WORDS = {
    "name": pgettext_lazy("patron", "Name"), "document_type": pgettext_lazy("patron", "Document type"),
    "document_number": pgettext_lazy("patron", "Document number"),
    "document_country": pgettext_lazy("patron", "Country of the document"),
    "date_of_birth": pgettext_lazy("patron", "Date of birth"),
    "nationality": pgettext_lazy("patron", "Nationality"), "address": pgettext_lazy("patron", "Address"),
    "pep": pgettext_lazy("patron", "Politically exposed person"),
    "document_image": pgettext_lazy("patron", "Document image"),
}


def _run(request: HttpRequest, action: Callable[[], A], done: str) -> A | None:
    try:
        result = action()
    except DomainError as error:
        messages.error(request, refusal_text(error))
        return None
    messages.success(request, done)
    return result


def _found(read: Callable[[], Any]) -> Any:
    try:
        return read()
    except (NotFound, InvalidCommand) as error:
        raise Http404(error.message) from None


def _page(request: HttpRequest, template: str, casino: Casino, **context: Any) -> HttpResponse:
    return render(request, template, {"casino": casino, "key": uuid.uuid4().hex, **context})


@login_required
@require_http_methods(["GET"])
def alerts(request: HttpRequest, casino: str) -> HttpResponse:
    require_roles(request, casino, COMPLIANCE_ROLES)
    the_casino = get_object_or_404(Casino, code=casino)
    day = request.GET.get("day") or None
    found = _found(lambda: selectors.alert_list(
        casino, day=selectors.day_of(day) if day else None,
        kind=request.GET.get("kind", ""), status=request.GET.get("status", "")))
    return _page(request, "compliance/alerts.html", the_casino, alerts=names.shown(found[:200]),
                 day=day)


@login_required
@require_http_methods(["GET", "POST"])
def reports(request: HttpRequest, casino: str) -> HttpResponse:
    require_roles(request, casino, COMPLIANCE_ROLES)
    the_casino = get_object_or_404(Casino, code=casino)
    if request.method == "POST":
        meta = command_metadata(request, casino, COMPLIANCE_ROLES)
        done = _run(request, lambda: compliance.suspicious_report_draft(
            alert_ids=request.POST.getlist("alert_ids"),
            narrative=request.POST.get("narrative", ""), metadata=meta),
            _("suspicious-transaction report drafted"))
        if done is not None:
            return redirect("compliance:report", casino=casino, report=done.report_id)
        return redirect("compliance:alerts", casino=casino)
    listed = names.shown(selectors.report_list(casino)[:200])
    dues = selectors.report_dues(the_casino, listed)
    for r in listed:
        r.due = dues[r.report_id]
    return _page(request, "compliance/reports.html", the_casino, reports=listed,
                 deadline=next(iter(dues.values()), None))


@login_required
@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, casino: str, report: uuid.UUID) -> HttpResponse:
    require_roles(request, casino, COMPLIANCE_ROLES)
    the_casino = get_object_or_404(Casino, code=casino)
    found = _found(lambda: selectors.report_get(casino, report))
    if request.method == "POST":
        meta = command_metadata(request, casino, COMPLIANCE_ROLES)
        action = request.POST.get("action", "")
        if action == "review":
            _run(request, lambda: compliance.suspicious_report_review(
                report_id=str(report), metadata=meta), _("report reviewed"))
        elif action == "send":
            _run(request, lambda: compliance.suspicious_report_send(
                report_id=str(report), reference=request.POST.get("reference", ""),
                sent_on=request.POST.get("sent_on") or None, metadata=meta),
                _("report recorded as sent"))
        else:
            messages.error(request, _("This form is not one of this page's: reload the page."))
        return redirect("compliance:report", casino=casino, report=report)
    return _page(request, "compliance/report.html", the_casino, report=names.shown([found])[0],
                 due=selectors.report_dues(the_casino, [found])[found.report_id],
                 narrative=selectors.report_narrative(found),
                 alerts=names.shown(selectors.alert_list(casino).filter(
                     alert_id__in=found.alert_ids)),
                 statuses=ReportStatus, own=found.drafted_by == request.user.get_username())


@login_required
@require_http_methods(["GET", "POST"])
def linking_period(request: HttpRequest, casino: str) -> HttpResponse:
    """The linking period (issue 34): the one in force today, each version with its author,
    and a form for a new one from a gaming day on (``linking_period_set``)."""
    require_roles(request, casino, COMPLIANCE_ROLES)
    the_casino = get_object_or_404(Casino, code=casino)
    today = the_casino.gaming_day(clock.now())
    if request.method == "POST":
        meta = command_metadata(request, casino, COMPLIANCE_ROLES)
        done = _run(request, lambda: compliance.linking_period_set(
            days=request.POST.get("days", ""), from_day=request.POST.get("from_day", ""),
            reason=request.POST.get("reason", ""), metadata=meta),
            _("linking period set"))
        if done is not None:
            return redirect("compliance:linking-period", casino=casino)
    versions = list(LinkingPeriod.objects.filter(casino=casino).order_by("-position"))
    current = max((v for v in versions if v.from_day <= today),
                  key=lambda v: (v.from_day, v.position), default=None)
    return _page(request, "compliance/linking_period.html", the_casino, today=today,
                 in_force=linking.period_for(casino, today), current=current,
                 versions=versions,
                 most=linking.MAX_DAYS, posted=request.POST)


@login_required
@require_http_methods(["GET"])
def patrons(request: HttpRequest, casino: str) -> HttpResponse:
    require_roles(request, casino, COMPLIANCE_ROLES)
    the_casino = get_object_or_404(Casino, code=casino)
    query = request.GET.get("name", "").strip()
    listed = names.search(casino, query) if query else selectors.patron_list(casino)[:500]
    return _page(request, "compliance/patrons.html", the_casino, query=query,
                 patrons=names.shown(listed))


@login_required
@require_http_methods(["GET", "POST"])
def patron(request: HttpRequest, casino: str, patron: uuid.UUID) -> HttpResponse:
    require_roles(request, casino, COMPLIANCE_ROLES)
    the_casino = get_object_or_404(Casino, code=casino)
    found = _found(lambda: selectors.patron_get(casino, patron))
    if request.method == "POST":
        meta = command_metadata(request, casino, COMPLIANCE_ROLES)
        action = request.POST.get("action", "shred")
        if action == "correct":  # asked here, approved by another person (docs/approvals.md)
            _run(request, lambda: approval_request(
                kind=PATRON_CORRECTION.name, subject=str(patron),
                reason=request.POST.get("reason", ""),
                explanation=request.POST.get("explanation", ""),
                details={"changes": {request.POST.get("field", ""): _value(request)}},
                metadata=meta), _("correction asked for: another person approves it"))
        elif action == "pep":
            _run(request, lambda: approval_request(
                kind=PEP_MOVEMENT.name, subject=str(patron),
                reason=request.POST.get("reason", ""),
                explanation=request.POST.get("explanation", ""),
                details={"amount": money_input(request.POST.get("amount", "")),
                         "gaming_day": request.POST.get("gaming_day", "")},
                metadata=meta), _("enhanced diligence asked for: senior management approves it"))
        else:
            _run(request, lambda: compliance.patron_shred(patron_id=str(patron), metadata=meta),
                 _("the patron's personal data was destroyed"))
        return redirect("compliance:patron", casino=casino, patron=patron)
    return _page(request, "compliance/patron.html", the_casino, patron=names.shown([found])[0],
                 identity=selectors.patron_identity(found), days=selectors.patron_days(found),
                 fields=[(f, FIELD_WORDS.get(f, f)) for f in CORRECTION_FIELDS],
                 correction_reasons=PATRON_CORRECTION.reasons,
                 funds_reasons=PEP_MOVEMENT.reasons)


def _value(request: HttpRequest) -> object:
    """The new value typed for the field corrected (politically exposed: yes or no)."""
    value = request.POST.get("value", "")
    if request.POST.get("field") == "pep":
        return value.strip().lower() in ("1", "true", "yes", "sim")
    return value


def _back(request: HttpRequest, patron_id: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = ""
    return f"{target or request.path}?{urlencode({'patron': patron_id})}"


@login_required
@require_http_methods(["GET", "POST"])
def patron_pick(request: HttpRequest, casino: str) -> HttpResponse:
    """Find the patron by the document they show, or register (and verify) them: back to the
    cage form with their id filled in."""
    require_roles(request, casino, REGISTER_ROLES)
    the_casino = get_object_or_404(Casino, code=casino)
    found = None
    name = None
    # the document's number is posted, never in the address (access logs keep addresses)
    asked = request.POST if request.POST.get("action") == "find" else {}
    searched = all(asked.get(n) for n in ("document_type", "document_number",
                                          "document_country"))
    if request.method == "POST" and not asked:
        meta = command_metadata(request, casino, REGISTER_ROLES)
        fields = ("name", "document_type", "document_number", "document_country",
                  "date_of_birth", "nationality", "address", "document_image")
        done = _run(request, lambda: compliance.patron_register(
            metadata=meta, place=request.POST.get("place", "cage"),
            verified=request.POST.get("verified") == "1", pep=request.POST.get("pep") == "1",
            **{f: request.POST.get(f, "") for f in fields}), _("patron registered"))
        if done is not None:
            return redirect(_back(request, done.patron_id))
    elif searched:
        found = _found(lambda: selectors.patron_find(
            casino, document_type=asked["document_type"],
            document_number=asked["document_number"],
            document_country=asked["document_country"]))
        if found is not None:
            name = (selectors.patron_identity(found) or {}).get("name")
    return _page(request, "compliance/pick.html", the_casino, found=found, name=name,
                 searched=searched, document_types=DOCUMENT_TYPES,
                 next=request.GET.get("next", request.POST.get("next", "")),
                 use=_back(request, str(found.patron_id)) if found is not None else "")
