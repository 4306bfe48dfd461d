"""Roles in the browser (issue 35, "roles are events"): the administrator finds the roles screen
from the home, asks for a cage supervisor's role for a cashier covering the post; a second
administrator approves it on the Approvals page; the roles screen shows it held. A cashier's
role is removed with one button (docs/security.md, "Roles are events")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from casino.models import Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_administrators_grant_a_cage_supervisors_role_and_one_removes_a_cashiers(
        demo: None, person: Callable[[str], Any], shot: Callable[[Any, str], None]) -> None:
    gestor = person("gestor")
    gestor.get_by_role("link", name="Roles").first.click()
    gestor.wait_for_url("**/roles/lisboa/")
    gestor.get_by_label("Login", exact=True).fill("caixa2")
    gestor.locator("select[name=role]").select_option("cage_supervisor")
    gestor.get_by_label("Reason").select_option("cover")
    gestor.get_by_label("Explanation").fill("covers the supervisor's leave")
    gestor.get_by_role("button", name="Grant").click()
    gestor.get_by_role("status").get_by_text("Asked: another administrator").wait_for()
    gestor.get_by_text("the Cage supervisor role for caixa2").wait_for()
    assert not Membership.objects.filter(user__username="caixa2", role="cage_supervisor").exists()
    shot(gestor, "roles-asked")

    gestora = person("gestora")
    gestora.goto("/approvals/lisboa/")
    row = gestora.locator("tr[data-approval]", has_text="caixa2")
    row.get_by_role("button", name="Approve").click()
    gestora.get_by_text("Approved and recorded.").wait_for()

    gestor.goto("/roles/lisboa/")
    held = gestor.locator("tr[data-person='caixa2']")
    assert "Cage supervisor" in held.inner_text()
    assert Membership.objects.filter(user__username="caixa2", casino_id="lisboa",
                                     role="cage_supervisor").exists()
    held.get_by_role("button", name="Remove the Cashier role of caixa2", exact=True).click()
    gestor.get_by_text("The role was removed.").wait_for()
    assert not Membership.objects.filter(user__username="caixa2", casino_id="lisboa",
                                         role="cashier").exists()
    shot(gestor, "roles-after")
