"""The accountant's pages: trial balance, journal, results by table and game, gross gaming
revenue and taxes, and the streamed downloads. Server-rendered, read-only, no JavaScript."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from casino.errors import DomainError, NotAllowed, NotFound
from casino.models import Casino, GamingDaySeal
from casino.money import parse_amount
from casino.selectors import roles_in
from edge.web.acting import command_metadata
from edge.web.history_links import history_url
from edge.web.progress import CloseProgress, answer_text, close_progress, followed_task
from edge.web.refusals import refusal_text
from eventstore.records import Metadata
from games.web.labels import GAMES
from ledger import bank, reports, selectors, tax_return_files, tax_rules, taxes
from ledger.models import DayClose
from reporting import close_report, closes, reconciliation

from ..downloads import close_report_download, journal_download, trial_balance_download
from . import report_words


def _casino(request: HttpRequest, code: str) -> Casino:
    try:
        return selectors.casino_get_for(request.user, code)
    except NotFound:
        raise Http404(code) from None
    except NotAllowed as exc:
        raise PermissionDenied(exc.message) from None


def _today(casino: Casino) -> dt.date:
    return casino.gaming_day(timezone.now())


def _period(request: HttpRequest, casino: Casino) -> tuple[dt.date, dt.date]:
    today = _today(casino)
    try:
        day_from = dt.date.fromisoformat(request.GET.get("from") or today.isoformat())
        day_to = dt.date.fromisoformat(request.GET.get("to") or day_from.isoformat())
        return selectors.period_bounds(day_from, day_to)
    except (ValueError, DomainError):
        raise Http404("the period is two gaming days, YYYY-MM-DD, the first not after the "
                      "last") from None


def _context(request: HttpRequest, casino: Casino, **extra: Any) -> dict[str, Any]:
    """The page's period; one typed wrong (reversed, not a date) is said beside the form, as
    typed, and the page shows today meanwhile."""
    error = ""
    try:
        day_from, day_to = _period(request, casino)
    except Http404:
        day_from = day_to = _today(casino)
        error = _("The period is two gaming days, the first not after the last: correct the "
                  "dates and show again.")
    return {"casino": casino, "day_from": day_from, "day_to": day_to,
            "period_error": error, "typed_from": request.GET.get("from", ""),
            "typed_to": request.GET.get("to", ""),
            "query": f"from={day_from.isoformat()}&to={day_to.isoformat()}", **extra}


@login_required
@require_GET
def casino_list(request: HttpRequest) -> HttpResponse:
    return render(request, "ledger/casinos.html",
                  {"casinos": selectors.casinos_for(request.user)})


@login_required
@require_GET
def overview(request: HttpRequest, casino: str) -> HttpResponse:
    the_casino = _casino(request, casino)
    return render(request, "ledger/overview.html", _context(
        request, the_casino, periods=selectors.period_list(casino=casino)[:31],
        today=_today(the_casino)))


@login_required
@require_GET
def trial_balance_page(request: HttpRequest, casino: str) -> HttpResponse:
    the_casino = _casino(request, casino)
    context = _context(request, the_casino)
    context["report"] = reports.trial_balance(casino=casino, day_from=context["day_from"],
                                              day_to=context["day_to"])
    return render(request, "ledger/trial_balance.html", context)


@login_required
@require_GET
def reconciliation_page(request: HttpRequest, casino: str) -> HttpResponse:
    """The day's reconciliations (``reconcile``), for the day in ``from``."""
    the_casino = _casino(request, casino)
    context = _context(request, the_casino)
    context["report"] = reconciliation.reconcile(casino=casino, gaming_day=context["day_from"])
    return render(request, "ledger/reconciliation.html", context)


CLOSE_PAGE_ROLES = closes.CLOSE_PEOPLE  # the service's rule (reporting.closes)


@login_required
@require_http_methods(["GET", "POST"])
def close_page(request: HttpRequest, casino: str) -> HttpResponse:
    """Close a gaming day by hand: where its close stands, step by step, and the button."""
    held = roles_in(request.user, casino) & set(CLOSE_PAGE_ROLES)
    if not held:
        raise PermissionDenied("closing a gaming day is for the accountant, a cage supervisor "
                               "or an administrator")
    the_casino = Casino.objects.filter(code=casino).first()
    if the_casino is None:
        raise Http404(casino)
    try:
        day = dt.date.fromisoformat(request.POST.get("day") or request.GET.get("day") or "")
    except ValueError:
        day = _today(the_casino) - dt.timedelta(days=1)
    if request.method == "POST":
        task = _send_close(request, casino, day, sorted(held)[0])
        follow = f"&closing={task}" if task else ""
        return redirect(f"{request.path}?day={day.isoformat()}{follow}")
    task = followed_task(request)
    progress = _day_close_progress(casino, day, task) if task else None
    return render(request, "ledger/close.html", {
        "casino": the_casino, "day": day, "key": uuid.uuid4().hex,
        "steps": closes.close_progress(casino=casino, gaming_day=day), "query": "",
        "progress": progress, "refusal": _refused(progress)})


