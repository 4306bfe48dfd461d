from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(settings: Any) -> None:
    settings.DEBUG = True  # seed_demo refuses to create demo passwords outside development
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


@pytest.mark.usefixtures("demo")
def test_a_cashier_logs_in_and_sees_the_casinos(page: Any, log_in: Callable[[str, str], None]) -> None:
    page.goto("/")
    assert "/accounts/login/" in page.url  # nobody acts without logging in
    log_in("caixa", "demo-caixa")
    page.wait_for_url("**/")
    assert page.get_by_role("cell", name="Casino Lisboa (demo)").is_visible()
    assert page.get_by_text("caixa").first.is_visible()


@pytest.mark.usefixtures("demo")
def test_a_wrong_password_is_refused_with_a_message(page: Any, log_in: Callable[[str, str], None]) -> None:
    log_in("caixa", "wrong")
    assert page.get_by_role("alert").inner_text().startswith("Your username and password")
