"""One shape of command (``eventstore.commands.command``): the append lock first, keyed or
not; one unit of work per command; every refusal a ``Conflict``; a lost race reported by
PostgreSQL a retryable 409 with nothing recorded."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection

from casino.errors import ConcurrentChange, Conflict, DomainError
from edge.api.errors import exception_handler
from eventstore import store, unit
from eventstore.commands import IdempotencyConflict, command
from eventstore.models import CommandRecord, StoredEvent
from eventstore.records import Metadata
from eventstore.store import ConcurrencyError, DuplicateCommand, append_lock_key
from eventstore.verify import verify_chain

from .conftest import counted

pytestmark = pytest.mark.django_db(transaction=True)

DEADLOCK = "DO $$ BEGIN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END $$"
SERIALIZATION = ("DO $$ BEGIN RAISE EXCEPTION 'could not serialize access' "
                 "USING ERRCODE = '40001'; END $$")


def _meta(key: str = "") -> Metadata:
    return Metadata(actor="ana", role="cashier", casino="lisboa", idempotency_key=key)


def _advisory_locks_held() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                       "AND pid = pg_backend_pid() AND objid = %s",
                       [append_lock_key("lisboa") & 0xFFFFFFFF])
        return int(cursor.fetchone()[0])


@command("count_then_fail")
def count_then_fail(*, failure: str, metadata: Metadata) -> dict[str, object]:
    store.append("cage/C1", counted(1), expected_version=0, metadata=metadata)
    with connection.cursor() as cursor:
        cursor.execute(failure)
    return {"counted": 1}


@pytest.mark.parametrize("failure", [DEADLOCK, SERIALIZATION], ids=["deadlock", "serialization"])
@pytest.mark.parametrize("key", ["", "k-1"], ids=["unkeyed", "keyed"])
def test_a_lost_race_reported_by_postgresql_is_a_retryable_conflict_with_nothing_recorded(
        failure: str, key: str) -> None:
    with pytest.raises(ConcurrentChange) as caught:
        count_then_fail(failure=failure, metadata=_meta(key))

    assert isinstance(caught.value, Conflict)
    assert caught.value.http_status == 409
    assert caught.value.as_dict()["code"] == "concurrent_change"
    assert caught.value.extra["retryable"] is True
    assert StoredEvent.objects.count() == 0  # the event appended before it is rolled back
    assert CommandRecord.objects.count() == 0
    assert unit.current() is None


def test_the_api_answers_a_deadlock_with_a_409_in_the_error_shape() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute(DEADLOCK)
    except DatabaseError as error:
        response = exception_handler(error, {})
    assert response is not None
    assert response.status_code == 409
    assert response.data["error"]["code"] == "concurrent_change"
    assert response.data["error"]["extra"] == {"retryable": True}
    assert response["Retry-After"] == "1"


def test_the_store_and_command_refusals_are_conflicts() -> None:
    for error in (ConcurrencyError("round/r1", 3, 4), DuplicateCommand("lisboa", "k"),
                  IdempotencyConflict("k", "chips_sell")):
        assert isinstance(error, Conflict)
        assert isinstance(error, DomainError)
        assert error.http_status == 409
    assert ConcurrencyError("round/r1", 3, 4).code == "concurrent_change"
    assert IdempotencyConflict("k", "chips_sell").as_dict()["extra"] == {"key": "k"}


@command("probe")
def probe(*, metadata: Metadata) -> dict[str, object]:
    work = unit.current()
    assert work is not None
    return {"in_command": work.in_command, "locks": _advisory_locks_held(),
            "command": work.command}


@pytest.mark.parametrize("key", ["", "k-2"], ids=["unkeyed", "keyed"])
def test_every_command_holds_its_casinos_append_lock_before_its_body_runs(key: str) -> None:
    assert probe(metadata=_meta(key)) == {"in_command": True, "locks": 1, "command": "probe"}
    assert unit.current() is None


@command("outer")
def outer(*, metadata: Metadata) -> dict[str, object]:
    store.append("cage/C1", counted(1), expected_version=0, metadata=metadata)
    inner_answer = probe(metadata=Metadata(actor="ana", role="cashier", casino="lisboa",
                                           idempotency_key="inner"))
    return {"inner": inner_answer["command"]}


def test_a_command_called_by_a_command_is_part_of_its_unit_of_work() -> None:
    assert outer(metadata=_meta("k-3")) == {"inner": "outer"}
    # one record, the outer command's: the inner one ran under the outer's lock and key
    assert list(CommandRecord.objects.values_list("idempotency_key", "command")) == [
        ("k-3", "outer")]


def test_a_refused_command_leaves_no_unit_of_work_behind() -> None:
    @command("refuse")
    def refuse(*, metadata: Metadata) -> dict[str, object]:
        raise Conflict("no", code="refused")

    with pytest.raises(Conflict, match="no"):
        refuse(metadata=_meta("k-4"))
    assert unit.current() is None
    assert CommandRecord.objects.count() == 0


@command("count_on")
def count_on(*, stream: str, refuse: bool = False, metadata: Metadata) -> dict[str, object]:
    store.append(stream, counted(1), expected_version=0, metadata=metadata)
    if refuse:
        raise Conflict("refused after appending", code="refused")
    return {"stream": stream}


def test_commands_nested_in_a_transaction_of_the_callers_each_undo_only_themselves() -> None:
    # Inside the caller's transaction each command has a savepoint of its own (sent with its
    # first round trip, ADR 0011): a refused or failed one leaves nothing, the others stay, and
    # the caller's transaction goes on and commits.
    from django.db import transaction

    with transaction.atomic():
        assert count_on(stream="cage/A", metadata=_meta("n-1")) == {"stream": "cage/A"}
        with pytest.raises(Conflict, match="refused after appending"):
            count_on(stream="cage/B", refuse=True, metadata=_meta("n-2"))
        with pytest.raises(ConcurrentChange):
            count_then_fail(failure=DEADLOCK, metadata=_meta("n-3"))
        assert count_on(stream="cage/D", metadata=_meta()) == {"stream": "cage/D"}
        assert unit.current() is None
    # committed: cage/A's event at position 1, cage/D's at 2 (B's and C1's were undone)
    assert list(StoredEvent.objects.order_by("position").values_list("position", "stream")) == [
        (1, "cage/A"), (2, "cage/D")]
    assert list(CommandRecord.objects.values_list("idempotency_key", flat=True)) == ["n-1"]
    assert _advisory_locks_held() == 0
    assert verify_chain().ok
