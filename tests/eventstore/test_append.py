"""Appending: versions, concurrency, metadata, idempotency, a follower that never skips."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction

import eventstore
from eventstore import commands, store
from eventstore.commands import IdempotencyConflict
from eventstore.models import CommandRecord, StoredEvent
from eventstore.records import Metadata
from eventstore.store import ConcurrencyError

from .conftest import ChipsCounted, counted

pytestmark = pytest.mark.django_db(transaction=True)


def run_command(*, command: str, metadata: Metadata, payload: object,
                handler: Callable[[], dict[str, object]], in_command: bool = True
                ) -> dict[str, object]:
    """``handler`` as the body of a command named ``command`` (``in_command=False``: as a plain
    transaction that appends outside any command, as a seed or a migration would)."""
    if not in_command:
        with transaction.atomic():
            return handler()

    @commands.command(command)
    def service(*, metadata: Metadata, payload: object) -> dict[str, object]:
        return handler()

    return service(metadata=metadata, payload=payload)


def test_append_numbers_versions_and_positions_and_keeps_metadata(meta: Metadata) -> None:
    with transaction.atomic():
        first = store.append("table/T1", counted(2), expected_version=0, metadata=meta)
    with transaction.atomic():
        second = store.append("table/T1", counted(1, "7.50"), expected_version=2, metadata=meta)
    assert [e.version for e in first + second] == [1, 2, 3]
    assert [e.position for e in first + second] == [1, 2, 3]
    events = eventstore.read_stream("table/T1")
    assert events[2].event == ChipsCounted(table="T0", amount=Decimal("7.50"))
    assert events[0].metadata["actor"] == "ana"
    assert events[0].metadata["role"] == "pit_boss"
    assert events[0].metadata["casino"] == "lisboa"
    assert events[0].data == {"table": "T0", "amount": "10.00"}
    assert events[1].prev_hash == events[0].hash


def test_append_at_a_stale_version_is_refused_and_writes_nothing(meta: Metadata) -> None:
    with transaction.atomic():
        store.append("table/T1", counted(1), expected_version=0, metadata=meta)
    with pytest.raises(ConcurrencyError, match="expected version 0, found 1"), transaction.atomic():
        store.append("table/T1", counted(3), expected_version=0, metadata=meta)
    assert StoredEvent.objects.count() == 1


def test_append_outside_a_transaction_is_refused(meta: Metadata) -> None:
    with pytest.raises(store.EventStoreError, match="transaction"):
        store.append("table/T1", counted(1), expected_version=0, metadata=meta)


def test_two_connections_at_the_same_expected_version_exactly_one_wins(meta: Metadata) -> None:
    outcomes: list[str] = []
    first_holds_lock = threading.Event()
    release_first = threading.Event()

    def writer(name: str, hold: bool) -> None:
        try:
            with transaction.atomic():
                store.append("round/R1", counted(2), expected_version=0, metadata=meta)
                if hold:
                    first_holds_lock.set()
                    release_first.wait(5)
            outcomes.append(f"{name}:ok")
        except ConcurrencyError:
            outcomes.append(f"{name}:conflict")
        finally:
            connection.close()

    a = threading.Thread(target=writer, args=("a", True))
    a.start()
    assert first_holds_lock.wait(5)
    b = threading.Thread(target=writer, args=("b", False))
    b.start()
    time.sleep(0.3)  # b is now blocked behind a's transaction
    release_first.set()
    a.join(10)
    b.join(10)
    assert sorted(outcomes) == ["a:ok", "b:conflict"]
    assert [e.version for e in eventstore.read_stream("round/R1")] == [1, 2]


def test_the_database_refuses_a_second_event_at_the_same_stream_version(meta: Metadata) -> None:
    with transaction.atomic():
        (event,) = store.append("round/R1", counted(1), expected_version=0, metadata=meta)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO event (position, stream, version, event_type, schema_version, data,"
            " metadata, casino_id, recorded_at, prev_hash, hash)"
            " VALUES (2, 'round/R1', 1, 'X', 1, '{}', '{}', '', now(), %s, %s)",
            [event.hash, "f" * 64],
        )


def test_concurrent_appenders_a_follower_by_position_sees_every_event_once(meta: Metadata) -> None:
    writers, batches, per_batch = 4, 15, 3
    done = threading.Event()
    seen: list[int] = []

    def write(w: int) -> None:
        try:
            for b in range(batches):
                with transaction.atomic():
                    store.append(f"shift/W{w}", counted(per_batch),
                                 expected_version=b * per_batch, metadata=meta)
        finally:
            connection.close()

    def follow() -> None:
        after = 0
        try:
            while True:
                finished = done.is_set()
                page = eventstore.read_page(after, 7)
                for e in page:
                    seen.append(e.position)
                    after = e.position
                if finished and not page:
                    return
        finally:
            connection.close()

    follower = threading.Thread(target=follow)
    follower.start()
    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    done.set()
    follower.join(60)
    total = writers * batches * per_batch
    assert seen == list(range(1, total + 1))


def _register(meta: Metadata, amount: str) -> dict[str, object]:
    def handler() -> dict[str, object]:
        (e,) = store.append("cage/C1", [ChipsCounted(table="cage", amount=Decimal(amount))],
                            expected_version=store.stream_version("cage/C1"), metadata=meta)
        return {"position": e.position}

    return run_command(command="count", metadata=meta, payload={"amount": amount}, handler=handler)


def test_the_same_idempotency_key_twice_records_once_and_returns_the_first_answer() -> None:
    meta = Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="k-1")
    first = _register(meta, "5.00")
    again = _register(meta, "5.00")
    assert first == again == {"position": 1}
    assert StoredEvent.objects.count() == 1
    assert CommandRecord.objects.count() == 1


def test_the_same_key_with_a_different_request_is_refused() -> None:
    meta = Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="k-1")
    _register(meta, "5.00")
    with pytest.raises(IdempotencyConflict):
        _register(meta, "6.00")
    assert StoredEvent.objects.count() == 1


def test_the_same_key_in_another_casino_is_a_different_command() -> None:
    _register(Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="k"), "5")
    _register(Metadata(actor="li", role="cashier", casino="macau", idempotency_key="k"), "5")
    assert StoredEvent.objects.count() == 2


def test_racing_retries_of_one_command_record_once() -> None:
    meta = Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="race")
    answers: list[dict[str, object]] = []
    start = threading.Barrier(3)

    def retry() -> None:
        try:
            start.wait(5)
            answers.append(_register(meta, "5.00"))
        finally:
            connection.close()

    threads = [threading.Thread(target=retry) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert answers == [{"position": 1}] * 3
    assert StoredEvent.objects.count() == 1


def _register_answering(meta: Metadata, amount: str, *, returned: object = None,
                        appends: int = 1) -> dict[str, object]:
    """A command whose last append carries its answer (``append(answer=…)``)."""

    def handler() -> dict[str, object]:
        answer = {"amount": amount}
        for _ in range(appends):
            store.append("cage/C1", [ChipsCounted(table="cage", amount=Decimal(amount))],
                         expected_version=store.stream_version("cage/C1"), metadata=meta,
                         answer=answer)
        return answer if returned is None else {"amount": returned}

    return run_command(command="count", metadata=meta, payload={"amount": amount}, handler=handler)


def test_an_answer_given_to_the_append_is_the_idempotency_record() -> None:
    meta = Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="k-2")
    first = _register_answering(meta, "5.00")
    again = _register_answering(meta, "5.00")
    assert first == again == {"amount": "5.00"}
    assert StoredEvent.objects.count() == 1
    record = CommandRecord.objects.get()
    assert (record.idempotency_key, record.command, record.result) == (
        "k-2", "count", {"amount": "5.00"})


@pytest.mark.parametrize("in_command", [False, True], ids=["insert first", "insert last"])
def test_an_answer_at_a_stale_version_records_neither_events_nor_the_record(
        in_command: bool) -> None:
    # The record travels in the event INSERT (a CTE inserting it only if the events go in): a
    # stale version inserts neither, and the swallowed error still leaves nothing behind.
    meta = Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="k-stale")
    with transaction.atomic():
        store.append("cage/C1", counted(1), expected_version=0,
                     metadata=Metadata(actor="ana", role="cashier", casino="lisboa"))

    def handler() -> dict[str, object]:
        answer = {"amount": "5.00"}
        with contextlib.suppress(ConcurrencyError):  # a careless caller
            store.append("cage/C1", counted(1), expected_version=0, metadata=meta, answer=answer)
        return answer

    with transaction.atomic():
        run_command(command="count", metadata=meta, payload={}, handler=handler,
                    in_command=in_command)
    assert StoredEvent.objects.count() == 1
    assert CommandRecord.objects.count() == 0


def test_a_command_returning_another_answer_than_its_append_got_records_nothing() -> None:
    meta = Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="k-3")
    with pytest.raises(store.EventStoreError, match="differs"), transaction.atomic():
        _register_answering(meta, "5.00", returned="6.00")
    assert StoredEvent.objects.count() == 0
    assert CommandRecord.objects.count() == 0


def test_a_command_gives_its_answer_to_one_append_only() -> None:
    meta = Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="k-4")
    with pytest.raises(store.EventStoreError, match="one append"), transaction.atomic():
        _register_answering(meta, "5.00", appends=2)
    assert StoredEvent.objects.count() == 0


def test_a_command_may_append_again_after_the_append_that_carried_its_answer() -> None:
    meta = Metadata(actor="rui", role="cashier", casino="lisboa", idempotency_key="k-5")

    def handler() -> dict[str, object]:
        answer = {"amount": "5.00"}
        store.append("cage/C1", [ChipsCounted(table="cage", amount=Decimal("5.00"))],
                     expected_version=0, metadata=meta, answer=answer)
        store.append("cage/C2", [ChipsCounted(table="cage", amount=Decimal("1.00"))],
                     expected_version=0, metadata=meta)
        return answer

    assert run_command(command="count", metadata=meta, payload={}, handler=handler) == {
        "amount": "5.00"}
    assert sorted(StoredEvent.objects.values_list("stream", flat=True)) == ["cage/C1", "cage/C2"]
    assert CommandRecord.objects.count() == 1


def test_a_stale_version_inside_a_command_leaves_no_projection_row_even_if_swallowed() -> None:
    # Inside a command the INSERT is sent first and runs while the projections do, and its
    # row count is read at the end: when it found the stream moved on, the transaction is marked
    # for rollback, so even a caller that swallows the ConcurrencyError keeps none of the
    # projections' writes.
    from casino.events import CasinoRegistered
    from casino.models import Casino

    keyed = Metadata(actor="rui", role="admin", casino="porto", idempotency_key="k-6")
    caught: list[ConcurrencyError] = []

    def handler() -> dict[str, object]:
        try:
            store.append("casino/porto", [CasinoRegistered(
                code="porto", name="Porto", currency="EUR", time_zone="Europe/Lisbon",
                gaming_day_closes_at=6)], expected_version=3, metadata=keyed)
        except ConcurrencyError as error:
            caught.append(error)
        return {}

    with transaction.atomic():
        run_command(command="register", metadata=keyed, payload={}, handler=handler)

    assert [(e.expected, e.actual) for e in caught] == [(3, 0)]
    assert StoredEvent.objects.count() == 0
    assert CommandRecord.objects.count() == 0
    assert not Casino.objects.filter(code="porto").exists()


def test_an_insert_the_database_refuses_while_the_projections_run_records_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The INSERT runs on the server while the projections run here (an early pipeline); the
    # casino projection writes through the ORM, which first ends the pipeline and so meets the
    # chain trigger's refusal: the error surfaces, and nothing at all is kept.
    from casino.events import CasinoRegistered
    from casino.models import Casino

    real = store._head_for_append

    def broken_chain(metadata: Metadata, scope: object) -> object:
        head = real(metadata, scope)  # type: ignore[arg-type]
        return store.Head(head.position, head.sequence, "f" * 64)

    monkeypatch.setattr(store, "_head_for_append", broken_chain)
    keyed = Metadata(actor="rui", role="admin", casino="porto", idempotency_key="k-7")

    def handler() -> dict[str, object]:
        store.append("casino/porto", [CasinoRegistered(
            code="porto", name="Porto", currency="EUR", time_zone="Europe/Lisbon",
            gaming_day_closes_at=6)], expected_version=0, metadata=keyed, answer={})
        return {}

    with pytest.raises(IntegrityError, match="does not chain"), transaction.atomic():
        run_command(command="register", metadata=keyed, payload={}, handler=handler)
    assert StoredEvent.objects.count() == 0
    assert CommandRecord.objects.count() == 0
    assert not Casino.objects.filter(code="porto").exists()


def test_an_append_outside_any_command_is_refused_before_any_projection_runs() -> None:
    # Outside a command (whose reads may predate the lock) the INSERT goes first, so a stale
    # version is the error the caller sees, never a projection's.
    from casino.events import CasinoRegistered
    from casino.models import Casino

    keyed = Metadata(actor="rui", role="admin", casino="porto", idempotency_key="k-7")
    projected: list[bool] = []

    def handler() -> dict[str, object]:
        try:
            store.append("casino/porto", [CasinoRegistered(
                code="porto", name="Porto", currency="EUR", time_zone="Europe/Lisbon",
                gaming_day_closes_at=6)], expected_version=3, metadata=keyed)
        except ConcurrencyError:
            projected.append(Casino.objects.filter(code="porto").exists())
            raise
        return {}

    with pytest.raises(ConcurrencyError, match="expected version 3, found 0"), \
            transaction.atomic():
        run_command(command="register", metadata=keyed, payload={}, handler=handler,
                    in_command=False)
    assert projected == [False]
    assert StoredEvent.objects.count() == 0
