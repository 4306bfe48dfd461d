"""A command's first append goes after the head its first round trip read with the casino's
lock (ADR 0010): when another casino appends in between, the append's INSERT finds the store's
last position moved, and the store appends again after the new head, hashed anew, with the
projections' writes and the idempotency record once. Real connections race on PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

import eventstore
from eventstore import store
from eventstore.commands import command
from eventstore.models import CommandRecord
from eventstore.records import Metadata
from eventstore.store import append_lock_key
from eventstore.verify import verify_casino_chain, verify_chain

from .conftest import counted
from .test_casino_chains import _in_thread, _lock_held, _until

pytestmark = pytest.mark.django_db(transaction=True)


@command("register_after_a_wait")
def register_after_a_wait(*, code: str, metadata: Metadata, wait: threading.Event | None = None
                          ) -> dict[str, Any]:
    """Waits holding its casino's lock (its head read), then appends twice: a casino's
    registration (a live projection, with the answer) and one count."""
    from casino.events import CasinoRegistered

    if wait is not None:
        wait.wait(10)
    store.append(f"round/{code}", counted(1), expected_version=0, metadata=metadata)
    answer = {"casino": code}
    store.append(f"casino/{code}", [CasinoRegistered(
        code=code, name=code.title(), currency="EUR", time_zone="Europe/Lisbon",
        gaming_day_closes_at=6)], expected_version=0, metadata=metadata, answer=answer)
    return answer


def test_an_append_after_another_casinos_goes_after_it_with_its_projection_and_record_once(
        ) -> None:
    from casino.models import Casino

    release = threading.Event()
    keyed = Metadata(actor="ana", role="admin", casino="porto", idempotency_key="k-1")
    porto, porto_done = _in_thread(register_after_a_wait, code="porto", metadata=keyed,
                                   wait=release)
    with connection.cursor() as cursor:
        assert _until(lambda: _lock_held(cursor, append_lock_key("porto")))
    # Porto read the head (no event yet); Macau records two events meanwhile
    with_macau = Metadata(actor="rui", role="pit_boss", casino="macau")
    macau, macau_done = _in_thread(register_after_a_wait, code="macau", metadata=with_macau)
    macau.join(10)
    assert macau_done == [{"casino": "macau"}]
    release.set()
    porto.join(10)
    assert porto_done == [{"casino": "porto"}]
    assert [(e.position, e.metadata["casino"], e.sequence, e.stream) for e in eventstore.read_all()] \
        == [(1, "macau", 1, "round/macau"), (2, "macau", 2, "casino/macau"),
            (3, "porto", 1, "round/porto"), (4, "porto", 2, "casino/porto")]
    assert sorted(Casino.objects.values_list("code", flat=True)) == ["macau", "porto"]
    assert list(CommandRecord.objects.values_list("casino_id", "idempotency_key")) == [
        ("porto", "k-1")]
    assert verify_chain().ok
    assert verify_casino_chain("porto").ok
    assert verify_casino_chain("macau").ok