def _refused(progress: CloseProgress | None) -> str:
    if progress is None or progress.state != "refused":
        return ""
    return answer_text(progress.answer, _("the close was refused"))


def _day_close_progress(casino: str, day: dt.date, task: str) -> CloseProgress:
    from reporting.tasks import gaming_day_close_task

    return close_progress(task, app=gaming_day_close_task.app,
                          closed=DayClose.objects.filter(casino_id=casino, day=day).exists())


@login_required
@require_GET
def day_closing(request: HttpRequest, casino: str, task: uuid.UUID) -> HttpResponse:
    """The day close's progress with its steps, polled by the close page (htmx) every second.
    Once it is done, the close page is drawn again (``HX-Redirect``), the answer said."""
    if not roles_in(request.user, casino) & set(CLOSE_PAGE_ROLES):
        raise PermissionDenied(_("closing a gaming day is for the accountant, a cage "
                                 "supervisor or an administrator"))
    the_casino = Casino.objects.filter(code=casino).first()
    if the_casino is None:
        raise Http404(casino)
    try:
        day = dt.date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        raise Http404(_("the gaming day is YYYY-MM-DD")) from None
    progress = _day_close_progress(casino, day, str(task))
    if progress.done and request.headers.get("HX-Request"):
        _say_day_closed(request, day, progress)
        response = HttpResponse(status=200)
        response["HX-Redirect"] = f"{reverse('ledger:close', args=[casino])}?day={day:%Y-%m-%d}"
        return response
    return render(request, "ledger/_close_progress.html", {
        "casino": the_casino, "day": day, "progress": progress, "refusal": _refused(progress),
        "steps": closes.close_progress(casino=casino, gaming_day=day)})


def _say_day_closed(request: HttpRequest, day: dt.date, progress: CloseProgress) -> None:
    done = progress.answer
    if progress.state == "failed":
        messages.error(request, _("the close failed: %(reason)s")
                       % {"reason": done.get("message", "")})
    elif done.get("closed"):
        messages.success(request, (_("gaming day %(day)s closed") if not done.get("already_closed")
                                   else _("gaming day %(day)s was closed already"))
                         % {"day": f"{day:%Y-%m-%d}"})
    else:
        messages.error(request, answer_text(done, _("the close was refused")))


def _send_close(request: HttpRequest, casino: str, day: dt.date, role: str) -> str | None:
    """The close goes to the workers (``ledger.gaming_day_close``) once this request's work is
    committed. Without a broker it runs in process at once and its answer is shown (None is
    returned); with one, the task's id is returned before it is sent (the task is sent with it),
    and the close page follows its progress (``day_closing``) until it is done."""
    from reporting.tasks import gaming_day_close_task

    task = str(uuid.uuid4())
    in_process = bool(gaming_day_close_task.app.conf.task_always_eager)

    def send() -> None:
        sent = gaming_day_close_task.apply_async(
            (casino, day.isoformat(), request.user.get_username(), role), task_id=task)
        if in_process:
            answer = sent.get()
            _say_day_closed(request, day, CloseProgress(
                task, 3, "closed" if answer.get("closed") else "refused", answer))

    transaction.on_commit(send)
    return None if in_process else task
def _day(request: HttpRequest, casino: Casino) -> dt.date:
    try:
        return dt.date.fromisoformat(request.GET.get("day") or _today(casino).isoformat())
    except ValueError:
        raise Http404("the gaming day is YYYY-MM-DD") from None


@login_required
@require_GET
def close_report_page(request: HttpRequest, casino: str) -> HttpResponse:
    """The day's close report (``?day=``, today by default), with its CSV and PDF."""
    the_casino = _casino(request, casino)
    day = _day(request, the_casino)
    report = close_report.close_report(casino=casino, gaming_day=day)
    digest = close_report.report_digest(report)
    seal = GamingDaySeal.objects.filter(casino_id=casino, gaming_day=day).first()
    return render(request, "ledger/close_report.html", {
        "casino": the_casino, "day": day, "report": report, "digest": digest, "seal": seal,
        "as_sealed": seal is not None and seal.report_digest == digest,
        "sections": list(report_words.shown(report, the_casino.time_zone)),
        "query": f"from={day.isoformat()}&to={day.isoformat()}"})


@login_required
@require_GET
def close_report_file(request: HttpRequest, casino: str, file: str) -> StreamingHttpResponse:
    the_casino = _casino(request, casino)
    return close_report_download(casino=casino, gaming_day=_day(request, the_casino), file=file)


