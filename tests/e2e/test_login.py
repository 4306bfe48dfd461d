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
