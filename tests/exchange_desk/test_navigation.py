"""Each role's links for one casino (``shell.web.navigation``): the exchange is shown to the
roles that read it (its area's own rule), and to nobody else."""

from __future__ import annotations

import pytest

from casino.models import Role
from shell.web.navigation import _area_links


# the exchange: read by the cage, the accountant, the regulator, the administrator (not the
# pit boss, not compliance)
@pytest.mark.parametrize(("role", "areas"), [
    (Role.CASHIER, ["cage", "jackpots", "pokerroom", "machines", "exchange", "approvals"]),
    (Role.CAGE_SUPERVISOR, ["cage", "jackpots", "pokerroom", "machines", "exchange",
                            "approvals"]),
    (Role.PIT_BOSS, ["floor", "pit", "jackpots", "pokerroom", "machines", "approvals"]),
    (Role.ACCOUNTANT, ["desk", "pit", "cage", "ledger", "seals", "jackpots", "pokerroom",
                       "machines", "exchange", "approvals"]),
    (Role.REGULATOR, ["pit", "cage", "ledger", "seals", "jackpots", "exchange", "approvals"]),
    (Role.ADMINISTRATOR, ["pit", "cage", "ledger", "seals", "jackpots", "pokerroom", "machines",
                          "exchange", "roles", "approvals"]),
    (Role.COMPLIANCE_OFFICER, ["compliance", "approvals"]),
])
def test_each_roles_links(role: str, areas: list[str]) -> None:
    assert [link.area for link in _area_links("macau", {role}, False)] == areas


def test_the_exchange_link_leads_to_its_page() -> None:
    links = {link.area: link.url for link in _area_links("macau", {Role.ACCOUNTANT}, False)}
    assert links["exchange"] == "/exchange/macau/"