@login_required
@require_GET
def journal_page(request: HttpRequest, casino: str) -> HttpResponse:
    the_casino = _casino(request, casino)
    context = _context(request, the_casino)
    entries = selectors.entry_list(casino=casino, day_from=context["day_from"],
                                   day_to=context["day_to"])
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    codes = sorted({line.account_code for entry in page for line in entry.lines.all()})
    context.update(page=page, names=selectors.account_names(casino=casino, codes=codes))
    return render(request, "ledger/journal.html", context)


@login_required
@require_GET
def entry_page(request: HttpRequest, casino: str, number: int) -> HttpResponse:
    the_casino = _casino(request, casino)
    try:
        entry = selectors.entry_get(casino=casino, number=number)
    except NotFound:
        raise Http404(str(number)) from None
    codes = [line.account_code for line in entry.lines.all()]
    return render(request, "ledger/entry.html", {
        "casino": the_casino, "entry": entry, "history": history_url(entry.stream, casino),
        "names": selectors.account_names(casino=casino, codes=codes)})


@login_required
@require_GET
def results_page(request: HttpRequest, casino: str) -> HttpResponse:
    the_casino = _casino(request, casino)
    context = _context(request, the_casino)
    by = request.GET.get("by", "day")
    if by not in ("day", "table", "game"):
        by = "day"

    context.update(by=by, games=GAMES, rows=reports.table_results(
        casino=casino, day_from=context["day_from"], day_to=context["day_to"], by=by))
    return render(request, "ledger/results.html", context)


@login_required
@require_GET
def revenue_page(request: HttpRequest, casino: str) -> HttpResponse:
    the_casino = _casino(request, casino)
    context = _context(request, the_casino)
    context["report"] = reports.gross_gaming_revenue(
        casino=casino, day_from=context["day_from"], day_to=context["day_to"])
    return render(request, "ledger/revenue.html", context)


def _tax_month(request: HttpRequest, casino: Casino) -> str:
    text = (request.GET.get("month") or request.POST.get("month")
            or _today(casino).strftime("%Y-%m"))
    try:
        taxes.month_of(text)
    except DomainError:
        raise Http404("the month is YYYY-MM") from None
    return text


TAX_PAGE_ROLES = taxes.TAX_ROLES  # the service's rule (ledger.taxes)


def _accountant(request: HttpRequest, casino: str) -> Metadata | None:
    """The metadata of the posted form's command when the user is an accountant or an
    administrator of ``casino`` (the roles of the tax and bank pages); else None."""
    held = roles_in(request.user, casino)
    if not held & set(TAX_PAGE_ROLES):
        return None
    return command_metadata(request, casino, TAX_PAGE_ROLES, held=held)


def _tax_act(request: HttpRequest, casino: str, month: str) -> str:
    """Record the posted action (a parameter changed, the month accrued, a payment); the
    refusal's text, or "" when recorded."""
    metadata = _accountant(request, casino)
    if metadata is None:
        return _("Changing the gaming-tax rules, accruing and paying are for an accountant or "
                 "an administrator.")
    action = request.POST.get("action", "")
    try:
        if action == "set_parameter":
            try:
                effective = dt.date.fromisoformat(request.POST.get("effective_from", ""))
            except ValueError:
                return _("The day it is in force from is a date (YYYY-MM-DD).")
            taxes.tax_parameter_set(code=request.POST.get("code", ""),
                                    value=request.POST.get("value", ""),
                                    effective_from=effective,
                                    legal_source=request.POST.get("legal_source", ""),
                                    for_casino=request.POST.get("for_casino") == "on",
                                    metadata=metadata)
            messages.success(request, _("The change is recorded."))
        elif action == "accrue":
            taxes.gaming_tax_accrue(casino=casino, month=month, metadata=metadata)
            messages.success(request, _("The month's return is accrued in the ledger."))
        elif action == "pay":
            taxes.gaming_tax_pay(casino=casino, month=month, code=request.POST.get("code", ""),
                                 amount=parse_amount(request.POST.get("amount", ""), field="amount"),
                                 reference=request.POST.get("reference", ""),
                                 metadata=metadata)
            messages.success(request, _("The payment is recorded."))
        else:
            return _("This form is not one of this page's: reload the page.")
    except DomainError as refusal:
        return refusal_text(refusal)
    return ""


