"""The slot floor in the browser: the pit boss sees a machine's win today on the floor's page;
the slot cashier pays a ticket by its validation number, and a ticket paid twice is refused on
the page with nothing recorded."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from casino.context import person_metadata, system_metadata
from casino.models import Role
from casino.money import parse_amount
from machines.models import SlotTicket
from machines.services.machines import machine_add
from machines.services.readings import meter_readings_record
from machines.services.tickets import ticket_issue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

METERS = {"coin_in": "250.00", "coin_out": "180.00", "jackpots": "0.00",
          "cancelled_credits": "0.00", "bills_in": "0.00", "tickets_in": "0.00",
          "tickets_out": "35.50", "progressive_contributions": "0.00", "games_played": 250}


@pytest.fixture
def a_machine(demo: None) -> str:
    admin = person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino="lisboa")
    machine_add(casino="lisboa", machine="E2E1", bank="B99", position="P-E2E", manufacturer="IGT",
                model="S3000", serial="SN-E2E", game="Triple Sevens",
                paytable=[{"weight": 800, "pays": 0}, {"weight": 200, "pays": 4}],
                denomination=parse_amount("0.10"), hand_pay_limit=parse_amount("1200.00"),
                approved_on="2026-01-15", approval_reference="SRIJ-E2E",
                metadata=admin)
    sds = system_metadata("lisboa", job="sds")
    meter_readings_record(casino="lisboa", readings=[
        {"machine": "E2E1", "reading_id": "e1", "read_at": timezone.now().isoformat(),
         "meters": METERS}], source="sds", metadata=sds)
    ticket_issue(casino="lisboa", validation="123456789012345678", machine="E2E1",
                 amount=parse_amount("35.50"), issued_at=timezone.now().isoformat(),
                 metadata=sds)
    return "E2E1"


def test_the_floor_and_a_ticket_paid_at_the_slot_cashier(a_machine: str, person: Any,
                                                         shot: Any) -> None:
    pit = person("fiscal")
    pit.goto("/machines/lisboa/")
    row = pit.get_by_role("row").filter(has_text=a_machine)
    # 250.00 in − 180.00 out = 70.00 won by the machine today
    assert "70.00" in row.inner_text()
    shot(pit, "slot-floor")
    cashier = person("caixa")
    cashier.goto("/machines/lisboa/cashier/")
    cashier.get_by_label("Validation number").fill("123456789012345678")
    cashier.get_by_label("Window").fill("SLOT1")
    cashier.get_by_role("button", name="Pay the ticket").click()
    cashier.wait_for_url("**/machines/lisboa/cashier/")
    ticket = SlotTicket.objects.get(validation="123456789012345678")
    assert (ticket.status, ticket.window, ticket.amount) == ("redeemed", "SLOT1",
                                                             Decimal("35.50"))
    # the same ticket again: refused on the page, nothing more recorded
    cashier.get_by_label("Validation number").fill("123456789012345678")
    cashier.get_by_label("Window").fill("SLOT1")
    cashier.get_by_role("button", name="Pay the ticket").click()
    assert "already" in cashier.get_by_role("alert").first.inner_text()
    shot(cashier, "slot-cashier")
