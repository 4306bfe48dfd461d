"""The Django admin holds configuration only: never an event or a projection."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client

from casino.context import system_metadata
from casino.models import ChipSet
from casino.services.casinos import casino_register
from eventstore.models import StoredEvent

CONFIGURATION = {
    "auth.user", "auth.group", "access.regulatoraccount",  # users, groups, inspectors
    "access.terminalaccount",  # which users are a cage's or a floor's devices (issue 35)
    # django-axes: the logins' lockouts, which the administrator reviews and lifts (users)
    "axes.accessattempt", "axes.accessfailurelog", "axes.accesslog",
    # django-otp: the second factor's devices, which the administrator removes when a phone is
    # lost (the person enrols again at their next login; issue 35)
    "otp_totp.totpdevice",
    "casino.casino", "casino.membership",  # casinos; users' roles
    "casino.chipset",  # chip sets and their denominations
    "cage.cage",  # cages, windows and vaults, their minimum cash
    "games.table", "games.dropdefinition",  # tables and their limits, the drop's definition
    "jackpots.jackpotpool",  # jackpots
}


def test_the_admin_registers_configuration_and_nothing_else() -> None:
    registered = {f"{m._meta.app_label}.{m._meta.model_name}" for m in admin.site._registry}
    assert registered == CONFIGURATION


@pytest.mark.django_db
def test_a_chip_set_added_in_the_admin_is_an_event(admin_client: Client) -> None:
    casino_register(code="porto", name="Casino Porto", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("porto", job="test"))
    admin_client.post("/admin/casino/chipset/add/", {
        "casino": "porto", "code": "main", "name": "Value chips",
        "denominations": "100, 25, 5, 2.50"})
    chip_set = ChipSet.objects.get(casino_id="porto", code="main")
    assert [str(d) for d in chip_set.denominations] == ["100.00", "25.00", "5.00", "2.50"]
    assert StoredEvent.objects.filter(stream="chipset/porto.main").count() == 1
    assert admin_client.get("/admin/casino/chipset/").status_code == 200
