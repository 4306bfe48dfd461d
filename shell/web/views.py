"""Server-rendered screens for cashiers, pit bosses and accountants (thin views).

The home page is the landing page: per casino, the areas the person's roles open (the pit, the
cage, the ledger) and the tools (the Django admin for staff, the API docs for the regulator).
The links come from ``shell.web.navigation``, which the header uses too.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from casino.models import Role
from casino.selectors import casino_roles
from games.web.floor import floor_context
from reporting.web.desk import days_of

from .homes import cage_work
from .navigation import Navigation
from .waiting import Waiting, waiting_for

WAITING_POLL_SECONDS = 20  # how often an open home asks again what waits


def _waiting(nav: Navigation, username: str) -> dict[str, Waiting]:
    return {entry.casino.code: waiting_for(entry.casino.code, nav.roles_in(entry.casino.code),
                                           username) for entry in nav.casinos}


@login_required
def home_waiting(request: HttpRequest, casino: str) -> HttpResponse:
    """What waits for this person in ``casino``, the fragment the home polls (htmx)."""
    nav = Navigation(request.user)
    the_casino = next((e.casino for e in nav.casinos if e.casino.code == casino), None)
    if the_casino is None:  # not a casino of this person (the one jurisdiction rule)
        raise Http404(casino)
    found = waiting_for(casino, nav.roles_in(casino), request.user.get_username())
    return render(request, "casino/_waiting.html", {"work": found, "casino": the_casino,
                                                    "poll": WAITING_POLL_SECONDS})


def _held(request: HttpRequest, role: str) -> list[str]:
    return sorted(code for code, held in casino_roles(request.user).items() if role in held)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Each role's home on one page: the pit boss's floor, the accountant's days and closes
    (the other roles' areas are the links of each casino's card)."""

    nav = Navigation(request.user)
    username = request.user.get_username()
    cage = {entry.casino.code: cage_work(entry.casino.code, nav.roles_in(entry.casino.code),
                                         username) for entry in nav.casinos}
    return render(request, "casino/home.html", {
        "casinos": nav.casinos, "tools": nav.tools, "cage_work": cage,
        "waiting": _waiting(nav, username), "poll": WAITING_POLL_SECONDS,
        "floors": [floor_context(request, code) for code in _held(request, Role.PIT_BOSS)],
        "desks": [days_of(code) for code in _held(request, Role.ACCOUNTANT)]})
