"""The accountant's desk: the gaming days and their closes (with the close button, which sends
the close as the close page does), results by day, game and table drawn as charts on the server,
today's gaming-tax page, and exports of the results built by a Celery task with their progress."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from casino.errors import DomainError
from casino.models import Casino
from casino.selectors import roles_in
from edge.web.acting import command_metadata
from edge.web.refusals import refusal_text
from games.models import TableSession
from games.web.labels import game_label
from ledger import reports
from ledger.charts import bar_chart
from ledger.chip_revaluation import REVALUE_ROLES, foreign_chips_revalue
from ledger.models import DayClose, Period, ResultsExport

from ..results_export import CONTENT_TYPES, FORMATS, file_name, results_export_request
from .views import CLOSE_PAGE_ROLES, _casino, _today

DAYS_SHOWN = 14


def _game(code: str) -> str:
    return str(game_label(code))


def _days(casino: Casino) -> list[dict[str, Any]]:
    today = _today(casino)
    days = [today - dt.timedelta(days=n) for n in range(DAYS_SHOWN)]
    closes = {c.day: c for c in DayClose.objects.filter(casino_id=casino.code, day__in=days)}
    periods = set(Period.objects.filter(casino_id=casino.code, day__in=days)
                  .values_list("day", flat=True))
    return [{"day": d, "close": closes.get(d), "period_closed": d in periods,
             "today": d == today} for d in days]


def _charts(casino: str, day_from: dt.date, day_to: dt.date) -> list[tuple[str, Any]]:
    by_day = reports.table_results(casino=casino, day_from=day_from, day_to=day_to, by="day")
    totals: dict[dt.date, Decimal] = {}
    for r in by_day:
        if r.day is not None:
            totals[r.day] = totals.get(r.day, Decimal(0)) + r.win
    by_game = reports.table_results(casino=casino, day_from=day_from, day_to=day_to, by="game")
    by_table = reports.table_results(casino=casino, day_from=day_from, day_to=day_to,
                                     by="table")
    return [
        ("day", bar_chart([(d.isoformat(), w) for d, w in sorted(totals.items())])),
        ("game", bar_chart([(_game(r.game), r.win) for r in by_game])),
        ("table", bar_chart([(r.table, r.win) for r in by_table])),
    ]


def days_of(casino: str) -> dict[str, Any]:
    """The days and their closes of ``casino``, for the accountant's home."""
    the_casino = Casino.objects.get(code=casino)
    return {"casino": the_casino, "days": _days(the_casino)[:7]}


@login_required
@require_http_methods(["GET", "POST"])
def desk(request: HttpRequest, casino: str) -> HttpResponse:
    the_casino = _casino(request, casino)
    today = _today(the_casino)
    if request.method == "POST":
        if request.POST.get("action") == "revalue_chips":
            return _revalue_chips(request, the_casino)
        return _export(request, the_casino)
    day_from = today - dt.timedelta(days=DAYS_SHOWN - 1)
    return render(request, "ledger/desk.html", {
        "casino": the_casino, "today": today, "days": _days(the_casino),
        "may_close": bool(roles_in(request.user, casino) & set(CLOSE_PAGE_ROLES)),
        "charts": _charts(casino, day_from, today), "day_from": day_from, "day_to": today,
        "query": f"from={day_from.isoformat()}&to={today.isoformat()}",
        "tax_query": f"from={today.isoformat()}&to={today.isoformat()}",
        "exports": ResultsExport.objects.filter(casino_id=casino).defer("content")[:10],
        "formats": FORMATS, "key": uuid.uuid4().hex,
        # a casino with tables in a foreign currency: its chips revalued at the day's end
        "may_revalue_chips": bool(roles_in(request.user, casino) & set(REVALUE_ROLES))
        and TableSession.objects.filter(casino_id=casino).exclude(currency="").exists()})


def _revalue_chips(request: HttpRequest, casino: Casino) -> HttpResponse:
    """The foreign chips in players' hands revalued at the rate in force (``docs/currencies.md``):
    the answer, or the refusal, said on the desk."""
    metadata = command_metadata(request, casino.code, [r for r in REVALUE_ROLES
                                                       if r != "system"])
    try:
        done = foreign_chips_revalue(metadata=metadata)
    except DomainError as error:
        messages.error(request, refusal_text(error))
    else:
        messages.success(request, "; ".join(
            _("%(currency)s chips in players' hands: %(before)s → %(after)s (%(difference)s)")
            % {"currency": r.currency, "before": r.book_before, "after": r.book_after,
               "difference": r.difference} for r in done.revaluations))
    return redirect("ledger:desk", casino=casino.code)


def _export(request: HttpRequest, casino: Casino) -> HttpResponse:
    """Ask for an export: its record now, its task once the request's work is committed."""
    from ..tasks import results_export_task

    file_format = request.POST.get("format", "")
    try:
        day_from = dt.date.fromisoformat(request.POST.get("from", ""))
        day_to = dt.date.fromisoformat(request.POST.get("to", ""))
    except ValueError:
        day_from = day_to = _today(casino)
    if file_format not in FORMATS:
        file_format = "csv"
    if day_to < day_from:
        day_from, day_to = day_to, day_from
    export = results_export_request(casino=casino.code, file_format=file_format,
                                    day_from=day_from, day_to=day_to,
                                    requested_by=request.user.get_username(),
                                    language=get_language() or "en")
    transaction.on_commit(lambda: results_export_task.delay(str(export.export_id)))
    return redirect(reverse("ledger:export", args=[casino.code, export.export_id]))


def _export_of(request: HttpRequest, casino: str, export_id: uuid.UUID) -> ResultsExport:
    _casino(request, casino)
    export = ResultsExport.objects.filter(casino_id=casino, export_id=export_id).defer(
        "content").first()
    if export is None:
        raise Http404(str(export_id))
    return export


@login_required
@require_GET
def export_page(request: HttpRequest, casino: str, export_id: uuid.UUID) -> HttpResponse:
    """The export's progress, polled by the page until its file is ready."""
    export = _export_of(request, casino, export_id)
    template = "ledger/_export.html" if request.GET.get("fragment") else "ledger/export.html"
    percent = (100 * export.rows_done // export.rows_total) if export.rows_total else (
        100 if export.status == ResultsExport.Status.DONE else 0)
    return render(request, template, {
        "casino": _casino(request, casino), "export": export, "percent": percent,
        "done": export.status == ResultsExport.Status.DONE, "name": file_name(export),
        "query": ""})


@login_required
@require_GET
def export_file(request: HttpRequest, casino: str, export_id: uuid.UUID) -> HttpResponse:
    export = _export_of(request, casino, export_id)
    if export.status != ResultsExport.Status.DONE:
        raise Http404("the file is not ready yet")
    content = ResultsExport.objects.values_list("content", flat=True).get(pk=export.pk)
    response = HttpResponse(bytes(content or b""), content_type=CONTENT_TYPES[export.file_format])
    response["Content-Disposition"] = f'attachment; filename="{file_name(export)}"'
    return response
