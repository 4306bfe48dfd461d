"""Idempotent commands: a retried command returns its first answer and records nothing new.

A command with an idempotency key runs at most once per casino. The first run's answer is kept in
``command_record`` beside its events, in the same transaction; a retry with the same key and the
same request gets that answer back; the same key with a different request is refused.

Two racing retries: each takes the append lock before it looks the key up, so the second waits
until the first commits, then finds the key and returns the first answer without running.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

from casino import prepared

from .hashing import canonical_json, canonical_text
from .models import CommandRecord
from .store import EventStoreError, Metadata, end_command_scope, lock_and_find_command

Result = dict[str, Any]


class IdempotencyConflict(Exception):
    """The key was used before for a different command or request. Nothing was recorded."""

    def __init__(self, key: str, command: str) -> None:
        self.key = key
        self.command = command
        super().__init__(
            f"idempotency key {key!r} was already used for a different request ({command}); "
            "use a new key for a new command"
        )


def fingerprint(command: str, payload: Any) -> str:
    return hashlib.sha256(canonical_json({"command": command, "payload": payload})).hexdigest()


def _replay(record: CommandRecord, command: str, digest: str) -> Result:
    if record.command != command or record.fingerprint != digest:
        raise IdempotencyConflict(record.idempotency_key, record.command)
    result: Result = record.result
    return result


def _record(casino: str, row: tuple[Any, ...]) -> CommandRecord:
    key, command, digest, result = row
    return CommandRecord(casino_id=casino, idempotency_key=key, command=command,
                         fingerprint=digest,
                         result=json.loads(result) if isinstance(result, str) else result)


# The command's record, inserted with its last append's events (``store.append(answer=…)``,
# the same columns) or after its handler: the key was looked up under the append lock the
# transaction still holds, so no twin can have recorded it meanwhile; a plain INSERT, which
# would fail loudly if one had.
_RECORD_SQL = """
INSERT INTO command_record (casino_id, idempotency_key, command, fingerprint, result, recorded_at)
VALUES (%s, %s, %s, %s, %s::jsonb, now())
"""


class _AnswerSlot:
    """The running command's identity, for ``store.append(answer=…)`` (``store.AnswerSlot``)."""

    def __init__(self, casino: str, key: str, command: str, digest: str) -> None:
        self.casino, self.key, self.command, self.digest = casino, key, command, digest
        self.answered: Any = None

    def statement(self, answer: Any) -> tuple[str, list[Any]]:
        return _RECORD_SQL, self.values(answer)

    def values(self, answer: Any) -> list[Any]:
        return [self.casino, self.key, self.command, self.digest, canonical_text(answer)]


def run_command(
    *,
    command: str,
    metadata: Metadata,
    payload: Any,
    handler: Callable[[], Result],
    reads_under_lock: bool = False,
    read_ahead: Sequence[prepared.Statement] = (),
) -> Result:
    """Run ``handler`` once per ``metadata.idempotency_key`` (always, when there is no key).

    The handler appends its events with this ``metadata`` and returns a JSON-able answer. Runs in
    the caller's transaction when there is one (services are ``@transaction.atomic``).

    ``reads_under_lock``: the handler reads, after the lock, everything its events depend on
    (the stream versions it appends at included), as the pit's services do; its INSERTs may then
    wait for the live projections and share their round trip (``store.append``). A service that
    reads before calling ``run_command`` leaves it off: a stale version is then refused before
    any projection runs.

    ``read_ahead``: the first reads the handler will make through ``casino.prepared``, sent with
    the lock in one round trip (with ``reads_under_lock``).

    The key is looked up under the append lock, which the transaction then holds to its end, so
    no twin can record it meanwhile and no savepoint is needed.
    """
    key = metadata.idempotency_key
    with transaction.atomic(savepoint=False):
        if not key:
            return handler()
        digest = fingerprint(command, payload)
        slot = _AnswerSlot(metadata.casino, key, command, digest)
        try:
            found = lock_and_find_command(metadata.casino, key,
                                          reads_under_lock=reads_under_lock, answer=slot,
                                          ahead=read_ahead if reads_under_lock else ())
            if found is not None:
                return _replay(_record(metadata.casino, found), command, digest)
            result = handler()
        finally:
            end_command_scope()
        if slot.answered is not None:  # recorded with the events
            if canonical_text(slot.answered) != canonical_text(result):
                raise EventStoreError(
                    f"{command} gave its last append an answer that differs from the one it "
                    "returns: a retry would get the wrong answer")
            return result
        prepared.send([slot.statement(result)])
        return result
