"""The floor: every open table of a casino as it stands now, the pit boss's home.

The rows are a fragment the page fetches again every few seconds (htmx polling, served from the
installed django-htmx package), so a table's result, drop so far, hold and hold check follow the
rounds as they are settled, whoever records them. The band a table is flagged outside of is the
hold check's (``games.hold.check``, ``docs/floor.md``).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from casino.models import Casino
from games import selectors

from . import labels
from .floor_map import floor_map
from .views import _may_act, _may_read

POLL_SECONDS = 2


def floor_rows(casino: str) -> list[dict[str, object]]:
    return [{"row": row, "game": labels.game_label(row.session.game)}
            for row in selectors.floor(casino=casino)]


def floor_context(request: HttpRequest, casino: str) -> dict[str, object]:
    return {"casino": Casino.objects.get(code=casino), "rows": floor_rows(casino),
            "poll": POLL_SECONDS, "can_act": _may_act(request, casino)}


@login_required
@require_GET
def floor(request: HttpRequest, casino: str) -> HttpResponse:
    _may_read(request, casino)
    return render(request, "pit/floor.html", {**floor_context(request, casino),
                                              "map": floor_map(casino)})


@login_required
@require_GET
def floor_map_fragment(request: HttpRequest, casino: str) -> HttpResponse:
    """The map alone, for the page's polling."""
    _may_read(request, casino)
    return render(request, "pit/_floor_map.html", {
        "casino": Casino.objects.get(code=casino), "map": floor_map(casino)})


@login_required
@require_GET
def floor_fragment(request: HttpRequest, casino: str) -> HttpResponse:
    """The rows alone, for the page's polling."""
    _may_read(request, casino)
    return render(request, "pit/_floor.html", floor_context(request, casino))
