"""The API docs in a browser with no internet: Swagger UI draws the regulator's operations
from scripts the site serves itself (issue 16: the page was blank offline, its script on a CDN)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_swagger_ui_shows_the_regulators_api_with_the_internet_cut_off(
        new_page: Callable[[], Any], live_server: Any, shot: Callable[[Any, str], None]) -> None:
    page = new_page()
    outside: list[str] = []

    def only_this_site(route: Any) -> None:
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_site)
    page.goto("/api/regulator/v1/docs/")
    page.locator(".opblock-summary-path").first.wait_for()
    shot(page, "api-docs-regulator")
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/regulator/v1/casinos/{casino}/events/" in [p.replace("\u200b", "")
                                                            for p in paths]
    assert outside == []
