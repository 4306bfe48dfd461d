"""The poker room's screens (server-rendered, thin): the room (its tables with the seats taken
and the waiting lists, its tournaments with their clock), a table (seats, waiting list, the
dealer's hand entry, the last hands), a tournament (its clock, entrants and payouts, the cage's
payment of a prize).

Reading is for the roles of ``pokerroom.roles.READ_ROLES``. Each form posts one action, calls
one service; a refusal re-renders the page with what was typed and nothing recorded; a success
redirects (POST-redirect-GET)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError, InvalidCommand, NotFound
from casino.models import Casino
from casino.selectors import roles_in
from edge.web.acting import command_metadata
from edge.web.money import money_input
from edge.web.refusals import refusal_text
from pokerroom import selectors
from pokerroom.roles import CAGE_ROLES, FLOOR_ROLES, READ_ROLES
from pokerroom.services.tables import (
    poker_hands_record,
    poker_player_seat,
    poker_waitlist_join,
)
from pokerroom.services.tournaments import tournament_prize_pay


def _may_read(request: HttpRequest, casino: str) -> set[str]:
    held = roles_in(request.user, casino)
    if not held & set(READ_ROLES):
        raise PermissionDenied
    return held


def _casino(code: str) -> Casino:
    found = Casino.objects.filter(code=code).first()
    if found is None:
        raise Http404(f"there is no casino {code!r}")
    return found


@login_required
def room(request: HttpRequest, casino: str) -> HttpResponse:
    _may_read(request, casino)
    tables = selectors.table_list(casino)
    waiting = {t.table: len(selectors.table_detail(casino, t.table).waiting) for t in tables}
    return render(request, "pokerroom/room.html", {
        "casino": _casino(casino), "tables": tables, "waiting": waiting,
        "tournaments": selectors.tournament_list(casino)})


def _seats_and_amounts(post: Any, prefix: str) -> dict[str, str]:
    """``prefix_<seat>`` boxes into {seat: amount} (empty boxes left out), amounts as typed in
    the page's language (``money_input``)."""
    out = {}
    for name, value in post.items():
        if name.startswith(prefix) and value.strip():
            out[name[len(prefix):]] = str(money_input(value))
    return out


def _hand_entered(post: Any) -> dict[str, Any]:
    """The dealer's hand entry: each seat's chips in (``in_<seat>``) and won (``won_<seat>``),
    the rake and whether the flop was dealt."""
    return {"contributions": _seats_and_amounts(post, "in_"),
            "awards": _seats_and_amounts(post, "won_"),
            "rake": str(money_input(post.get("rake", "") or "0")),
            "flop_dealt": post.get("flop_dealt") == "on"}


@login_required
@require_http_methods(["GET", "POST"])
def table_screen(request: HttpRequest, casino: str, table: str) -> HttpResponse:
    held = _may_read(request, casino)
    try:
        detail = selectors.table_detail(casino, table)
    except NotFound as error:
        raise Http404(error.message) from None
    refusal, posted = "", {}
    if request.method == "POST":
        p = request.POST
        action = p.get("action", "")
        metadata = command_metadata(request, casino, FLOOR_ROLES, held=held)
        try:
            if action == "hand":
                poker_hands_record(casino=casino, table=table, hands=[_hand_entered(p)],
                                   metadata=metadata)
                done = _("Hand recorded.")
            elif action == "wait":
                poker_waitlist_join(casino=casino, table=table, patron=p.get("patron", ""),
                                    metadata=metadata)
                done = _("Added to the waiting list.")
            elif action == "seat":
                ticket = p.get("ticket", "").strip()
                poker_player_seat(casino=casino, table=table, seat=_int(p.get("seat", ""), "seat"),
                                  patron=p.get("patron", ""),
                                  ticket=_int(ticket, "ticket") if ticket else None, metadata=metadata)
                done = _("Player seated.")
            else:
                raise Http404("no such action")
        except DomainError as error:
            refusal, posted = refusal_text(error), p.dict()
        else:
            messages.success(request, done)
            return redirect("pokerroom:table", casino=casino, table=table)
    return render(request, "pokerroom/table.html", {
        "casino": _casino(casino), "detail": detail, "error": refusal, "posted": posted,
        "may_record": bool(held & set(FLOOR_ROLES)), "key": uuid.uuid4().hex,
        "seat_numbers": range(1, detail.table.seats + 1)})


def _int(value: str, field: str) -> int:
    """A whole number as typed, or the refusal naming the box."""
    if not value.strip().isdigit():
        raise InvalidCommand("{field} is a whole number", params={"field": field}, field=field)
    return int(value)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_screen(request: HttpRequest, casino: str, tournament: str) -> HttpResponse:
    held = _may_read(request, casino)
    try:
        detail = selectors.tournament_detail(casino, tournament)
    except NotFound as error:
        raise Http404(error.message) from None
    refusal, posted = "", {}
    if request.method == "POST":
        p = request.POST
        metadata = command_metadata(request, casino, CAGE_ROLES, held=held)
        try:
            answer = tournament_prize_pay(casino=casino, tournament=tournament,
                                          entry=_int(p.get("entry", ""), "entry"),
                                          patron=p.get("patron", ""), metadata=metadata)
        except DomainError as error:
            refusal, posted = refusal_text(error), p.dict()
        else:
            messages.success(request, _("Prize of place %(place)s paid: %(amount)s.")
                             % {"place": answer.place, "amount": answer.amount})
            return redirect("pokerroom:tournament", casino=casino, tournament=tournament)
    return render(request, "pokerroom/tournament.html", {
        "casino": _casino(casino), "detail": detail, "error": refusal, "posted": posted,
        "may_pay": bool(held & set(CAGE_ROLES)), "key": uuid.uuid4().hex})
