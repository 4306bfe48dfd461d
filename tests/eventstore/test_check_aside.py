"""``rebuild_projections --check`` replays the ledger in memory in a process of its own, on its own
connection, while this one rebuilds the other projections; where that process cannot see what
the check sees, or fails, the ledger is checked here, with the same findings."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from casino.context import system_metadata
from casino.models import Casino
from casino.services.casinos import casino_change_settings
from eventstore import aside, projections
from ledger.models import LedgerSession

from .conftest import connections_now, connections_once_settled

pytestmark = pytest.mark.django_db(transaction=True)




def _no_child_left(pids: list[int]) -> bool:
    """Each of these children was reaped already: none is running or left as a zombie. (Only
    these: the suite's other tests may have children of their own, running or exited.)"""
    assert pids
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)  # (0, 0) running, (pid, status) a zombie reaped here
        except ChildProcessError:
            continue  # no child of ours any more
        return False
    return True


class Forks(list[bool]):
    """Whether each check put its ledger aside; ``pids``, the children it made."""

    def __init__(self) -> None:
        super().__init__()
        self.pids: list[int] = []


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> Forks:
    """Whether each check put its ledger aside. The suite's browser tests leave pytest-django's
    live server thread running for the session, and a process of several threads never forks
    (``aside._only_thread``): this process is taken as single-threaded, as ``manage.py`` is."""
    made = Forks()
    put = aside.put_aside

    def spied(work: Callable[[], Any]) -> aside.Aside[Any] | None:
        found = put(work)
        made.append(found is not None)
        if found is not None:
            made.pids.append(found.pid)
        return found

    monkeypatch.setattr(aside, "_only_thread", lambda: True)
    monkeypatch.setattr(aside, "put_aside", spied)
    return made


def _behind_the_events_back() -> None:
    # Two drifts: a rebuilt table's row and a ledger row that no event posted.
    Casino.objects.filter(code="lisboa").update(gaming_day_closes_at=9)
    LedgerSession.objects.create(session_id="S-behind", casino_id="macau", table="T9",
                                 game="french_roulette", drop_recorded="25.00")


def _found(differences: list[projections.Difference]) -> list[tuple[Any, ...]]:
    return [(d.projection, d.table, d.only_live, d.only_rebuilt) for d in differences
            if d.projection == "ledger"]


EXPECTED_LEDGER = [("ledger", "ledger_session",
                    [("S-behind", "macau", "T9", "french_roulette", "25.00", None, None)], [])]


@pytest.mark.usefixtures("casinos")
def test_the_ledger_is_checked_in_a_process_of_its_own(forks: Forks) -> None:
    before = connections_now()
    assert projections.check() == []
    _behind_the_events_back()
    found = projections.check()
    assert forks == [True, True]
    assert [(d.projection, d.table) for d in found] == [
        ("casino", "casino_casino"), ("ledger", "ledger_session")]
    assert _found(found) == EXPECTED_LEDGER
    assert _no_child_left(forks.pids)
    assert connections_once_settled(before) == before  # the child's connections went with it


@pytest.mark.usefixtures("casinos")
def test_a_process_that_fails_leaves_the_ledger_to_be_checked_here(
        forks: Forks, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    parent = os.getpid()
    replayed = projections._in_memory_differences

    def only_here(in_memory: Any) -> list[projections.Difference]:
        if os.getpid() != parent:
            raise RuntimeError("the child's replay broke")
        return replayed(in_memory)

    monkeypatch.setattr(projections, "_in_memory_differences", only_here)
    _behind_the_events_back()
    with caplog.at_level(logging.WARNING, logger="eventstore.aside"):
        found = projections.check()
    assert forks == [True]
    assert _found(found) == EXPECTED_LEDGER
    assert "the child's replay broke" in caplog.text
    assert _no_child_left(forks.pids)


@pytest.mark.usefixtures("casinos")
def test_uncommitted_events_are_checked_here(forks: Forks) -> None:
    # Inside a transaction that has written, another connection would not see what it wrote:
    # the ledger is checked in this process, drift included.
    with transaction.atomic():
        casino_change_settings(code="macau", name="Casino Lisboa Macau",
                               metadata=system_metadata("macau", job="test"))
        LedgerSession.objects.create(session_id="S-behind", casino_id="macau", table="T9",
                                     game="french_roulette", drop_recorded="25.00")
        found = projections.check()
    assert forks == []
    assert [(d.projection, d.table) for d in found] == [("ledger", "ledger_session")]
    assert _found(found) == EXPECTED_LEDGER


@pytest.mark.usefixtures("casinos")
@pytest.mark.parametrize("step", ["_keep_live", "replay"])
def test_a_check_that_fails_stops_its_process(forks: Forks, step: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # The check fails while its ledger is replayed aside: copying the live rows, or replaying.
    before = connections_now()

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"{step} broke")

    monkeypatch.setattr(projections, step, broken)
    with pytest.raises(RuntimeError, match=f"{step} broke"):
        projections.check()
    assert forks == [True]
    assert _no_child_left(forks.pids)
    assert connections_once_settled(before) == before
    monkeypatch.undo()
    assert projections.check() == []  # nothing was left half done


def test_work_aside_gives_its_value_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    # On the other side of the fork, a value comes back pickled; a failure comes back as None.
    monkeypatch.setattr(aside, "_only_thread", lambda: True)  # as in ``forks``
    done = aside.put_aside(lambda: {"total": 6 * 7, "pid": os.getpid()})
    assert done is not None
    value = done.result()
    assert value is not None
    assert value["total"] == 42
    assert value["pid"] != os.getpid()
    failed = aside.put_aside(lambda: 1 / 0)
    assert failed is not None
    assert failed.result() is None
    assert _no_child_left([done.pid, failed.pid])


def test_a_process_of_several_threads_puts_nothing_aside() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        assert aside.put_aside(lambda: 1) is None
    finally:
        stop.set()
        other.join()
