"""Two people at once, on two real connections: one wins, the other is refused, nothing doubles.

To make the race certain rather than likely, the test holds the event store's append lock while
both people act: each passes its checks, reads the same state, and waits at the lock; the test
then lets go, and the database decides (the stream's expected version, a unique index).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from cage import services as cage
from cage.models import Shift, ShiftStatus
from casino.errors import Conflict
from eventstore.models import StoredEvent
from eventstore.store import ConcurrencyError, append_lock_key

from .conftest import CASINO, Pit, ana, bruno, whole

pytestmark = pytest.mark.django_db(transaction=True)


def _waiting_for_the_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                       "AND NOT granted")
        return int(cursor.fetchone()[0])


def race(*commands: Callable[[], Any]) -> list[str]:
    """Run ``commands`` on their own connections, all released at the casino's append lock
    together."""
    outcomes: list[str] = []

    def run(name: str, command: Callable[[], Any]) -> None:
        try:
            command()
            outcomes.append(f"{name}:ok")
        except ConcurrencyError:
            outcomes.append(f"{name}:stale")
        except Conflict as error:
            outcomes.append(f"{name}:{error.code}")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(str(i), c)) for i, c in enumerate(commands)]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [append_lock_key(CASINO)])
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while _waiting_for_the_lock() < len(commands) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _waiting_for_the_lock() == len(commands), "the racers never reached the lock"
    for thread in threads:
        thread.join(10)
    return sorted(outcomes)


def test_two_cashiers_closing_the_same_shift_at_once_one_wins(window: str) -> None:
    cage.transfer_send(shift_id=window, to_cage="vault", cash={"100.00": 20, "50.00": 20,
                                                                "20.00": 50, "10.00": 50},
                       chips={"main": {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200}},
                       metadata=ana())
    cage.shift_count(shift_id=window, **whole(), metadata=ana())

    outcomes = race(lambda: cage.shift_close(shift_id=window, metadata=ana()),
                    lambda: cage.shift_close(shift_id=window, metadata=bruno()))

    # Each command reads the shift after the append lock: the second sees it closed and is told
    # so (nothing recorded), rather than finding its stream moved on.
    assert sorted(o.split(":")[1] for o in outcomes) == ["ok", "shift_closed"], outcomes
    assert StoredEvent.objects.filter(stream=f"shift/{window}",
                                      event_type="ShiftClosed").count() == 1
    assert Shift.objects.get(id=window).status == ShiftStatus.CLOSED
    # and a third attempt, later, is told the shift is closed
    with pytest.raises(Conflict, match="closed already"):
        cage.shift_close(shift_id=window, metadata=ana())


def test_two_cashiers_opening_the_same_window_at_once_one_wins(vault: str) -> None:
    outcomes = race(lambda: cage.shift_open(cage="w2", cash={}, metadata=ana()),
                    lambda: cage.shift_open(cage="w2", cash={}, metadata=bruno()))

    assert sorted(o.split(":")[1] for o in outcomes) == ["ok", "shift_open_already"]
    assert Shift.objects.filter(cage="w2").count() == 1
    assert StoredEvent.objects.filter(event_type="ShiftOpened",
                                      data__window="w2").count() == 1


def test_two_windows_issuing_the_same_fill_at_once_one_wins(window: str, pit: Pit) -> None:
    w2 = cage.shift_open(cage="w2", cash={}, metadata=bruno()).shift_id
    from .conftest import carla

    vault = Shift.objects.get(cage="vault", status=ShiftStatus.OPEN)
    cage.transfer_send(shift_id=str(vault.id), to_cage="w2",
                       chips={"main": {"100.00": 10}}, metadata=carla())
    slip = pit.fill({"100.00": 2})

    outcomes = race(lambda: cage.fill_issue(shift_id=window, slip=slip, metadata=ana()),
                    lambda: cage.fill_issue(shift_id=w2, slip=slip, metadata=bruno()))

    # The second window reads the slip after the first issued it: no longer a request.
    assert sorted(o.split(":")[1] for o in outcomes) == ["ok", "slip_not_requested"], outcomes
    assert StoredEvent.objects.filter(event_type="FillIssued", data__slip=slip).count() == 1
