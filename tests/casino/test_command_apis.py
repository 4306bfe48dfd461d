"""One way to write a command at the API's edge: every operation that records something (a POST)
is a ``CommandApi`` (``edge.api.base``), which reads the role, the casino and the idempotency
key one way, answers with the status its class says and publishes its answer's schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

from edge.api.base import CommandApi


def _views(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _views(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "view_class", None)
            if isinstance(view, type) and issubclass(view, APIView):
                yield prefix + str(pattern.pattern), view


def test_every_api_operation_that_records_is_a_command_api() -> None:
    views = list(_views(get_resolver().url_patterns))
    posts = {path: view for path, view in views if hasattr(view, "post")}
    assert len(posts) > 50  # the cage's, the pit's, compliance, jackpots, approvals
    assert "api/v1/pit/rounds/<uuid:round_id>/settle/" in posts
    assert "api/v1/approvals/<str:approval_id>/grant/" in posts
    # a search that posts, recording nothing: a patron's document stays out of the address
    # (issue 35)
    reads = {"api/v1/compliance/<slug:casino>/patrons/find/"}
    outside = sorted(f"{path}: {view.__name__}" for path, view in posts.items()
                     if not issubclass(view, CommandApi) and path not in reads)
    assert outside == []


def test_the_pits_commands_answer_with_their_own_status() -> None:
    """What records something new answers 201, a change to what exists 200, as before."""
    posts = {path.removeprefix("api/v1/pit/"): view
             for path, view in _views(get_resolver().url_patterns)
             if path.startswith("api/v1/pit/") and hasattr(view, "post")}
    created = {path for path, view in posts.items() if view.created}
    assert len(posts) == 23  # every table operation, and the count room's two
    assert created == {
        "tables/<slug:casino>/<slug:code>/sessions/",
        "tables/<slug:casino>/<slug:code>/capital/",  # a new approval recorded (issue 34)
        "sessions/<uuid:session_id>/drop-box/count/",
        "sessions/<uuid:session_id>/fills/", "sessions/<uuid:session_id>/credits/",
        "sessions/<uuid:session_id>/drops/", "sessions/<uuid:session_id>/colour-chips/",
        "sessions/<uuid:session_id>/rounds/open/", "sessions/<uuid:session_id>/rounds/whole/",
        "rounds/<uuid:round_id>/bets/", "rounds/<uuid:round_id>/jackpot-bets/",
    }
