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
  projections can be rebuilt from the events and checked against the live tables.
* Commands carry idempotency keys (``commands.py``): a retry returns the first answer.
"""
