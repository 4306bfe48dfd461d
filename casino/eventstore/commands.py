"""Idempotent commands: a retried command returns its first answer and records nothing new.

A command with an idempotency key runs at most once per casino. The first run's answer is kept in
``command_record`` beside its events, in the same transaction; a retry with the same key and the
same request gets that answer back; the same key with a different request is refused.

Two racing retries: both miss the record, both build their events; the first to take the append
lock records; the second, once it holds the lock, finds the key (``store.DuplicateCommand``), its
savepoint rolls back, and it returns the first answer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from .hashing import canonical_json
from .models import CommandRecord
from .store import DuplicateCommand, Metadata

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


def run_command(
    *,
    command: str,
    metadata: Metadata,
    payload: Any,
    handler: Callable[[], Result],
) -> Result:
    """Run ``handler`` once per ``metadata.idempotency_key`` (always, when there is no key).

    The handler appends its events with this ``metadata`` and returns a JSON-able answer. Runs in
    the caller's transaction when there is one (services are ``@transaction.atomic``).
    """
    key = metadata.idempotency_key
    if not key:
        with transaction.atomic():
            return handler()
    digest = fingerprint(command, payload)
    with transaction.atomic():
        existing = CommandRecord.objects.filter(
            casino_id=metadata.casino, idempotency_key=key
        ).first()
        if existing is not None:
            return _replay(existing, command, digest)
        try:
            with transaction.atomic():
                result = handler()
                CommandRecord.objects.create(
                    casino_id=metadata.casino,
                    idempotency_key=key,
                    command=command,
                    fingerprint=digest,
                    result=result,
                    recorded_at=timezone.now(),
                )
                return result
        except (DuplicateCommand, IntegrityError) as exc:
            record = CommandRecord.objects.filter(
                casino_id=metadata.casino, idempotency_key=key
            ).first()
            if record is None:
                raise exc from None
            return _replay(record, command, digest)
