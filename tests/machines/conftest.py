"""Fixtures of the slot floor's tests: a casino in euros with its people, a machine on its
floor, and helpers to read the ledger and build readings."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum

from casino.context import person_metadata, system_metadata
from casino.models import Membership, Role
from casino.money import parse_amount
from casino.services.casinos import casino_register
from eventstore.records import Metadata

CASINO = "lisboa"
# A pay table of 1,000 weights:
PAYTABLE = [{"weight": 800, "pays": 0}, {"weight": 150, "pays": 2},
            {"weight": 40, "pays": 10}, {"weight": 10, "pays": 20}]
# (150·2 + 40·10 + 10·20) / 1000 = (300 + 400 + 200) / 1000 = 90.00 %
PAYTABLE_RETURN = Decimal("90.00")
PEOPLE = {"gestor": Role.ADMINISTRATOR, "paulo": Role.PIT_BOSS, "ana": Role.CASHIER,
          "rui": Role.CASHIER, "sofia": Role.CAGE_SUPERVISOR}


def admin(key: str = "") -> Metadata:
    return person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino=CASINO,
                           idempotency_key=key)


def floor(key: str = "") -> Metadata:
    return system_metadata(CASINO, job="sds", idempotency_key=key)


def person(name: str, key: str = "") -> Metadata:
    return person_metadata(username=name, role=PEOPLE[name], casino=CASINO, idempotency_key=key)


def money(value: str) -> Any:
    return parse_amount(value)


def meters(**values: Any) -> dict[str, Any]:
    """A reading's meters: zero but for ``values`` (amounts as strings)."""
    out: dict[str, Any] = {name: "0.00" for name in (
        "coin_in", "coin_out", "jackpots", "cancelled_credits", "bills_in", "tickets_in",
        "tickets_out", "progressive_contributions")}
    out["games_played"] = 0
    out.update(values)
    return out


def balance(key: str, scope: str = "") -> Decimal:
    """Credit less debit of an account in the ledger's journal (what the casino owes there)."""
    from ledger.chart import account
    from ledger.models import JournalLine

    code = account(key, scope).code
    sums = JournalLine.objects.filter(casino_code=CASINO, account_code=code).aggregate(
        debit=Sum("debit"), credit=Sum("credit"))
    return ((sums["credit"] or Decimal(0)) - (sums["debit"] or Decimal(0))).quantize(
        Decimal("0.01"))


@pytest.fixture
def casino(db: None) -> str:
    casino_register(code=CASINO, name="Casino Lisboa", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=system_metadata(CASINO, job="test"))
    users = get_user_model()
    for name, role in PEOPLE.items():
        user = users.objects.create_user(username=name, password="x")
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return CASINO


MachineMaker = Callable[..., str]


@pytest.fixture
def make_machine(casino: str) -> MachineMaker:
    from machines.services.machines import machine_add

    def make(number: str = "M001", *, pool: str = "", limit: str = "1200.00",
             paytable: list[dict[str, int]] | None = None) -> str:
        machine_add(casino=casino, machine=number, bank="B1", position=f"P{number}",
                    manufacturer="IGT", model="S3000", serial=f"SN{number}",
                    game="Triple Sevens", paytable=paytable or PAYTABLE,
                    denomination=money("0.10"), hand_pay_limit=money(limit),
                    approved_on="2026-01-15", approval_reference="SRIJ-2026-0042",
                    progressive_pool=pool, metadata=admin())
        return number

    return make


def box_in_and_ticket_paid(now: dt.datetime) -> None:
    """At machine M001 and window SLOT1: a reading of 40.00 of notes in (2 x 20.00) and a ticket
    of 15.00 out; the box counted by ana and confirmed by rui into the window (40.00 in), the
    ticket paid at the window by ana (15.00 out)."""
    from machines.services.counts import machine_box_confirm, machine_box_count
    from machines.services.readings import meter_readings_record
    from machines.services.tickets import ticket_issue, ticket_redeem

    meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "a", "read_at": now.isoformat(),
         "meters": meters(coin_in="40.00", coin_out="15.00", bills_in="40.00",
                          tickets_out="15.00", games_played=40, bills={"20.00": 2})}],
        source="sds", metadata=floor())
    machine_box_count(casino="lisboa", machine="M001", drop_id="D1", notes={"20.00": 2},
                      window="SLOT1", metadata=person("ana"))
    machine_box_confirm(casino="lisboa", drop_id="D1", metadata=person("rui"))
    ticket_issue(casino="lisboa", validation="T1", machine="M001", amount=money("15.00"),
                 issued_at=now.isoformat(), metadata=floor())
    ticket_redeem(casino="lisboa", validation="T1", place="cage", window="SLOT1",
                  metadata=person("ana"))
