"""Browser tests: the web admin in headless Chromium (Debian's package), driven by Playwright.

Playwright never downloads a browser here: it launches the executable at CHROMIUM_PATH
(default /usr/bin/chromium). Without it these tests are skipped, saying so; in CI (.ci/run
installs it) a skip fails the run.

``E2E_SCREENSHOTS=/some/folder`` makes ``shot(name)`` save full-page screenshots there, to look
at the pages as a person would.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = os.environ.get("E2E_SCREENSHOTS", "")


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
def new_page(browser: Any, live_server: Any) -> Iterator[Callable[[], Any]]:
    """Another person at another machine: a fresh browser context (its own cookies)."""
    contexts: list[Any] = []

    def make() -> Any:
        context = browser.new_context(base_url=live_server.url, locale="en-GB",
                                      viewport={"width": 1280, "height": 900})
        contexts.append(context)
        tab = context.new_page()
        tab.set_default_timeout(10_000)
        return tab

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[[], Any]) -> Any:
    return new_page()


@pytest.fixture(autouse=True)
def second_factor_enforced(settings: Any) -> None:
    """The browser tests log in as people do: a role that needs a second factor types its
    TOTP code (``log_in_on``; issue 35)."""
    settings.SECOND_FACTOR_ENFORCED = True


def totp_code(key_hex: str, step: int) -> str:
    """RFC 6238's code of ``key_hex`` at time step ``step``, as an authenticator app shows it."""
    from django_otp.oath import TOTP

    totp = TOTP(bytes.fromhex(key_hex), step=30, t0=0, digits=6)
    totp.time = step * 30
    return f"{totp.token():06d}"


def second_factor_on(page: Any, username: str) -> None:
    """On the second-factor page: the code of the person's device (the step after the last one
    it accepted: a code is taken once, and the device allows one step of drift), or, enrolling,
    the code of the secret the page shows."""
    import base64
    import time

    from django_otp.plugins.otp_totp.models import TOTPDevice

    secret = page.locator("[data-secret]")
    if secret.count():
        text = secret.inner_text().strip()
        key = base64.b32decode(text + "=" * (-len(text) % 8)).hex()
        step = int(time.time() // 30)
    else:
        device = TOTPDevice.objects.get(user__username=username, confirmed=True)
        key, step = device.key, max(int(time.time() // 30), (device.last_t or 0) + 1)
    page.get_by_label("Code").fill(totp_code(key, step))
    page.get_by_role("button", name="Verify").click()


def log_in_on(page: Any, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    if "/accounts/second-factor/" in page.url:
        second_factor_on(page, username)


@pytest.fixture
def log_in(page: Any) -> Callable[[str, str], None]:
    def _log_in(username: str, password: str) -> None:
        log_in_on(page, username, password)

    return _log_in


@pytest.fixture
def person(new_page: Callable[[], Any]) -> Callable[[str], Any]:
    """``person("supervisor")``: a page of its own, logged in with the demo password."""

    def make(username: str) -> Any:
        tab = new_page()
        log_in_on(tab, username, f"demo-{username}")
        tab.wait_for_url("**/")
        return tab

    return make


@pytest.fixture
def demo(settings: Any) -> None:
    settings.DEBUG = True  # seed_demo refuses to create demo passwords outside development
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)


@pytest.fixture
def shot() -> Callable[[Any, str], None]:
    def take(page: Any, name: str) -> None:
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)

    return take


def grid(form: Any, name: str) -> Any:
    """A denomination grid of a cage form, by its name (a pattern)."""
    return form.get_by_role("table", name=re.compile(name))


def type_in(form: Any, name: str, pieces: dict[str, int]) -> None:
    """Type ``pieces`` (denomination → count) into the grid ``name`` of ``form``."""
    table = grid(form, name)
    for denomination, n in pieces.items():
        table.get_by_label(denomination, exact=True).fill(str(n))
