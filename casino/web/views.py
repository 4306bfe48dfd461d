"""Server-rendered screens for cashiers, pit bosses and accountants (thin views)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.selectors import casino_list_for


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "casino/home.html", {"casinos": casino_list_for(request.user)})
