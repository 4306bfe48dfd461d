from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("demo")
def test_a_cashier_logs_in_and_sees_where_to_work(page: Any, log_in: Callable[[str, str], None],
                                                  shot: Callable[[Any, str], None]) -> None:
    page.goto("/")
    assert "/accounts/login/" in page.url  # nobody acts without logging in
    log_in("caixa", "demo-caixa")
    page.wait_for_url("**/")
    shot(page, "home-caixa")
    lisboa = page.get_by_role("region", name="Casino Lisboa (demo)")
    assert lisboa.get_by_role("link", name="Cage").is_visible()
    # a cashier is shown the cage, not the pit nor the ledger
    assert lisboa.get_by_role("link", name="Pit").count() == 0
    assert lisboa.get_by_role("link", name="Ledger").count() == 0
    areas = page.get_by_role("navigation", name="Areas")
    assert areas.get_by_role("link").all_inner_texts() == ["Cage"]
    assert page.get_by_text("caixa").first.is_visible()


@pytest.mark.usefixtures("demo")
def test_each_role_is_shown_its_areas(person: Callable[[str], Any],
                                      shot: Callable[[Any, str], None]) -> None:
    def areas(tab: Any) -> list[str]:
        texts: list[str] = tab.get_by_role("navigation", name="Areas").get_by_role(
            "link").all_inner_texts()
        return texts

    assert areas(person("fiscal")) == ["Pit"]
    accountant = person("contabilista")
    shot(accountant, "home-contabilista")
    assert areas(accountant) == ["Pit", "Cage", "Ledger"]
    regulator = person("igj")
    assert areas(regulator) == ["Pit", "Cage", "Ledger", "API docs"]
    admin = person("admin")
    assert areas(admin) == ["Pit", "Ledger", "Admin", "API docs"]


@pytest.mark.usefixtures("demo")
def test_a_wrong_password_is_refused_with_a_message(page: Any, log_in: Callable[[str, str], None]) -> None:
    log_in("caixa", "wrong")
    assert page.get_by_role("alert").inner_text().startswith("Your username and password")


@pytest.mark.usefixtures("demo")
def test_a_supervisor_enrols_a_totp_device_in_the_browser_then_logs_in_with_it(
        page: Any, shot: Callable[[Any, str], None]) -> None:
    """Issue 35: the enrolment (a QR code, the secret) and the login with a code, in Chromium."""
    import base64

    from django.contrib.auth import get_user_model
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from casino.models import Membership, Role

    from .conftest import totp_code

    user = get_user_model().objects.create_user("nova", password="a long enough password")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.CAGE_SUPERVISOR)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("nova")
    page.get_by_label("Password").fill("a long enough password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/accounts/second-factor/**")
    assert page.locator("[data-qr] svg").is_visible()
    shot(page, "second-factor-enrolment")
    secret = page.locator("[data-secret]").inner_text().strip()
    key = base64.b32decode(secret + "=" * (-len(secret) % 8)).hex()
    page.get_by_label("Code").fill("000000")
    page.get_by_role("button", name="Verify").click()
    assert page.get_by_role("alert").is_visible()  # a wrong code is refused
    import re
    import time

    page.wait_for_timeout(1500)  # django-otp: a second's wait after a wrong code

    step = int(time.time() // 30)
    page.get_by_label("Code").fill(totp_code(key, step))
    page.get_by_role("button", name="Verify").click()
    page.wait_for_url(re.compile(r"^http://[^/]+/$"))
    assert page.get_by_role("region", name="Casino Lisboa (demo)").is_visible()
    assert TOTPDevice.objects.get(user=user).confirmed

    # the next login asks for a code, not an enrolment
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("nova")
    page.get_by_label("Password").fill("a long enough password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/accounts/second-factor/**")
    assert page.locator("[data-secret]").count() == 0
    page.get_by_label("Code").fill(totp_code(key, step + 1))  # the step after the one used
    page.get_by_role("button", name="Verify").click()
    page.wait_for_url(re.compile(r"^http://[^/]+/$"))
