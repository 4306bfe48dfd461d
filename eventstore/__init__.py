"""The append-only event store: the only code that writes events.

Design overview
---------------
* One table, ``event``: a gapless global ``position`` (primary key), a ``stream`` such as
  ``round/8f1c…`` with a ``version`` (unique together: the optimistic-concurrency check lives in
  the database), a stable ``event_type`` name with its ``schema_version``, JSON ``data`` and
  ``metadata``, the UTC ``recorded_at`` and a SHA-256 hash chain per casino (``sequence``,
  ``prev_hash``, ``hash``: docs/event-hash.md).
* A command takes its casino's transaction-scoped advisory lock; an append takes the position
  lock after it, so positions are handed out in commit order and a reader following the store by
  position never skips a late-committing event (``store.py`` explains the trap).
* The database refuses UPDATE, DELETE and TRUNCATE on the table, and checks that each new row
  continues the chain (``sql/0001_event_store.sql``).
* Live projections are applied in the appending transaction (``projections.py``); all
  projections can be rebuilt from the events (``replay.py``) and checked beside the live tables
  (``compare.py``).
* Commands carry idempotency keys (``commands.py``): a retry returns the first answer.

The modules, one job each:

==================  ===========================================================================
``store``           append: the locks, the head, the INSERT, the recorded event and its metadata
``history``         reading the events back: a stream, a page, a casino's chain and its export
``commands``        a command: one unit of work (``unit``), its idempotency record
``reads``           what a command's service reads (prepared, read ahead with the lock)
``projections``     live projections: ``Projection``, ``handles``, the registry, ``apply_live``
``changes``         what a handler returns; ``writer``: the one writer that merges and sends them
``replay``          the replay (pages read ahead, the handlers fed in batches) and the rebuild
``compare``         the check: the tables rebuilt beside the live ones, on a snapshot, compared
``events``          the typed events and their upcasters; ``hashing``, ``verify``: the chain
``wire``            private: prepared statements and pipelines
==================  ===========================================================================

What the rest of the code uses is named here (``from eventstore import append, Metadata``); the
modules stay importable by name for what is theirs alone (``eventstore.projections.register``).
"""

from .commands import IdempotencyConflict, command, run_command
from .compare import Difference, check
from .history import (
    export_chain,
    head_position,
    read_all,
    read_casino,
    read_chain,
    read_page,
    read_stream,
)
from .projections import Projection, handles, register, registry
from .records import Metadata, RecordedEvent
from .replay import rebuild, replay_pages, selected
from .store import (
    ConcurrencyError,
    DuplicateCommand,
    EventStoreError,
    append,
    lock_appends,
    stream_version,
)

__all__ = [
    "ConcurrencyError",
    "Difference",
    "DuplicateCommand",
    "EventStoreError",
    "IdempotencyConflict",
    "Metadata",
    "Projection",
    "RecordedEvent",
    "append",
    "check",
    "command",
    "export_chain",
    "handles",
    "head_position",
    "lock_appends",
    "read_all",
    "read_casino",
    "read_chain",
    "read_page",
    "read_stream",
    "rebuild",
    "register",
    "registry",
    "replay_pages",
    "run_command",
    "selected",
    "stream_version",
]
