"""The pit's screens (server-rendered, thin): tables, a session with its result and hold check,
a round with its bets, the gaming day by table and by game, missing slip numbers."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.models import Role
from casino.selectors import casino_codes_for
from games import selectors

READ_ROLES = (Role.PIT_BOSS, Role.ACCOUNTANT, Role.REGULATOR, Role.ADMINISTRATOR)


def _casinos(request: HttpRequest) -> list[str]:
    return casino_codes_for(request.user, *READ_ROLES)


def _may_read(request: HttpRequest, casino: str) -> None:
    if casino not in _casinos(request):
        raise PermissionDenied


@login_required
def table_list(request: HttpRequest) -> HttpResponse:
    casinos = [(c, selectors.table_list(casino=c),
                selectors.table_session_list(casino=c)[:50]) for c in _casinos(request)]
    return render(request, "pit/tables.html", {"casinos": casinos})


@login_required
def session_detail(request: HttpRequest, session_id: str) -> HttpResponse:
    session = selectors.table_session_get(session_id=session_id)
    _may_read(request, session.casino_id)
    return render(request, "pit/session.html", {
        "s": session, "rounds": selectors.round_list(session_id=session_id),
        "hold": selectors.session_hold_check(session),
        "slips": selectors.slip_list(casino=session.casino_id).filter(session_id=session_id),
    })


@login_required
def round_detail(request: HttpRequest, round_id: str) -> HttpResponse:
    the_round = selectors.round_get(round_id=round_id)
    _may_read(request, the_round.casino_id)
    return render(request, "pit/round.html", {"r": the_round,
                                              "bets": selectors.bet_list(round_id=round_id)})


@login_required
def gaming_days(request: HttpRequest) -> HttpResponse:
    casinos = [(c, selectors.gaming_day_by_table(casino=c), selectors.gaming_day_by_game(casino=c),
                {k: selectors.slip_missing_numbers(casino=c, kind=k) for k in ("fill", "credit")})
               for c in _casinos(request)]
    return render(request, "pit/gaming_days.html", {"casinos": casinos})
