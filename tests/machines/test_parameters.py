"""The slot floor's legal parameters as events: the default flagged unverified; an accountant
sets one from a day on, citing the inspection's reference; read as of the day."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from casino.context import person_metadata
from casino.errors import InvalidCommand, NotAllowed
from casino.models import Casino, Role
from machines.models import MachineParameter
from machines.parameters import parameter
from machines.services.handpays import hand_pay_pay, hand_pay_record
from machines.services.parameters import machine_parameter_set

from .conftest import floor, money, person


def accountant() -> object:
    return person_metadata(username="conta", role=Role.ACCOUNTANT, casino="lisboa")


def test_a_parameter_set_by_the_accountant_from_a_day_on(make_machine) -> None:
    casino = Casino.objects.get(code="lisboa")
    today = casino.gaming_day(timezone.now())
    default = parameter(casino, "hand_pay_four_eyes", today)
    assert (default.value, default.verified) == (Decimal("1000.00"), False)  # flagged
    # a cashier may not; a value that is no amount, an unknown name: refused, nothing recorded
    with pytest.raises(NotAllowed):
        machine_parameter_set(casino="lisboa", name="hand_pay_four_eyes", value="2000.00",
                              effective_from=today.isoformat(), reference="SRIJ 12/2026",
                              metadata=person("ana"))
    with pytest.raises(InvalidCommand):
        machine_parameter_set(casino="lisboa", name="hand_pay_four_eyes", value="-1",
                              effective_from=today.isoformat(), reference="SRIJ 12/2026",
                              metadata=accountant())
    with pytest.raises(InvalidCommand):
        machine_parameter_set(casino="lisboa", name="ticket_days", value="7.5",
                              effective_from=today.isoformat(), reference="SRIJ 12/2026",
                              metadata=accountant())
    with pytest.raises(InvalidCommand):
        machine_parameter_set(casino="lisboa", name="coin_colour", value="1",
                              effective_from=today.isoformat(), reference="x",
                              metadata=accountant())
    assert not MachineParameter.objects.exists()
    # from tomorrow on: today keeps the default
    tomorrow = today + dt.timedelta(days=1)
    machine_parameter_set(casino="lisboa", name="hand_pay_four_eyes", value="3000.00",
                          effective_from=tomorrow.isoformat(), reference="SRIJ ofício 77/2026",
                          metadata=accountant())
    assert parameter(casino, "hand_pay_four_eyes", today).value == Decimal("1000.00")
    later = parameter(casino, "hand_pay_four_eyes", tomorrow)
    assert (later.value, later.verified, later.source) == (
        Decimal("3000.00"), True, "SRIJ ofício 77/2026")
    # from today on at 2,000.00: a hand pay of 1,500.00 needs no second person today
    machine_parameter_set(casino="lisboa", name="hand_pay_four_eyes", value="2000.00",
                          effective_from=today.isoformat(), reference="SRIJ ofício 76/2026",
                          metadata=accountant())
    make_machine("M001", limit="1200.00")
    hand_pay_record(casino="lisboa", machine="M001", handpay_id="H1", kind="jackpot",
                    amount=money("1500.00"), machine_event="EV-1", metadata=floor())
    paid = hand_pay_pay(casino="lisboa", handpay_id="H1", window="C1", slip="S-1",
                        metadata=person("ana"))
    assert paid.status == "paid"


def test_a_parameter_through_the_api(casino: str) -> None:
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from casino.models import Membership

    user = get_user_model().objects.create_user(username="conta", password="x")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.ACCOUNTANT)
    client = APIClient()
    client.force_authenticate(user)
    url = "/api/v1/machines/lisboa/parameters/"
    bad = client.post(url, {"name": "ticket_days", "value": "0", "effective_from": "2026-12-01",
                            "reference": "SRIJ 1/2026"}, format="json")
    assert bad.status_code == 400
    done = client.post(url, {"name": "ticket_days", "value": "60",
                             "effective_from": "2026-12-01", "reference": "SRIJ 1/2026"},
                       format="json")
    assert done.status_code == 201, done.content
    assert parameter(Casino.objects.get(code="lisboa"), "ticket_days",
                     dt.date(2026, 12, 2)).value == Decimal("60.00")
