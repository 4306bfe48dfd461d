"""Browser tests: the web admin in headless Chromium (Debian's package), driven by Playwright.

Playwright never downloads a browser here: it launches the executable at CHROMIUM_PATH
(default /usr/bin/chromium). Without it these tests are skipped, saying so; in CI (.ci/run
installs it) a skip fails the run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: browser tests skipped "
                    "(apt-get install chromium, or set CHROMIUM_PATH)")
    # Playwright's sync API runs an event loop in this thread; the live server's database work
    # happens in its own thread, and the test's own ORM calls are synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    yield tab
    context.close()


@pytest.fixture
def log_in(page: Any) -> Callable[[str, str], None]:
    def _log_in(username: str, password: str) -> None:
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()

    return _log_in
