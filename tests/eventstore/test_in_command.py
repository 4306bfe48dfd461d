"""One way to write a command: a service is a ``@command``; a step that works only inside one
(it relies on the command's append lock and unit of work) is an ``@in_command`` helper, which
refuses to run outside a command instead of writing without the lock."""

from __future__ import annotations

import pytest

import cage.services
import compliance.services
import games.services
import jackpots.services
import reporting.closes
from casino.models import Approval
from casino.services.approvals import PROCEDURES
from eventstore.commands import command, in_command
from eventstore.records import Metadata
from games.models import Table
from games.services.jackpot_bets import round_options
from jackpots.services._common import pool_for_update

pytestmark = pytest.mark.django_db(transaction=True)

AREAS = (cage.services, compliance.services, games.services, jackpots.services, reporting.closes)


def _meta() -> Metadata:
    return Metadata(actor="ana", role="cashier", casino="lisboa")


@in_command
def _step(value: int) -> int:
    return value + 1


@command("step_take")
def _step_take(*, value: int, metadata: Metadata) -> dict[str, int]:
    return {"value": _step(value)}


def test_a_step_runs_inside_its_command_and_is_refused_outside_one() -> None:
    assert _step_take(value=1, metadata=_meta()) == {"value": 2}
    with pytest.raises(TypeError, match="_step runs only inside a command"):
        _step(1)


def test_every_approval_procedure_is_two_steps_of_its_pair_of_commands() -> None:
    """``prepare`` runs inside ``approval_request``, ``apply`` inside ``approval_grant``: called
    alone, each is refused before it reads or writes anything."""
    assert AREAS  # their services register the kinds
    assert {"round_void", "slip_void", "late_slip", "table_variance", "drop_variance",
            "late_fill", "jackpot_meter_correction", "pep_movement",
            "patron_correction"} <= set(PROCEDURES)
    for kind, procedure in PROCEDURES.items():
        with pytest.raises(TypeError, match="runs only inside a command"):
            procedure.prepare("subject", {}, _meta())
        with pytest.raises(TypeError, match="runs only inside a command"):
            procedure.apply(Approval(kind=kind), _meta())


def test_the_steps_that_rely_on_the_commands_append_lock_take_none_of_their_own() -> None:
    """The jackpot pool read for a write and a round's options read the pool under the append
    lock: the command's. Outside a command they are refused, not locked on their own."""
    with pytest.raises(TypeError, match="pool_for_update runs only inside a command"):
        pool_for_update("lisboa", "pool-1")
    with pytest.raises(TypeError, match="round_options runs only inside a command"):
        round_options(Table(casino_id="lisboa", code="BJ1", game="blackjack"))
