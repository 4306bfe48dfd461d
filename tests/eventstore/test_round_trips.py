"""A command's first round trip (the append lock, the idempotency look-up and the reads it
declares, in one pipeline): one that fails leaves nothing, and the connection usable. (The
round trips of ``wire.beginning``, ADR 0011's amendment, were counted here until issue 33
removed it.)"""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import DatabaseError, connection
from psycopg import pq

from eventstore import store
from eventstore.commands import run_command
from eventstore.models import CommandRecord, StoredEvent
from eventstore.records import Metadata

from .conftest import counted

pytestmark = pytest.mark.django_db(transaction=True)


def _meta(key: str = "") -> Metadata:
    return Metadata(actor="ana", role="cashier", casino="lisboa", idempotency_key=key)


@pytest.fixture
def raw() -> psycopg.Connection[Any]:
    connection.ensure_connection()
    found: psycopg.Connection[Any] = connection.connection
    return found


def _count(stream: str, key: str) -> None:
    """A command that counts two chips on ``stream``, its answer recorded with its events."""

    def handler() -> dict[str, int]:
        store.append(stream, counted(2), expected_version=0, metadata=_meta(key),
                     answer={"counted": 2})
        return {"counted": 2}

    run_command(command="count", metadata=_meta(key), payload={"stream": stream},
                handler=handler)


def test_a_command_whose_first_round_trip_fails_leaves_nothing_and_the_connection_usable(
        casinos: None, raw: psycopg.Connection[Any]) -> None:
    before = StoredEvent.objects.count()
    with pytest.raises(DatabaseError, match="division by zero"):
        run_command(command="count", metadata=_meta("k-2"), payload={},
                    handler=lambda: {"never": "run"}, reads=[("SELECT 1 / 0", [])])
    assert raw.info.transaction_status == pq.TransactionStatus.IDLE
    assert raw.autocommit
    assert StoredEvent.objects.count() == before
    assert not CommandRecord.objects.filter(idempotency_key="k-2").exists()
    # the next command runs as usual
    _count("cage/C2", "k-2")
    assert StoredEvent.objects.filter(stream="cage/C2").count() == 2


def test_a_pipeline_left_after_its_error_logs_no_driver_warning(
        caplog: pytest.LogCaptureFixture) -> None:
    """An append's pipeline whose statement failed (the guessed head moved, say) raises the
    error at the next statement sent, and is left at once: the caller sees that error, the
    connection stays usable, and the driver logs no "error ignored terminating … pipeline
    aborted" warning, which a cell of several casinos logged at every such retry."""
    import time

    from django.db import transaction

    from eventstore import wire

    def failed_in_its_pipeline() -> None:
        with transaction.atomic():
            early = wire.EarlyPipeline([("SELECT 1 / 0", ())])
            time.sleep(0.3)  # the error's answer is back before the next statement goes
            try:
                early.enqueue([("SELECT 1", ())])
                early.finish([])
            except BaseException as error:
                early.abort(error)
                raise

    with caplog.at_level("WARNING", logger="psycopg"), pytest.raises(DatabaseError) as raised:
        failed_in_its_pipeline()
    assert "division by zero" in str(raised.value)
    assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")] == []
    with connection.cursor() as cursor:
        cursor.execute("SELECT 2")
        assert cursor.fetchone() == (2,)
