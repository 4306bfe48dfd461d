"""``rebuild_projections --check`` replays the ledger in memory, in its own process, from the
rebuild's read of the events on the check's snapshot, and finds a ledger row that no event
posted, as it finds a rebuilt table's drift (ADR 0016; the ledger went to a forked process of
its own from ADR 0013 until issue 33)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

import eventstore
from casino.context import system_metadata
from casino.models import Casino
from casino.services.casinos import casino_change_settings
from eventstore import compare
from ledger.models import LedgerSession

from .conftest import connections_now, connections_once_settled

pytestmark = pytest.mark.django_db(transaction=True)


def _behind_the_events_back() -> None:
    # Two drifts: a rebuilt table's row and a ledger row that no event posted.
    Casino.objects.filter(code="lisboa").update(gaming_day_closes_at=9)
    LedgerSession.objects.create(session_id="S-behind", casino_id="macau", table="T9",
                                 game="french_roulette", drop_recorded="25.00")


def _found(differences: list[eventstore.Difference]) -> list[tuple[Any, ...]]:
    return [(d.projection, d.table, d.only_live, d.only_rebuilt) for d in differences
            if d.projection == "ledger"]


EXPECTED_LEDGER = [("ledger", "ledger_session",
                    [("S-behind", "macau", "T9", "french_roulette", "25.00", None, None)], [])]


@pytest.mark.usefixtures("casinos")
def test_the_ledger_is_checked_beside_the_rebuilt_tables() -> None:
    before = connections_now()
    assert eventstore.check() == []
    _behind_the_events_back()
    found = eventstore.check()
    assert [(d.projection, d.table) for d in found] == [
        ("casino", "casino_casino"), ("ledger", "ledger_session")]
    assert _found(found) == EXPECTED_LEDGER
    assert connections_once_settled(before) == before


@pytest.mark.usefixtures("casinos")
def test_uncommitted_events_are_checked_here() -> None:
    # Inside a transaction that has written, another connection would not see what it wrote:
    # the ledger is checked on this one, drift included.
    with transaction.atomic():
        casino_change_settings(code="macau", name="Casino Lisboa Macau",
                               metadata=system_metadata("macau", job="test"))
        LedgerSession.objects.create(session_id="S-behind", casino_id="macau", table="T9",
                                     game="french_roulette", drop_recorded="25.00")
        found = eventstore.check()
    assert [(d.projection, d.table) for d in found] == [("ledger", "ledger_session")]
    assert _found(found) == EXPECTED_LEDGER


@pytest.mark.usefixtures("casinos")
@pytest.mark.parametrize("step", ["_keep_live", "replay"])
def test_a_check_that_fails_leaves_nothing_half_done(step: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The check fails while it copies the live rows, or while it replays.
    before = connections_now()

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"{step} broke")

    monkeypatch.setattr(compare, step, broken)
    with pytest.raises(RuntimeError, match=f"{step} broke"):
        eventstore.check()
    assert connections_once_settled(before) == before
    monkeypatch.undo()
    assert eventstore.check() == []  # nothing was left half done
