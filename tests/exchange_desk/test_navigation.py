"""Each role's links for one casino (``shell.web.navigation``): the exchange and the tips are
shown to the roles that read them (each area's own rule), and to nobody else."""

from __future__ import annotations

import pytest

from casino.models import Role
from shell.web.navigation import _area_links


# the exchange: read by the cage, the accountant, the regulator, the administrator (not the
# pit boss, not compliance); the tips: by the pit boss too (not compliance)
@pytest.mark.parametrize(("role", "areas"), [
    (Role.CASHIER, ["cage", "jackpots", "pokerroom", "machines", "exchange", "tips",
                    "approvals"]),
    (Role.CAGE_SUPERVISOR, ["cage", "jackpots", "pokerroom", "machines", "exchange", "tips",
                            "approvals"]),
    (Role.PIT_BOSS, ["floor", "pit", "jackpots", "pokerroom", "machines", "tips",
                     "approvals"]),
    (Role.ACCOUNTANT, ["desk", "pit", "cage", "ledger", "seals", "jackpots", "pokerroom",
                       "machines", "exchange", "tips", "approvals"]),
    (Role.REGULATOR, ["pit", "cage", "ledger", "seals", "jackpots", "exchange", "tips",
                      "approvals"]),
    (Role.ADMINISTRATOR, ["pit", "cage", "ledger", "seals", "jackpots", "pokerroom", "machines",
                          "exchange", "tips", "roles", "approvals"]),
    (Role.COMPLIANCE_OFFICER, ["compliance", "approvals"]),
])
def test_each_roles_links(role: str, areas: list[str]) -> None:
    assert [link.area for link in _area_links("macau", {role}, False)] == areas


def test_the_exchange_link_leads_to_its_page() -> None:
    links = {link.area: link.url for link in _area_links("macau", {Role.ACCOUNTANT}, False)}
    assert links["exchange"] == "/exchange/macau/"


def test_the_tips_link_leads_to_their_page() -> None:
    links = {link.area: link.url for link in _area_links("lisboa", {Role.PIT_BOSS}, False)}
    assert links["tips"] == "/tips/lisboa/"
