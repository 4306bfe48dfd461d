"""The cage's screens (server-rendered, no JavaScript): thin views calling the services.

* the casino's cages, with the minimum-cash alert and a form to open a shift;
* the cashier's shift screen: movements and the forms to record them;
* the blind count form (no expected figure anywhere on it);
* the variance screen: expected, counted and variance by denomination, explanation, approval,
  close;
* the reconciliation report for a shift and a gaming day (page and CSV);
* chips in circulation;
* the count room: closed sessions' drop boxes counted by two counters, and drop variances sent
  for approval (the pit's ``games.services.count_room``, called here: a named coupling of the
  cage to the pit, pyproject.toml).

Every form carries a fresh idempotency key, so a double submit records nothing twice.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cage.roles import CAGE_ROLES, READ_ROLES, SEES_EXPECTED
from casino.errors import DomainError, InvalidCommand, NotFound
from casino.models import ChipSet, Role
from casino.money import CASH_DENOMINATIONS, Money, fmt, parse_amount
from casino.selectors import casino_list_for
from casino.services.approvals import approval_request
from edge.web.acting import command_metadata, require_roles
from edge.web.money import money_input, money_text
from edge.web.progress import CloseProgress, answer_text, close_progress, followed_task
from edge.web.refusals import refusal_text
from eventstore.records import Metadata
from games import selectors as pit_selectors
from games import services as pit_services
from games.models import SessionStatus, Slip, SlipStatus, TableSession
from games.selectors import drop_boxes_to_receive
from games.services.count_room import DROP_VARIANCE
from jackpots.selectors import prize_list
from jackpots.services import jackpot_prize_pay

from .. import reports, selectors
from .. import services as cage
from ..models import CageKind, OpeningDispute, Shift, ShiftStatus
from ..receipt_pdf import receipt_pdf
from ..services.approvals import LATE_FILL
from ..slip_pdf import SlipPrint, slip_pdf
from . import grids, receipts, terminal
from .references import said

# --- who is acting: ``edge.web.acting`` (the roles a page needs, a posted command's metadata) ----


def _sees_expected(held: set[str]) -> bool:
    return bool(held & set(SEES_EXPECTED))


def _sight(request: HttpRequest, shift: Shift, held: set[str]) -> str:
    """What this person may see of the shift's expected figures (``selectors.expected_sight``)."""
    return selectors.expected_sight(shift, viewer=request.user.get_username(),
                                    supervisor=_sees_expected(held))


# --- reading forms ----------------------------------------------------------------------------


def _run(request: HttpRequest, action: Callable[[], object], done: str) -> bool:
    try:
        action()
    except DomainError as error:  # the store's and the commands' refusals included
        messages.error(request, refusal_text(error))
        return False
    messages.success(request, done)
    return True


def _key() -> str:
    return uuid.uuid4().hex


def _found(read: Callable[[], Any]) -> Any:
    """A selector's "not found" (or an unreadable id or date in the URL) is a 404 page."""
    try:
        return read()
    except (NotFound, InvalidCommand) as error:
        raise Http404(error.message) from None


def _shift(casino: str, shift: uuid.UUID) -> Shift:
    found: Shift = _found(lambda: selectors.shift_get(casino=casino, shift_id=shift))
    return found


# --- pages --------------------------------------------------------------------------------------


