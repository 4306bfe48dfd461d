"""Server-rendered screens for cashiers, pit bosses and accountants (thin views).

The home page is the landing page: per casino, the areas the person's roles open (the pit, the
cage, the ledger) and the tools (the Django admin for staff, the API docs for the regulator).
The links come from ``casino.web.navigation``, which the header uses too.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .navigation import Navigation


@login_required
def home(request: HttpRequest) -> HttpResponse:
    nav = Navigation(request.user)
    return render(request, "casino/home.html", {"casinos": nav.casinos, "tools": nav.tools})
