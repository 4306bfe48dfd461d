"""Commands: one shape for every service that records something.

A service that records something is a ``@command``; a step that only works inside one (it
relies on the command's append lock and unit of work) is an ``@in_command`` helper; an approval
procedure is a pair of them (``casino.services.approvals``). Nothing else writes.

``@command("chips_sell")`` makes a service a unit of work (``unit.UnitOfWork``): one transaction
that takes the append lock first, keyed or not, in its first round trip, together with the
idempotency look-up and the reads the command declares (``reads=``); then the service runs,
appending its events. Inside a transaction of the caller's, the command's savepoint goes in that
first round trip too, and a refused command is rolled back to it (ADR 0011).

The lock-order trap. Two commands that lock the same rows must take their locks in one order, or
each waits for the other and PostgreSQL kills one of them (a deadlock). The append lock is taken
first by every command, so a row lock is only ever asked for by whoever holds the append lock:
a command on a round waits at the append lock, never at the round's row.

Idempotency. A command with an idempotency key runs at most once per casino. The first run's
answer is kept in ``command_record`` beside its events, in the same transaction; a retry with the
same key and the same request gets that answer back before any state is looked at (the session
may have closed since); the same key with a different request is refused. An answer is a frozen
dataclass, kept as its ``asdict`` and rebuilt by the service's return annotation on the retry
(``eventstore.answers``): the retry answers exactly as the first run, the same type and fields. Two racing retries:
the second waits at the lock until the first commits, then finds the key.

Errors. Every refusal is a ``casino.errors.DomainError``. The store's (``ConcurrencyError``,
``DuplicateCommand``) and ``IdempotencyConflict`` are ``Conflict``s; a deadlock or a
serialization failure reported by PostgreSQL becomes a retryable ``ConcurrentChange``, with the
transaction rolled back: nothing recorded, never a 500. So does a figure too large for its column
(an ``InvalidCommand``, ``out_of_range``): the edge refuses every amount and count that no column
holds (``casino.money``), and this catches a total that grew too large over many movements. And
so does a casino moved to another cell (``cells_move``), whose events its old cell's trigger
refuses: a ``CasinoMoved`` (410, Gone) naming the cell it moved to.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction

from casino.errors import (
    TOO_LARGE,
    CasinoMoved,
    ConcurrentChange,
    Conflict,
    InvalidCommand,
    gettext_noop,
    is_out_of_range,
    is_retryable,
    moved_to,
)

from . import unit, wire
from .answers import answer_type, as_data, rebuild
from .hashing import canonical_json, canonical_text
from .records import Metadata
from .store import EventStoreError, Savepoint, begin_command, record_values

P = ParamSpec("P")
R = TypeVar("R")
Reads = Callable[[dict[str, Any]], Sequence[wire.Statement]]


class IdempotencyConflict(Conflict):
    """The key was used before for a different command or request. Nothing was recorded."""

    code = "idempotency_conflict"

    def __init__(self, key: str, command: str) -> None:
        self.key = key
        self.command = command
        super().__init__(
            gettext_noop("idempotency key {key!r} was already used for a different request "
                         "({command}); use a new key for a new command"),
            params={"key": key, "command": command}, key=key)


def fingerprint(command: str, payload: Any) -> str:
    return hashlib.sha256(canonical_json({"command": command, "payload": payload})).hexdigest()


def payload_of(arguments: dict[str, Any]) -> Any:
    """What a command's fingerprint covers: its arguments (keyword-only) less the metadata."""
    return json.loads(json.dumps({k: v for k, v in arguments.items() if k != "metadata"},
                                 default=str, sort_keys=True))


# The command's record when its last append did not carry it (``store.append(answer=…)``): the
# key was looked up under the append lock the transaction still holds, so no twin can have
# recorded it meanwhile; a plain INSERT, which would fail loudly if one had.
_RECORD_SQL = """
INSERT INTO command_record (casino_id, idempotency_key, command, fingerprint, result, recorded_at)
VALUES (%s, %s, %s, %s, %s::jsonb, now())
"""


