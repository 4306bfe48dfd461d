"""A machine's configuration changes, moves, service and retirement: each an event with its
author, the history kept; a retired machine takes no reading."""

from __future__ import annotations

import pytest

from casino.errors import Conflict, InvalidCommand, NotAllowed
from machines.models import Machine, MachineConfigVersion
from machines.services.machines import (
    machine_configure,
    machine_move,
    machine_retire,
    machine_service_set,
)
from machines.services.readings import meter_readings_record

from .conftest import admin, floor, meters, money, person

NEW_TABLE = [{"weight": 850, "pays": 0}, {"weight": 100, "pays": 3},
             {"weight": 35, "pays": 10}, {"weight": 15, "pays": 20}]


def test_a_machines_life_keeps_its_history(make_machine) -> None:
    make_machine("M001")
    with pytest.raises(NotAllowed):  # a pit boss does not configure machines
        machine_configure(casino="lisboa", machine="M001", game="X", paytable=NEW_TABLE,
                          denomination=money("0.10"), hand_pay_limit=money("1200.00"),
                          approved_on="2026-02-01", approval_reference="R2",
                          metadata=person("paulo"))
    answer = machine_configure(casino="lisboa", machine="M001", game="Lucky Stars",
                               paytable=NEW_TABLE, denomination=money("0.10"),
                               hand_pay_limit=money("1200.00"), approved_on="2026-02-01",
                               approval_reference="SRIJ-2026-0077", reason="new game",
                               metadata=admin())
    # (100·3 + 35·10 + 15·20) / 1000 = (300 + 350 + 300) / 1000 = 95.00 %
    assert (answer.config_version, answer.certified_return) == (2, "95.00")
    with pytest.raises(InvalidCommand):  # nothing changes
        machine_configure(casino="lisboa", machine="M001", game="Lucky Stars",
                          paytable=NEW_TABLE, denomination=money("0.10"),
                          hand_pay_limit=money("1200.00"), approved_on="2026-02-01",
                          approval_reference="SRIJ-2026-0077", metadata=admin())
    machine_move(casino="lisboa", machine="M001", bank="B7", position="P70",
                 reason="floor layout", metadata=admin())
    machine_service_set(casino="lisboa", machine="M001", in_service=False,
                        reason="bill validator jammed", metadata=person("paulo"))
    machine_retire(casino="lisboa", machine="M001", reason="end of life",
                   approval_reference="SRIJ-2026-0101", metadata=admin())
    history = list(MachineConfigVersion.objects.filter(machine="M001").order_by("version")
                   .values_list("event_type", "recorded_by"))
    assert history == [("MachineAdded", "gestor"), ("MachineConfigured", "gestor"),
                       ("MachineMoved", "gestor"), ("MachineServiceChanged", "paulo"),
                       ("MachineRetired", "gestor")]
    machine = Machine.objects.get(number="M001")
    assert (machine.bank, machine.game, machine.retired, machine.in_service) == (
        "B7", "Lucky Stars", True, False)
    with pytest.raises(Conflict):
        machine_move(casino="lisboa", machine="M001", bank="B1", position="P1",
                     metadata=admin())
    answer_ = meter_readings_record(casino="lisboa", readings=[
        {"machine": "M001", "reading_id": "r1", "read_at": "2026-12-07T10:00:00Z",
         "meters": meters()}], source="sds", metadata=floor())
    assert answer_.results[0].code == "machine_retired"