@login_required
def casino_list(request: HttpRequest) -> HttpResponse:
    return render(request, "cage/casinos.html", {"casinos": casino_list_for(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def cage_overview(request: HttpRequest, casino: str) -> HttpResponse:
    held = require_roles(request, casino, READ_ROLES)
    if request.method == "POST":
        meta = command_metadata(request, casino, CAGE_ROLES)
        code = request.POST.get("cage", "")
        blind = request.POST.get("blind") == "1"

        the_casino = _found(lambda: selectors.casino_get(casino))

        def open_shift() -> object:
            if blind:
                return cage.shift_open(
                    cage=code, metadata=meta,
                    cash=grids.read_cash(request.POST, the_casino, "cash") or {},
                    chips=grids.read_chips_by_set(request.POST, the_casino, "chips"))
            return cage.shift_open(cage=code, metadata=meta,
                                   accept_previous=request.POST.get("accept_previous") or None)

        try:
            open_shift()
        except DomainError as error:  # the overview again, the count as typed, the reason
            return _overview_page(request, casino, held, failed=code, error=error, status=400)
        messages.success(request, _("shift opened at %(cage)s") % {"cage": code})
        live = Shift.objects.filter(casino_id=casino, cage=code).exclude(
            status=ShiftStatus.CLOSED).first()
        if live is not None:
            return redirect("cage:shift", casino=casino, shift=live.id)
        return redirect("cage:overview", casino=casino)
    return _overview_page(request, casino, held)


def _overview_page(request: HttpRequest, casino: str, held: set[str], *, failed: str = "",
                   error: DomainError | None = None, status: int = 200) -> HttpResponse:
    the_casino = _found(lambda: selectors.casino_get(casino))
    views = selectors.cage_list(casino=casino)
    return render(request, "cage/overview.html", {
        "casino": the_casino, "cages": views,
        # what the next cashier accepts or disputes: each cage's last closing count
        "rows": [(v, selectors.previous_count(casino=casino, cage=v.cage.code)) for v in views],
        "recent": selectors.shift_list(casino=casino).order_by("-opened_at")[:20],
        "can_act": bool(held & set(CAGE_ROLES)), "key": _key(),
        "blind_grids": {v.cage.code: [
            grids.cash_grid(the_casino, "cash", _("Cash"), _typed(request, failed, v.cage.code)),
            *grids.chip_grids(the_casino, "chips", "", _typed(request, failed, v.cage.code))]
            for v in views},
        "failed": failed, "error": refusal_text(error) if error else "",
        "sees_day": bool(held & set(SEES_EXPECTED)),
    }, status=status)


def _typed(request: HttpRequest, failed: str, form: str) -> Any:
    """What was typed into ``form`` when it is the one refused, else nothing."""
    return request.POST if failed and failed == form else {}


_ACTIONS = ("sell", "redeem", "fill", "credit", "refuse", "transfer", "jackpot", "drop",
            "adjust", "approve_adjustment", "reject_adjustment", "into_service", "out_of_service",
            "resolve_dispute", "ask_late_fill")


def _shift_action(request: HttpRequest, casino: str, shift: Shift) -> tuple[str, Callable[[], object]]:
    """The posted movement as one service call; its grids read box by box (``grids``)."""
    action = request.POST.get("action", "")
    if action not in _ACTIONS:
        raise InvalidCommand(_("This form is not one of this page's: reload the page."))
    roles: tuple[str, ...] = CAGE_ROLES
    if action in ("approve_adjustment", "reject_adjustment", "into_service", "out_of_service",
                  "resolve_dispute"):
        roles = (Role.CAGE_SUPERVISOR,)
    meta = command_metadata(request, casino, roles)
    p = request.POST
    sid = str(shift.id)
    the_casino = _found(lambda: selectors.casino_get(casino))
    sets = grids.chip_sets(the_casino)
    cash = grids.read_cash(p, the_casino, "cash")
    chip_set, chips = grids.read_chips(p, the_casino, "chips", sets=sets)
    amount = money_input(p.get("amount", ""))

    def parsed_amount() -> Money:
        return parse_amount(amount, field="amount")

    calls: dict[str, tuple[str, Callable[[], object]]] = {
        "sell": (_("chips sold"), lambda: cage.chips_sell(
            shift_id=sid, amount=parsed_amount(), chip_set=chip_set, chips=chips, cash=cash,
            change=grids.read_cash(p, the_casino, "change"), patron=p.get("patron") or None,
            payment=p.get("payment") or None, mark=p.get("mark") or None, metadata=meta)),
        "redeem": (_("chips redeemed"), lambda: cage.chips_redeem(
            shift_id=sid, amount=parsed_amount(), chip_set=chip_set, chips=chips, cash=cash,
            patron=p.get("patron") or None, payment=p.get("payment") or None,
            cheque_number=p.get("cheque_number") or None, mark=p.get("mark") or None,
            metadata=meta)),
        "fill": (_("fill issued"), lambda: cage.fill_issue(
            shift_id=sid, slip=p.get("slip", ""), metadata=meta)),
        "credit": (_("credit received"), lambda: cage.credit_receive(
            shift_id=sid, slip=p.get("slip", ""), metadata=meta)),
        "refuse": (_("slip refused: the pit sees why"), lambda: cage.slip_refuse(
            shift_id=sid, kind=p.get("kind", ""), slip=p.get("slip", ""),
            reason=p.get("reason", ""), metadata=meta)),
        "transfer": (_("transfer sent"), lambda: cage.transfer_send(
            shift_id=sid, to_cage=p.get("to_cage", ""), cash=cash,
            chips=grids.read_chips_by_set(p, the_casino, "chips", sets=sets), metadata=meta)),
        "jackpot": (_("jackpot paid"), lambda: jackpot_prize_pay(
            shift_id=sid, prize_id=p.get("prize_id", ""),
            amount=parse_amount(amount, field="amount") if amount else None,
            cash=cash, chips=chips, chip_set=chip_set, patron=p.get("patron") or None,
            payment=p.get("payment") or None, cheque_number=p.get("cheque_number") or None,
            metadata=meta)),
        "drop": (_("drop box received"), lambda: cage.drop_box_receive(
            shift_id=sid, session_id=p.get("session_id", ""), cash=cash or {},
            metadata=meta)),
        "adjust": (_("adjustment requested"), lambda: cage.adjustment_request(
            shift_id=sid, direction=p.get("direction", ""), reason=p.get("reason", ""),
            cash=cash, chips=grids.read_chips_by_set(p, the_casino, "chips", sets=sets),
            metadata=meta)),
        "approve_adjustment": (_("adjustment approved"), lambda: cage.adjustment_approve(
            adjustment_id=p.get("adjustment", ""), note=p.get("note", ""), metadata=meta)),
        "reject_adjustment": (_("adjustment rejected"), lambda: cage.adjustment_reject(
            adjustment_id=p.get("adjustment", ""), note=p.get("note", ""), metadata=meta)),
        "into_service": (_("chips put into service"), lambda: cage.chips_put_into_service(
            shift_id=sid, chips=chips, chip_set=chip_set,
            reference=p.get("reference", ""), metadata=meta)),
        "out_of_service": (_("chips taken out of service"), lambda: cage.chips_take_out_of_service(
            shift_id=sid, chips=chips, chip_set=chip_set,
            reason=p.get("reason", ""), metadata=meta)),
        "resolve_dispute": (_("dispute resolved: the shift is open"),
                            lambda: cage.shift_opening_dispute_resolve(
                                shift_id=sid, accept=p.get("accept", ""), note=p.get("note", ""),
                                metadata=meta)),
        # a fill for a closed session: asked for here, approved by a pit boss (docs/approvals.md)
        "ask_late_fill": (_("late fill asked for: a pit boss approves it"), lambda: approval_request(
            kind=LATE_FILL.name, subject=p.get("slip", "").strip(), reason=p.get("reason", ""),
            explanation=p.get("explanation", ""), details={"shift_id": sid}, metadata=meta)),
    }
    return calls[action]


@login_required
@require_http_methods(["GET", "POST"])
def shift_screen(request: HttpRequest, casino: str, shift: uuid.UUID) -> HttpResponse:
    """The cage terminal: the shift's movements, the pit's slips waiting, and a form with
    denomination grids for every movement. A refusal draws the page again with the form as it
    was typed and the reason beside it; nothing is recorded."""
    held = require_roles(request, casino, READ_ROLES)
    found = _shift(casino, shift)
    if request.method == "POST":
        form = request.POST.get("form", "") or request.POST.get("action", "")
        before = found.version
        try:
            done, action = _shift_action(request, casino, found)
            action()
        except DomainError as error:  # the store's and the commands' refusals included
            return _shift_page(request, casino, found, held, failed=form, error=error,
                               status=400)
        messages.success(request, done)
        # the same movement again for the next in the queue, and this one's receipt at hand
        offered = terminal.movements(found, Role.CAGE_SUPERVISOR in held)
        after = {"m": terminal.chosen(request.POST.get("m", ""), offered)}
        receipt = found.entries.filter(version__gt=before, event_type__in=list(receipts.TITLES)
                                       ).order_by("version").first()
        if receipt is not None:
            after["receipt"] = str(receipt.version)
        return redirect(reverse("cage:shift", args=[casino, found.id]) + "?" + urlencode(after))
    return _shift_page(request, casino, found, held)


def _shift_page(request: HttpRequest, casino: str, found: Shift, held: set[str], *,
                failed: str = "", error: DomainError | None = None,
                status: int = 200) -> HttpResponse:
    sight = _sight(request, found, held)
    the_casino = _found(lambda: selectors.casino_get(casino))
    dispute = OpeningDispute.objects.filter(shift=found).first()
    posted: Any = request.POST if failed else {}

    def typed(form: str) -> Any:
        return posted if failed == form else {}

    def cash(form: str, field: str, label: str) -> grids.Grid:
        return grids.cash_grid(the_casino, field, label, typed(form))

    sets = grids.chip_sets(the_casino)  # once for the page's dozen grids

    def chips(form: str, label: str) -> list[grids.Grid]:
        return grids.chip_grids(the_casino, "chips", label, typed(form), sets=sets)

    # the newest movements, a page at a time, and the whole shift's totals (by the database);
    # narrowed to a kind of movement or a search, if asked
    shown = terminal.shown_kinds(request.GET.get("kind", ""))
    search = str(request.GET.get("q", ""))[:100]
    page = selectors.shift_entry_page(found, sight, request.GET.get("page", 1),
                                      event_types=shown, search=search)
    offered = terminal.movements(found, Role.CAGE_SUPERVISOR in held)
    chosen = terminal.chosen(terminal.refused_movement(request.POST) if failed
                             else request.GET.get("m", ""), offered)
    receipt = _int(request.GET.get("receipt", ""))
    return render(request, "cage/shift.html", {
        "casino": the_casino, "shift": found,
        "movement": chosen, "movements": offered,
        "kinds": terminal.KINDS, "kind": request.GET.get("kind", ""), "q": search,
        "filtered": bool(shown or search.strip()),
        "keep": urlencode({k: v for k, v in (("m", request.GET.get("m", "")),
                                             ("kind", request.GET.get("kind", "")),
                                             ("q", search)) if v}),
        "receipt": found.entries.filter(version=receipt).first() if receipt else None,
        "receipt_types": list(receipts.TITLES),
        "entries": [(e, said(e)) for e in page.entries], "page": page,
        "adjustments": selectors.adjustment_list(found),
        "figures": selectors.shift_figures(found) if sight == selectors.SIGHT_ALL else None,
        "dispute": dispute,
        "dispute_lines": selectors.disputed_figures(dispute) if dispute else None,
        "can_act": bool(held & set(CAGE_ROLES)) and found.status == ShiftStatus.OPEN,
        "supervisor": Role.CAGE_SUPERVISOR in held,
        "is_vault": found.cage_kind == CageKind.VAULT,
        "targets": selectors.cages_of(casino=casino).exclude(code=found.cage),
        "key": _key(),
        # what the chosen movement picks from (read only for it)
        "jackpot_hits": prize_list(casino, unpaid_only=True)[:100] if chosen == "jackpot" else [],
        "boxes": _boxes_to_receive(casino) if chosen == "drop" else [],
        "late_fill_reasons": LATE_FILL.reasons,
        "slips": ([w for w in _slips_waiting(casino) if w.slip.kind == chosen]
                  if chosen in ("fill", "credit") else []),
        "failed": failed, "posted": posted,
        "error": refusal_text(error) if error else "",
        "error_field": _error_field(failed, error),
        "grids": {
            "sell": {"chips": chips("sell", _("Chips given")),
                     "cash": cash("sell", "cash", _("Cash received")),
                     "change": cash("sell", "change", _("Change given"))},
            "redeem": {"chips": chips("redeem", _("Chips received")),
                       "cash": cash("redeem", "cash", _("Cash paid"))},
            "jackpot": {"cash": cash("jackpot", "cash", _("Cash paid")),
                        "chips": chips("jackpot", _("Chips paid"))},
            "drop": {"cash": cash("drop", "cash", _("Notes and coins in the box"))},
            "transfer": {"cash": cash("transfer", "cash", _("Cash sent")),
                         "chips": chips("transfer", _("Chips sent"))},
            "adjust": {"cash": cash("adjust", "cash", _("Cash")),
                       "chips": chips("adjust", _("Chips"))},
            "into_service": {"chips": chips("into_service", _("New chips"))},
            "out_of_service": {"chips": chips("out_of_service", _("Chips withdrawn"))},
        },
    }, status=status)


def _int(raw: object) -> int | None:
    text = str(raw or "")
    return int(text) if text.isdigit() else None


def _error_field(form: str, error: DomainError | None) -> str:
    field = str(error.extra.get("field", "")).split(" ")[0] if error else ""
    return field if field in FORM_FIELDS.get(form.split(":")[0], set()) else ""


@dataclass(frozen=True)
class WaitingSlip:
    """A fill or credit the pit asked for, waiting for the cage."""

    slip: Any
    chips: list[tuple[str, int]]
    session_closed: bool


def _slips_waiting(casino: str) -> list[WaitingSlip]:
    """The pit's requested fills and credits (oldest first), the cage's queue."""
    slips = list(Slip.objects.filter(casino_id=casino, status=SlipStatus.REQUESTED)
                 .order_by("requested_at", "number")[:200])
    closed = set(TableSession.objects.filter(
        session_id__in=[s.session_id for s in slips], status=SessionStatus.CLOSED)
        .values_list("session_id", flat=True))
    return [WaitingSlip(s, [(money_text(Decimal(d)), n) for d, n in sorted(
        s.chips.items(), key=_largest_first)], s.session_id in closed) for s in slips]


def _largest_first(item: tuple[str, int]) -> Decimal:
    return -Decimal(item[0])


# The fields of each form of the shift screen: a refusal naming one is shown beside it, any
# other at the top of the form.
FORM_FIELDS = {
    "sell": {"amount", "chips", "cash", "change", "payment"},
    "redeem": {"amount", "chips", "cash", "payment", "cheque_number"},
    "jackpot": {"prize_id", "amount", "cash", "chips", "payment", "cheque_number"},
    "drop": {"session_id", "cash"},
    "transfer": {"to_cage", "cash", "chips"}, "adjust": {"direction", "cash", "chips", "reason"},
    "into_service": {"chips", "reference"}, "out_of_service": {"chips", "reason"},
}


@login_required
def slip_print(request: HttpRequest, casino: str, shift: uuid.UUID, version: int) -> HttpResponse:
    """The fill or credit slip of a shift's movement, as a PDF to print and sign."""
    require_roles(request, casino, READ_ROLES)
    found = _shift(casino, shift)
    entry = found.entries.filter(version=version,
                                 event_type__in=("FillIssued", "CreditReceived")).first()
    if entry is None:
        raise Http404(_("this movement is not a fill or a credit"))
    the_casino = _found(lambda: selectors.casino_get(casino))
    data = entry.details
    kind = "fill" if entry.event_type == "FillIssued" else "credit"
    requested_by = ""
    pit_slip = Slip.objects.filter(casino_id=casino, kind=kind, number=data["slip"]).first()
    requested_by = pit_slip.requested_by if pit_slip else ""
    pdf = slip_pdf(SlipPrint(
        casino=the_casino.name, currency=the_casino.currency, kind=kind,
        number=str(data["slip"]), table=str(data["table"]), window=found.cage,
        gaming_day=found.gaming_day.isoformat(),
        when=timezone.localtime(entry.recorded_at).strftime("%Y-%m-%d %H:%M"),
        chips={str(d): int(n) for d, n in data["chips"].items()},
        amount=Decimal(str(data["amount"])), cashier=entry.actor, requested_by=requested_by))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{kind}-slip-{data["slip"]}.pdf"'
    return response


@login_required
def receipt_print(request: HttpRequest, casino: str, shift: uuid.UUID,
                  version: int) -> HttpResponse:
    """The receipt of one movement of the shift, a PDF for an 80 mm receipt printer."""
    require_roles(request, casino, READ_ROLES)
    found = _shift(casino, shift)
    entry = found.entries.filter(version=version, event_type__in=list(receipts.TITLES)).first()
    if entry is None:
        raise Http404(_("this movement has no receipt"))
    the_casino = _found(lambda: selectors.casino_get(casino))
    receipt = receipts.receipt_of(entry, casino=the_casino, shift=found)
    response = HttpResponse(receipt_pdf(receipt), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="receipt-{receipt.number}.pdf"'
    return response


def _boxes_to_receive(casino: str) -> list[BoxToReceive]:
    """Drop boxes counted by two counters and not yet received (the drop box form's choices),
    each with the currency it was counted in (a foreign table's own: docs/currencies.md)."""
    boxes = list(drop_boxes_to_receive(casino=casino))
    book = selectors.casino_get(casino).currency
    foreign = dict(TableSession.objects.filter(
        session_id__in=[b.session_id for b in boxes]).exclude(currency="")
        .values_list("session_id", "currency"))
    return [BoxToReceive(box.session_id, box.table, box.gaming_day, box.amount,
                         foreign.get(box.session_id, book)) for box in boxes]


@dataclass(frozen=True)
class BoxToReceive:
    session_id: uuid.UUID
    table: str
    gaming_day: dt.date
    amount: Decimal
    currency: str


def _count_fields(casino: str) -> tuple[list[tuple[str, str]], list[tuple[str, list[tuple[str, str]]]]]:
    the_casino = _found(lambda: selectors.casino_get(casino))
    cash = [(f"cash-{fmt(d)}", fmt(d)) for d in CASH_DENOMINATIONS[the_casino.currency]]
    chips = [(s.code, [(f"chip-{s.code}-{d}", d) for d in s.denominations])
             for s in ChipSet.objects.filter(casino_id=casino)]
    return cash, chips


def _pieces(request: HttpRequest, name: str) -> int:
    """A drop box's pieces of one denomination as typed in the count room (empty: none)."""
    raw = request.POST.get(name, "").strip()
    if not raw:
        return 0
    if not raw.isdigit():
        raise InvalidCommand("{value}: {raw!r} is not a number of pieces",
                             params={"value": name.split('-')[-1], "raw": raw})
    return int(raw)


def _typed_counts(request: HttpRequest, cash_fields: list[tuple[str, str]],
                  chip_fields: list[tuple[str, list[tuple[str, str]]]]
                  ) -> tuple[dict[str, object], dict[str, dict[str, object]]]:
    """The count as typed: a box left empty is left out (the service refuses it, naming it);
    what is not a whole number goes through as typed, for the service to refuse."""
    def typed(name: str) -> object:
        raw = request.POST.get(name, "").strip()
        return int(raw) if raw.isdigit() else raw

    cash = {label: typed(name) for name, label in cash_fields
            if request.POST.get(name, "").strip()}
    chips = {code: {label: typed(name) for name, label in fields
                    if request.POST.get(name, "").strip()}
             for code, fields in chip_fields}
    return cash, chips


def _foreign_fields(casino: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The foreign notes' boxes of the count, per currency the casino accepts besides its book
    currency (none for a casino of one currency; ``docs/cage.md``, *Foreign notes at a window*)."""
    from exchange import selectors as exchange  # the currencies accepted are the exchange's

    return [(currency, [(f"foreign-{currency}-{fmt(d)}", fmt(d))
                        for d in CASH_DENOMINATIONS.get(currency, ())])
            for currency in exchange.accepted_currencies(casino)]


def _typed_foreign(request: HttpRequest, fields: list[tuple[str, list[tuple[str, str]]]]
                   ) -> dict[str, dict[str, object]]:
    """A currency whose boxes are all empty is left out (the service refuses it when the
    window received some); an empty box of a currency counted is 0."""
    out: dict[str, dict[str, object]] = {}
    for currency, boxes in fields:
        raw = {label: request.POST.get(name, "").strip() for name, label in boxes}
        if any(raw.values()):
            out[currency] = {label: int(v) if v.isdigit() else (v or 0)
                             for label, v in raw.items()}
    return out


@login_required
@require_http_methods(["GET", "POST"])
def count_form(request: HttpRequest, casino: str, shift: uuid.UUID) -> HttpResponse:
    """The blind count: one required box per denomination, empty (no zero typed for you), and
    nothing about what should be there, for a recount too (not even the previous count)."""
    require_roles(request, casino, CAGE_ROLES)
    found = _shift(casino, shift)
    cash_fields, chip_fields = _count_fields(casino)
    foreign_fields = _foreign_fields(casino)
    typed: dict[str, str] = {}
    if request.method == "POST":
        meta = command_metadata(request, casino, CAGE_ROLES)
        cash, chips = _typed_counts(request, cash_fields, chip_fields)
        foreign = _typed_foreign(request, foreign_fields)
        if _run(request, lambda: cage.shift_count(shift_id=str(found.id), cash=cash,
                                                   chips=chips, foreign=foreign,
                                                   metadata=meta),
                _("count recorded")):
            return redirect("cage:variance", casino=casino, shift=found.id)
        # refused: the form again with what this person just typed (their own count)
        typed = {name: request.POST.get(name, "") for name, _label in cash_fields}
        typed |= {name: request.POST.get(name, "") for _code, fields in chip_fields
                  for name, _label in fields}
        typed |= {name: request.POST.get(name, "") for _code, fields in foreign_fields
                  for name, _label in fields}
    return render(request, "cage/count.html", {
        "casino": _found(lambda: selectors.casino_get(casino)), "shift": found,
        "cash_fields": [(name, label, typed.get(name, "")) for name, label in cash_fields],
        "chip_fields": [(code, [(name, label, typed.get(name, "")) for name, label in fields])
                        for code, fields in chip_fields],
        "foreign_fields": [(code, [(name, label, typed.get(name, "")) for name, label in fields])
                           for code, fields in foreign_fields],
        "key": _key(), "recount": found.count_number > 0,
        "can_count": found.status == ShiftStatus.OPEN or (
            found.status == ShiftStatus.COUNTED and found.approved_count != found.count_number),
    })


@login_required
@require_http_methods(["GET", "POST"])
def opening_dispute_form(request: HttpRequest, casino: str, code: str) -> HttpResponse:
    """The next cashier disputes the previous closing count: it beside their full count."""
    held = require_roles(request, casino, CAGE_ROLES)
    previous = _found(lambda: selectors.previous_count(casino=casino, cage=code))
    cash_fields, chip_fields = _count_fields(casino)
    typed: dict[str, str] = {}
    if request.method == "POST":
        meta = command_metadata(request, casino, CAGE_ROLES)
        cash, chips = _typed_counts(request, cash_fields, chip_fields)
        if _run(request, lambda: cage.shift_opening_dispute(
                cage=code, previous_shift=request.POST.get("previous_shift", ""), cash=cash,
                chips=chips, reason=request.POST.get("reason", ""), metadata=meta),
                _("dispute recorded: a cage supervisor resolves it")):
            return redirect("cage:overview", casino=casino)
        typed = {k: str(request.POST.get(k, "")) for k in request.POST
                 if k.startswith(("cash-", "chip-"))}
    shown = {(f.kind, f.chip_set, fmt(f.denomination)): f.counted for f in previous.lines}
    return render(request, "cage/dispute.html", {
        "casino": _found(lambda: selectors.casino_get(casino)), "previous": previous,
        "cash_fields": [(name, label, typed.get(name, ""), shown.get(("cash", "", label), 0))
                        for name, label in cash_fields],
        "chip_fields": [(c, [(name, label, typed.get(name, ""),
                              shown.get(("chips", c, fmt(Decimal(label))), 0))
                             for name, label in fields]) for c, fields in chip_fields],
        "reason": request.POST.get("reason", "") if request.method == "POST" else "",
        "key": _key(), "can_act": bool(held & set(CAGE_ROLES)),
    })


@login_required
@require_http_methods(["GET", "POST"])
def variance_screen(request: HttpRequest, casino: str, shift: uuid.UUID) -> HttpResponse:
    """After the count: expected, counted and variance by denomination; explain, approve, close."""
    held = require_roles(request, casino, READ_ROLES)
    found = _shift(casino, shift)
    if request.method == "POST":
        action = request.POST.get("action", "")
        sid = str(found.id)
        if action == "approve":
            meta = command_metadata(request, casino, (Role.CAGE_SUPERVISOR,))
            _run(request, lambda: cage.variance_approve(shift_id=sid, note=request.POST.get(
                "note", ""), metadata=meta), _("variance approved"))
        elif action == "refuse":
            meta = command_metadata(request, casino, (Role.CAGE_SUPERVISOR,))
            _run(request, lambda: cage.variance_refuse(shift_id=sid, note=request.POST.get(
                "note", ""), metadata=meta), _("variance refused: the cashier explains or "
                                               "counts again"))
        elif action == "explain":
            meta = command_metadata(request, casino, CAGE_ROLES)
            _run(request, lambda: cage.variance_explain(
                shift_id=sid, explanation=request.POST.get("explanation", ""), metadata=meta),
                _("explanation recorded"))
        elif action == "close":
            meta = command_metadata(request, casino, CAGE_ROLES)
            task = _send_shift_close(request, found, meta)
            if task is not None:  # a worker closes it: the page follows its progress
                return redirect(reverse("cage:variance", args=[casino, found.id])
                                + f"?closing={task}")
        else:
            messages.error(request, f"unknown action {action!r}")
        return redirect("cage:variance", casino=casino, shift=found.id)
    counted = found.status in (ShiftStatus.COUNTED, ShiftStatus.CLOSED)
    sight = _sight(request, found, held)
    figures = (selectors.shift_figures(found)
               if counted and sight != selectors.SIGHT_NONE else [])
    foreign = (selectors.foreign_count_lines(found)
               if counted and sight != selectors.SIGHT_NONE else [])
    return render(request, "cage/variance.html", {
        "casino": _found(lambda: selectors.casino_get(casino)), "shift": found, "counted": counted,
        "figures": figures, "blind": sight == selectors.SIGHT_NONE, "foreign": foreign,
        "variance_lines": [f for f in figures if f.variance] + [f for f in foreign if f.variance],
        "variance_value": sum((f.variance_value or Decimal("0.00") for f in figures),
                              Decimal("0.00")),
        "supervisor": Role.CAGE_SUPERVISOR in held, "can_act": bool(held & set(CAGE_ROLES)),
        "key": _key(),
        "progress": _close_progress_of(request, found),
        "refusal": found.entries.filter(
            event_type="VarianceRefused",
            details__count_number=found.count_number).order_by("-version").first(),
    })


def _send_shift_close(request: HttpRequest, shift: Shift, meta: Metadata) -> str | None:
    """The close goes to the workers (``cage.shift_close``) once this request's work is
    committed. Without a broker it runs in process at once and its answer is shown (None is
    returned); with one, the task's id is returned before it is sent (the task is sent with
    it), and the variance page follows its progress (``shift_closing``) until it is done."""
    from cage.tasks import shift_close_task

    task = str(uuid.uuid4())
    in_process = bool(shift_close_task.app.conf.task_always_eager)

    def send() -> None:
        sent = shift_close_task.apply_async((str(shift.id), meta.as_dict()), task_id=task)
        if in_process:
            _say_closed(request, sent.get())

    transaction.on_commit(send)
    return None if in_process else task


def _say_closed(request: HttpRequest, done: dict[str, Any]) -> None:
    if done.get("closed"):
        messages.success(request, _("shift closed") if not done.get("already_closed")
                         else _("the shift was closed already"))
    else:
        messages.error(request, answer_text(done, _("the close was refused")))


def _close_progress(shift: Shift, task: str) -> CloseProgress:
    """The shift close's state (``edge.web.progress``): a shift found closed is done."""
    from cage.tasks import shift_close_task

    return close_progress(task, app=shift_close_task.app,
                          closed=shift.status == ShiftStatus.CLOSED)


def _close_progress_of(request: HttpRequest, shift: Shift) -> CloseProgress | None:
    """The close the page follows (``?closing=<task>``), if it names one."""
    task = followed_task(request)
    return None if task is None else _close_progress(shift, task)


@login_required
@require_http_methods(["GET"])
def shift_closing(request: HttpRequest, casino: str, shift: uuid.UUID,
                  task: uuid.UUID) -> HttpResponse:
    """The close's progress, polled by the variance page (htmx) every second. Once it is done,
    an htmx request is sent to the variance page again (``HX-Redirect``), the answer said."""
    require_roles(request, casino, READ_ROLES)
    found = _shift(casino, shift)
    progress = _close_progress(found, str(task))
    if progress.done and request.headers.get("HX-Request"):
        if progress.state == "failed":
            messages.error(request, _("the close failed: %(reason)s")
                           % {"reason": progress.answer.get("message", "")})
        else:
            _say_closed(request, progress.answer)
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("cage:variance", args=[casino, found.id])
        return response
    return render(request, "cage/_close_progress.html", {
        "casino": _found(lambda: selectors.casino_get(casino)), "shift": found,
        "progress": progress})


@login_required
def shift_reconciliation(request: HttpRequest, casino: str, shift: uuid.UUID,
                         fmt_: str = "html") -> HttpResponse:
    held = require_roles(request, casino, READ_ROLES)
    found = _shift(casino, shift)
    if _sight(request, found, held) == selectors.SIGHT_NONE:
        messages.error(request, _("the shift is counted blind: its reconciliation is shown to "
                                  "the one who counted and, once approved, to every cashier"))
        return redirect("cage:shift", casino=casino, shift=found.id)
    report = reports.shift_reconciliation(found)
    if fmt_ == "csv":
        return _csv(report, f"cage-shift-{found.id}.csv")
    return render(request, "cage/reconciliation.html", {
        "casino": _found(lambda: selectors.casino_get(casino)), "report": report, "shift": found,
        "csv_url": reverse("cage:shift-reconciliation-csv", args=[casino, found.id])})


@login_required
def day_reconciliation(request: HttpRequest, casino: str, day: str,
                       fmt_: str = "html") -> HttpResponse:
    require_roles(request, casino, SEES_EXPECTED)
    gaming_day = _found(lambda: selectors.parse_day(day))
    report = reports.gaming_day_reconciliation(casino=casino, gaming_day=gaming_day)
    if fmt_ == "csv":
        return _csv(report, f"cage-{casino}-{day}.csv")
    return render(request, "cage/reconciliation.html", {
        "casino": _found(lambda: selectors.casino_get(casino)), "report": report, "shift": None,
        "csv_url": reverse("cage:day-reconciliation-csv", args=[casino, day])})


def _csv(report: reports.Reconciliation, filename: str) -> HttpResponse:
    response = HttpResponse(reports.as_csv(report), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def chips_in_circulation(request: HttpRequest, casino: str) -> HttpResponse:
    # the cages' part is their live shifts' expected contents: not for cashiers counting blind
    require_roles(request, casino, SEES_EXPECTED)
    return render(request, "cage/circulation.html", {
        "casino": _found(lambda: selectors.casino_get(casino)),
        "figure": selectors.chips_in_circulation(casino=casino),
        "recorded": selectors.circulation_day_list(casino=casino)[:60],
    })


# --- the count room -----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def count_room(request: HttpRequest, casino: str) -> HttpResponse:
    """Boxes of closed sessions to count (first counter), to confirm (second counter, counting
    again), and drop variances found at the cage, to send for approval with a reason."""
    held = require_roles(request, casino, READ_ROLES)
    cash_fields, _chips = _count_fields(casino)
    if request.method == "POST":
        action = request.POST.get("action", "")
        session_id = request.POST.get("session_id", "")
        meta = command_metadata(request, casino, CAGE_ROLES)
        if action in ("count", "confirm"):
            try:
                cash = {label: _pieces(request, name) for name, label in cash_fields}
            except InvalidCommand as error:
                messages.error(request, refusal_text(error))
            else:
                service = (pit_services.drop_box_count if action == "count"
                           else pit_services.drop_box_count_confirm)
                _run(request, lambda: service(session_id=session_id, cash=cash, metadata=meta),
                     _("count recorded") if action == "count" else _("count confirmed"))
        elif action == "ask_variance":
            _run(request, lambda: approval_request(
                kind="drop_variance", subject=session_id,
                reason=request.POST.get("reason", ""),
                explanation=request.POST.get("explanation", ""), metadata=meta),
                _("sent for approval: a cage supervisor decides on the Approvals page"))
        else:
            messages.error(request, f"unknown action {action!r}")
        return redirect("cage:count-room", casino=casino)
    return render(request, "cage/count_room.html", {
        "casino": _found(lambda: selectors.casino_get(casino)),
        "rows": pit_selectors.count_room_list(casino=casino),
        "cash_fields": cash_fields, "reasons": DROP_VARIANCE.reasons,
        "can_act": bool(held & set(CAGE_ROLES)), "key": _key(),
    })