def command(name: str, *, reads: Reads | None = None
            ) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Make a service (keyword arguments, one of them ``metadata``) a command named ``name``.

    ``reads``: from the service's arguments, the first reads it makes through the event store's
    read helpers, sent with the append lock in one round trip (their rows are taken once, by the
    same read, instead of asking again). A command called by another command is part of the
    caller's unit of work: it runs at once, under the lock the caller holds.
    """

    def wrap(service: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(service)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            metadata = kwargs["metadata"]
            if not isinstance(metadata, Metadata):
                raise TypeError(f"{name} needs metadata=Metadata(...)")
            return run_command(command=name, metadata=metadata, payload=payload_of(kwargs),
                               handler=functools.partial(service, *args, **kwargs),
                               reads=reads(kwargs) if reads is not None else (),
                               answers=answer_type(service))

        run.command_name = name  # type: ignore[attr-defined]
        return run

    return wrap


def in_command(helper: Callable[P, R]) -> Callable[P, R]:
    """Mark a helper that works only inside a command: a step of a command's service, or of an
    approval procedure (``casino.services.approvals``), never a service of its own. It reads and
    appends under the casino's append lock that the command took in its first round trip, in the
    command's unit of work, and takes no lock of its own. Called outside a command, it is a
    mistake of the caller's (``TypeError``): the first test that does so says so."""

    @functools.wraps(helper)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        running = unit.current()
        if running is None or not running.in_command:
            raise TypeError(f"{helper.__qualname__} runs only inside a command")
        return helper(*args, **kwargs)

    return run


_SAVEPOINTS = itertools.count(1)


def run_command(*, command: str, metadata: Metadata, payload: Any, handler: Callable[[], R],
                reads: Sequence[wire.Statement] = (), answers: type | None = None) -> R:
    """Run ``handler`` as the command ``command`` (what ``@command`` does for a service; called
    directly by a body that is no service, such as a benchmark's). ``answers``: the dataclass
    it answers, rebuilt from the idempotency record on a retry (``eventstore.answers``)."""
    running = unit.current()
    if running is not None and running.in_command:
        return handler()
    db = connections[DEFAULT_DB_ALIAS]
    try:
        if not db.in_atomic_block:
            with transaction.atomic():
                return _run(command, metadata, payload, handler, reads, answers)
        # Nested in a transaction of the caller's: the command's savepoint goes in its first
        # round trip (ADR 0011), not in one of its own as Django's atomic() would send it, and
        # is never released (it goes with the transaction). A command refused or failed after
        # it is rolled back to it, and the caller's transaction stays usable, as with Django's.
        savepoint = Savepoint(f"command_{next(_SAVEPOINTS)}")
        try:
            with transaction.atomic(savepoint=False):
                return _run(command, metadata, payload, handler, reads, answers, savepoint)
        except BaseException:
            if savepoint.sent and savepoint.roll_back():
                transaction.set_rollback(False)
            raise
    except DatabaseError as error:
        if is_retryable(error):
            raise ConcurrentChange() from error
        if is_out_of_range(error):  # the edge refuses each figure; this is a total grown too big
            raise InvalidCommand(TOO_LARGE, code="out_of_range") from error
        cell = moved_to(error)
        if cell is not None:  # the casino moved to another cell: its old one refuses its events
            raise CasinoMoved(metadata.casino, cell) from error
        raise


def _run(name: str, metadata: Metadata, payload: Any, service: Callable[[], R],
         ahead: Sequence[wire.Statement], answers: type | None = None,
         savepoint: Savepoint | None = None) -> R:
    key = metadata.idempotency_key
    digest = fingerprint(name, payload) if key else ""
    answer = unit.Answer(metadata.casino, key, name, digest) if key else None
    with unit.running(unit.UnitOfWork(name, in_command=True, answer=answer)) as work:
        found = begin_command(work, metadata.casino, key, ahead, savepoint)
        if found is not None:
            _key, recorded_command, recorded_digest, result = found
            if recorded_command != name or recorded_digest != digest:
                raise IdempotencyConflict(key, recorded_command)
            data = json.loads(result) if isinstance(result, str) else result
            replayed: R = rebuild(answers, data) if answers is not None else data
            return replayed
        outcome = service()
    if answer is None:
        return outcome
    if answer.answered is not None:  # recorded with the events
        if canonical_text(as_data(answer.answered)) != canonical_text(as_data(outcome)):
            raise EventStoreError(
                f"{name} gave its last append an answer that differs from the one it returns: "
                "a retry would get the wrong answer")
        return outcome
    wire.send([(_RECORD_SQL, record_values(answer, outcome))])
    return outcome
