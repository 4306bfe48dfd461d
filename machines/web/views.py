"""The slot floor's screens (server-rendered, thin): the floor (banks and machines with status,
today's win, return against certified, flags), meter entry by hand, the count room's boxes, and
the slot cashier's window (tickets redeemed, hand pays paid) and its shifts. Each form calls one service; a
refusal re-renders the page with its words and nothing recorded; a success redirects."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError
from casino.models import Casino
from casino.money import CASH_DENOMINATIONS
from casino.selectors import roles_in
from edge.web.acting import command_metadata
from edge.web.refusals import refusal_text
from machines import law, selectors
from machines import meters as m
from machines.models import MachineBox, MachineParameter, SlotShift, SlotWindow
from machines.parameters import parameters
from machines.roles import COUNT_ROLES, FLOOR_ROLES, PAY_ROLES, READ_ROLES, SUPERVISOR_ROLES
from machines.services.counts import (
    machine_box_confirm,
    machine_box_count,
    machine_box_variance_explain,
)
from machines.services.handpays import hand_pay_pay
from machines.services.parameters import PARAMETER_ROLES, machine_parameter_set
from machines.services.readings import meter_readings_record
from machines.services.shifts import (
    slot_shift_close,
    slot_shift_count,
    slot_shift_open,
    slot_shift_variance_explain,
)
from machines.services.tickets import ticket_redeem


def _casino(request: HttpRequest, code: str) -> Casino:
    if not roles_in(request.user, code) & set(READ_ROLES):
        raise PermissionDenied
    found = Casino.objects.filter(code=code).first()
    if found is None:
        raise Http404(f"there is no casino {code!r}")
    return found


@login_required
def floor(request: HttpRequest, casino: str) -> HttpResponse:
    place = _casino(request, casino)
    day = place.gaming_day(timezone.now())
    rows = selectors.floor_rows(casino, day)
    banks: dict[str, list[Any]] = {}
    for row in rows:
        banks.setdefault(row.bank, []).append(row)
    return render(request, "machines/floor.html", {
        "casino": place, "day": day, "banks": sorted(banks.items()),
        "totals": selectors.day_totals(casino, day),
        "flagged": [r for r in rows if r.flagged],
        "liability": selectors.ticket_liability(casino)})


@login_required
@require_http_methods(["GET", "POST"])
def meter_entry(request: HttpRequest, casino: str) -> HttpResponse:
    place = _casino(request, casino)
    results: list[Any] = []
    if request.method == "POST":
        metadata = command_metadata(request, casino, FLOOR_ROLES)
        values: dict[str, Any] = {name: request.POST.get(name, "").strip() or "0.00"
                                  for name in m.MONEY_METERS}
        values["games_played"] = request.POST.get("games_played", "").strip() or "0"
        try:
            answer = meter_readings_record(casino=casino, readings=[{
                "machine": request.POST.get("machine", ""),
                "reading_id": request.POST.get("reading_id", "") or uuid.uuid4().hex[:16],
                "read_at": timezone.now().isoformat(), "meters": values}],
                source="hand", metadata=metadata)
        except DomainError as error:
            messages.error(request, refusal_text(error))
        else:
            results = answer.results
            if answer.recorded:
                messages.success(request, _("Reading recorded."))
                return redirect("machines:meters", casino)
            for result in results:
                messages.error(request, result.reason)
    return render(request, "machines/meters.html", {
        "casino": place, "meters": m.MONEY_METERS, "posted": request.POST,
        "machines": selectors.machine_list(casino).filter(retired=False)})


def _notes(text: str) -> dict[str, int]:
    """``20.00:9, 50.00:2`` as a count by note."""
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        note, _sep, count = part.partition(":")
        try:
            out[str(Decimal(note.strip()))] = int(count.strip())
        except (InvalidOperation, ValueError):
            out[note.strip()] = -1  # the service names it
    return out


@login_required
@require_http_methods(["GET", "POST"])
def count_room(request: HttpRequest, casino: str) -> HttpResponse:
    place = _casino(request, casino)
    if request.method == "POST":
        explaining = bool(request.POST.get("explain"))
        metadata = command_metadata(request, casino, COUNT_ROLES + SUPERVISOR_ROLES
                                    if explaining else COUNT_ROLES)
        try:
            if explaining:  # a variance explained, approved by a second person
                machine_box_variance_explain(
                    casino=casino, drop_id=request.POST["explain"],
                    explanation=request.POST.get("explanation", ""),
                    approved_by=request.POST.get("approved_by", ""), metadata=metadata)
            elif request.POST.get("confirm"):
                machine_box_confirm(casino=casino, drop_id=request.POST["confirm"],
                                    metadata=metadata)
            else:
                machine_box_count(casino=casino, machine=request.POST.get("machine", ""),
                                  drop_id=request.POST.get("drop_id", ""),
                                  notes=_notes(request.POST.get("notes", "")),
                                  window=request.POST.get("window", ""), metadata=metadata)
        except DomainError as error:
            messages.error(request, refusal_text(error))
        else:
            return redirect("machines:count", casino)
    day = place.gaming_day(timezone.now())
    return render(request, "machines/count.html", {
        "casino": place, "day": day,
        "boxes": MachineBox.objects.filter(casino_id=casino).order_by("-gaming_day", "drop_id")[:200],
        "machines": selectors.machine_list(casino).filter(retired=False)})


@login_required
@require_http_methods(["GET", "POST"])
def cashier(request: HttpRequest, casino: str) -> HttpResponse:
    place = _casino(request, casino)
    if request.method == "POST":
        metadata = command_metadata(request, casino, PAY_ROLES)
        try:
            if request.POST.get("handpay"):
                hand_pay_pay(casino=casino, handpay_id=request.POST["handpay"],
                             window=request.POST.get("window", ""),
                             slip=request.POST.get("slip", ""),
                             witnessed_by=request.POST.get("witnessed_by", ""),
                             patron=request.POST.get("patron", ""), metadata=metadata)
            else:
                ticket_redeem(casino=casino, validation=request.POST.get("validation", ""),
                              place="cage", window=request.POST.get("window", ""),
                              metadata=metadata)
        except DomainError as error:
            messages.error(request, refusal_text(error))
        else:
            messages.success(request, _("Paid."))
            return redirect("machines:cashier", casino)
    return render(request, "machines/cashier.html", {
        "casino": place, "hand_pays": selectors.hand_pay_rows(casino, status="recorded"),
        "liability": selectors.ticket_liability(casino)})


def _note_grid(request: HttpRequest, place: Casino) -> dict[str, int]:
    """The notes typed one box per denomination (``note_20.00``); an empty box is none."""
    out: dict[str, int] = {}
    for note in CASH_DENOMINATIONS.get(place.currency, ()):
        typed = request.POST.get(f"note_{note}", "").strip()
        if typed:
            try:
                out[str(note)] = int(typed)
            except ValueError:
                out[str(note)] = -1  # the service names it
    return out


@login_required
@require_http_methods(["GET", "POST"])
def shifts(request: HttpRequest, casino: str) -> HttpResponse:
    """The slot cashier's shifts: open one on a blind count, count it blind, explain its
    differences with a cage supervisor's approval, close it."""
    place = _casino(request, casino)
    if request.method == "POST":
        metadata = command_metadata(request, casino, PAY_ROLES)
        action = request.POST.get("action", "")
        shift_id = request.POST.get("shift_id", "")
        try:
            if action == "count":
                answer = slot_shift_count(casino=casino, shift_id=shift_id,
                                          notes=_note_grid(request, place), metadata=metadata)
                messages.success(request, _(
                    "Counted %(counted)s %(currency)s; expected %(expected)s %(currency)s; "
                    "difference %(variance)s %(currency)s.") % {
                        "counted": answer.counted, "expected": answer.expected,
                        "variance": answer.variance, "currency": place.currency})
            elif action == "explain":
                slot_shift_variance_explain(
                    casino=casino, shift_id=shift_id,
                    explanation=request.POST.get("explanation", ""),
                    approved_by=request.POST.get("approved_by", ""), metadata=metadata)
            elif action == "close":
                slot_shift_close(casino=casino, shift_id=shift_id, metadata=metadata)
                messages.success(request, _("Shift closed."))
            else:
                slot_shift_open(casino=casino, window=request.POST.get("window", ""),
                                notes=_note_grid(request, place), metadata=metadata)
                messages.success(request, _("Shift opened."))
        except DomainError as error:
            messages.error(request, refusal_text(error))
        else:
            return redirect("machines:shifts", casino)
    rows = list(SlotShift.objects.filter(casino_id=casino).order_by("-opened_at")[:50])
    return render(request, "machines/shifts.html", {
        "casino": place, "shifts": rows,
        "live": [r for r in rows if r.status != "closed"],
        "windows": SlotWindow.objects.filter(casino_id=casino),
        "notes": [str(n) for n in CASH_DENOMINATIONS.get(place.currency, ())],
        "posted": request.POST})


