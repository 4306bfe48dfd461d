"""Each role's links for one casino (``shell.web.navigation``): the tips and the exchange are
shown to the roles that read them (their areas' own rules), and to nobody else."""

from __future__ import annotations

import pytest

from casino.models import Role
from shell.web.navigation import _area_links


# tips: read by the pit boss, the cage, the accountant, the regulator, the administrator;
# the exchange: by the cage, the accountant, the regulator, the administrator (not the pit)
@pytest.mark.parametrize(("role", "areas"), [
    (Role.CASHIER, ["cage", "jackpots", "tips", "exchange", "approvals"]),
    (Role.CAGE_SUPERVISOR, ["cage", "jackpots", "tips", "exchange", "approvals"]),
    (Role.PIT_BOSS, ["floor", "pit", "jackpots", "tips", "approvals"]),
    (Role.ACCOUNTANT, ["desk", "pit", "cage", "ledger", "seals", "jackpots", "tips",
                       "exchange", "approvals"]),
    (Role.REGULATOR, ["pit", "cage", "ledger", "seals", "jackpots", "tips", "exchange",
                      "approvals"]),
    (Role.ADMINISTRATOR, ["pit", "cage", "ledger", "seals", "jackpots", "tips", "exchange",
                          "approvals"]),
    (Role.COMPLIANCE_OFFICER, ["compliance", "approvals"]),
])
def test_each_roles_links(role: str, areas: list[str]) -> None:
    assert [link.area for link in _area_links("macau", {role}, False)] == areas


def test_the_tips_and_exchange_links_lead_to_their_pages() -> None:
    links = {link.area: link.url for link in _area_links("macau", {Role.ACCOUNTANT}, False)}
    assert (links["tips"], links["exchange"]) == ("/tips/macau/", "/exchange/macau/")