@login_required
@require_http_methods(["GET", "POST"])
def gaming_tax_page(request: HttpRequest, casino: str) -> HttpResponse:
    """A month's gaming-tax return (``?month=YYYY-MM``): the daily register of each table, the
    taxes of the month and the year's figures to date, the parameters in force, and every
    change of a parameter with its author and source; as CSV and PDF. An accountant changes a
    parameter, accrues a finished month and records its payments here."""
    the_casino = _casino(request, casino)
    month = _tax_month(request, the_casino)
    error = ""
    if request.method == "POST":
        error = _tax_act(request, casino, month)
        if not error:
            return redirect(f"{request.path}?month={month}")
    the_return = taxes.monthly_return(casino, month)
    zone = next((p.value for p in the_return.parameters if p.code == "pt.zone"), "")
    return render(request, "ledger/gaming_tax.html", {
        "error": error, "key": uuid.uuid4().hex, "casino": the_casino, "month": month,
        "report": the_return, "zone": tax_rules.value_words("pt.zone", zone),
        "tax_names": {line.code: line.name for line in the_return.lines},
        "parameters": [(p, tax_rules.value_words(p.code, p.value))
                       for p in the_return.parameters],
        "history": [(c, tax_rules.BY_CODE[c.code].name if c.code in tax_rules.BY_CODE
                     else c.code, tax_rules.value_words(c.code, c.value))
                    for c in taxes.parameter_history(the_casino)],
        "accruals": selectors.tax_accruals(casino=casino, month=month)})


def _bank_day(request: HttpRequest, name: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(request.POST.get(name, ""))
    except ValueError:
        return None


def _bank_act(request: HttpRequest, casino: str) -> str:
    """Record the posted clearing (a casino cheque the bank paid, a card and cheque batch it
    credited); the refusal's text, or "" when recorded."""
    metadata = _accountant(request, casino)
    if metadata is None:
        return _("Recording what the bank cleared is for an accountant or an administrator.")
    action = request.POST.get("action", "")
    try:
        if action == "present":
            paid_on = _bank_day(request, "paid_on")
            if paid_on is None:
                return _("The day the bank paid the cheque is a date (YYYY-MM-DD).")
            done = bank.casino_cheque_present(
                casino=casino, number=request.POST.get("number", ""),
                amount=parse_amount(request.POST.get("amount", ""), field="amount"),
                bank_reference=request.POST.get("bank_reference", ""), paid_on=paid_on,
                metadata=metadata)
            messages.success(request, _("Casino cheque %(number)s is recorded as paid by the "
                                        "bank.") % {"number": done.number})
        elif action == "settle":
            credited_on = _bank_day(request, "credited_on")
            if credited_on is None:
                return _("The day the bank credited the batch is a date (YYYY-MM-DD).")
            bank.card_cheque_batch_settle(
                casino=casino, amount=parse_amount(request.POST.get("amount", ""), field="amount"),
                bank_reference=request.POST.get("bank_reference", ""),
                credited_on=credited_on, metadata=metadata)
            messages.success(request, _("The batch the bank credited is recorded."))
        else:
            return _("This form is not one of this page's: reload the page.")
    except DomainError as refusal:
        return refusal_text(refusal)
    return ""


@login_required
@require_http_methods(["GET", "POST"])
def bank_page(request: HttpRequest, casino: str) -> HttpResponse:
    """Clearing against the bank: the casino cheques not yet presented, each with its
    "presented" form, and the card and cheque receipts outstanding with the "batch credited"
    form; then what the bank cleared. An accountant or an administrator records; the ledger's
    other readers see."""
    the_casino = _casino(request, casino)
    error = ""
    if request.method == "POST":
        error = _bank_act(request, casino)
        if not error:
            return redirect(request.path)
    return render(request, "ledger/bank.html", {
        "error": error, "key": uuid.uuid4().hex, "casino": the_casino, "query": "",
        "today": _today(the_casino), "clearing": bank.clearing(casino=casino),
        "may_record": bool(roles_in(request.user, casino) & set(TAX_PAGE_ROLES))})


@login_required
@require_GET
def gaming_tax_file(request: HttpRequest, casino: str, file: str) -> HttpResponse:
    the_casino = _casino(request, casino)
    month = _tax_month(request, the_casino)
    the_return = taxes.monthly_return(casino, month)
    name = f"gaming-tax-{casino}-{month}"
    if file == "csv":
        response = HttpResponse("".join(tax_return_files.return_csv(the_return)),
                                content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(tax_return_files.return_pdf(the_return),
                                content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}.{file}"'
    return response


@login_required
@require_GET
def journal_file(request: HttpRequest, casino: str, file: str
                 ) -> StreamingHttpResponse | FileResponse:
    the_casino = _casino(request, casino)
    day_from, day_to = _period(request, the_casino)
    return journal_download(casino=casino, day_from=day_from, day_to=day_to, file=file)


@login_required
@require_GET
def trial_balance_file(request: HttpRequest, casino: str, file: str
                       ) -> StreamingHttpResponse | FileResponse:
    the_casino = _casino(request, casino)
    day_from, day_to = _period(request, the_casino)
    return trial_balance_download(casino=casino, day_from=day_from, day_to=day_to, file=file,
                                  language=get_language() or "en")
