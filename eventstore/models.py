"""Tables of the event store. Rows are written only by ``store.append`` and never changed."""

from __future__ import annotations

from django.db import models


class StoredEvent(models.Model):
    """One event, as recorded. Append-only: the database refuses UPDATE, DELETE and TRUNCATE."""

    position = models.BigIntegerField(primary_key=True)
    stream = models.CharField(max_length=200)
    version = models.PositiveIntegerField()
    event_type = models.CharField(max_length=100)
    schema_version = models.PositiveSmallIntegerField()
    data = models.JSONField()
    metadata = models.JSONField()
    casino_id = models.CharField(max_length=64, blank=True, default="")
    recorded_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    # The event's number in its casino's chain (1, 2, 3 ... per casino_id): prev_hash is the
    # hash of the casino's event before it (docs/event-hash.md).
    sequence = models.BigIntegerField()
    # Set only on an event carried here from another cell with its casino (``cells_move``): the
    # position it was appended at there, which its hash covers (docs/event-hash.md, § Cells);
    # ``position`` is then its place in this database. Empty for every event appended here.
    recorded_position = models.BigIntegerField(null=True, blank=True)

    class Meta:
        db_table = "event"
        constraints = [
            models.UniqueConstraint(fields=["stream", "version"], name="event_stream_version_unique"),
            models.UniqueConstraint(fields=["casino_id", "sequence"],
                                    name="event_casino_sequence_unique"),
            models.CheckConstraint(condition=models.Q(version__gte=1), name="event_version_positive"),
            models.CheckConstraint(condition=models.Q(position__gte=1), name="event_position_positive"),
        ]
        # Few indexes on purpose: each one is paid on every append. Readers page by position
        # (the primary key), by stream (the unique key) or by casino; a casino's chain is
        # followed by its sequence (the unique key the chain trigger probes).
        indexes = [
            models.Index(fields=["casino_id", "position"], name="event_casino_position"),
        ]

    def __str__(self) -> str:
        return f"#{self.position} {self.stream} v{self.version} {self.event_type}"


class CommandRecord(models.Model):
    """The first answer to a command with an idempotency key, returned again on a retry.

    Append-only like the events: a key, once used, keeps its answer for good.
    """

    casino_id = models.CharField(max_length=64)
    idempotency_key = models.CharField(max_length=200)
    command = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64)
    result = models.JSONField()
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "command_record"
        constraints = [
            models.UniqueConstraint(
                fields=["casino_id", "idempotency_key"], name="command_record_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id}:{self.idempotency_key} {self.command}"