# how each parameter's value reads: a percentage, an amount in the casino's currency, days
UNITS = {"minimum_return": "%", "machine_tax_rate": "%", "hand_pay_four_eyes": "currency",
         "ticket_days": "days"}

# each parameter by its name in words (the code stays the form's value and the API's)
PARAMETER_WORDS = {
    "minimum_return": gettext_lazy("Least return to players"),
    "hand_pay_four_eyes": gettext_lazy("Hand pay a cashier pays alone, up to"),
    "ticket_days": gettext_lazy("Days a ticket can be redeemed"),
    "machine_tax_rate": gettext_lazy("Gaming tax rate on machines' revenue"),
}


def _words(name: str) -> str:
    return str(PARAMETER_WORDS.get(name, name))


@login_required
@require_http_methods(["GET", "POST"])
def legal_parameters(request: HttpRequest, casino: str) -> HttpResponse:
    """The slot floor's legal parameters as of a day (``?day=``), each with its source and
    flagged when unverified; an accountant or administrator sets one from a day on, citing
    the inspection's reference (the API's rule: ``machine_parameter_set``)."""
    place = _casino(request, casino)
    if request.method == "POST":
        metadata = command_metadata(request, casino, PARAMETER_ROLES)
        try:
            machine_parameter_set(casino=casino, name=request.POST.get("name", ""),
                                  value=request.POST.get("value", "").strip().replace(",", "."),
                                  effective_from=request.POST.get("effective_from", ""),
                                  reference=request.POST.get("reference", ""),
                                  metadata=metadata)
        except DomainError as error:
            messages.error(request, refusal_text(error))
        else:
            messages.success(request, _("Parameter set."))
            return redirect("machines:parameters", casino)
    today = place.gaming_day(timezone.now())
    try:
        day = dt.date.fromisoformat(request.GET.get("day", "")) if request.GET.get("day") \
            else today
    except ValueError:
        messages.error(request, _("The day is a date (YYYY-MM-DD)."))
        day = today
    rules = parameters(place, day)
    return render(request, "machines/parameters.html", {
        "casino": place, "day": day,
        "rows": [{"name": _words(name), "rule": r, "unit": UNITS.get(name, ""),
                  "source": _(r.source)}  # machines.law's sources are in the catalogue
                 for name, r in zip(law.SETTABLE, rules, strict=True)],
        "changes": [{"name": _words(c.name), "change": c} for c in
                    MachineParameter.objects.filter(casino_id=casino).order_by(
                        "name", "-effective_from", "-position")],
        "names": [(n, _words(n)) for n in law.SETTABLE], "posted": request.POST,
        "may_set": bool(roles_in(request.user, casino) & set(PARAMETER_ROLES))})
