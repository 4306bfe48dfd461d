"""The language switcher: the same screens in European Portuguese."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("demo")
def test_the_language_switcher_shows_the_portuguese_pages(
        person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    fiscal = person("fiscal")
    assert fiscal.get_by_role("heading", name="Welcome, fiscal").is_visible()
    with fiscal.expect_navigation():  # the select submits its form on change
        fiscal.get_by_label("Language").select_option(label="Português")
    assert fiscal.get_by_role("heading", name="Bem-vindo, fiscal").is_visible()
    assert fiscal.locator("html").get_attribute("lang") == "pt-pt"
    shot(fiscal, "home-fiscal-pt")
    areas = fiscal.get_by_role("navigation", name="Áreas")
    assert areas.get_by_role("link").all_inner_texts() == ["Bancas"]
    assert fiscal.get_by_text("as suas funções: Fiscal de banca").first.is_visible()

    # the choice sticks from page to page
    areas.get_by_role("link", name="Bancas").click()
    assert fiscal.get_by_role("heading", name="Mesas").first.is_visible()
    assert fiscal.get_by_role("columnheader", name="Dia de jogo").first.is_visible()
    fiscal.get_by_role("link", name="Dias de jogo").click()
    assert fiscal.get_by_role("heading", name="Por jogo").first.is_visible()
    shot(fiscal, "pit-gaming-days-pt")

    # and back to English
    with fiscal.expect_navigation():
        fiscal.get_by_label("Idioma").select_option(label="English")
    assert fiscal.get_by_role("heading", name="By game").first.is_visible()
