"""The regulator's store's own tables: how far each casino's chain has been followed, and the
alarms the follower raised. Written by the follower only (``cells.follower``); in a cell they
stay empty."""

from __future__ import annotations

from django.db import models


class FollowedChain(models.Model):
    """One casino's chain as the store's follower has applied and verified it."""

    casino_id = models.CharField(max_length=64, primary_key=True)
    last_sequence = models.BigIntegerField(default=0)
    last_hash = models.CharField(max_length=64)
    # the store's own number of the last event applied: the projections record it where they
    # record a position (two cells' positions overlap; the store's numbers do not)
    last_store_position = models.BigIntegerField(default=0)
    applied_at = models.DateTimeField(null=True)
    # the last event's lag: from its recording in its cell to its projection here (seconds)
    lag_seconds = models.DecimalField(max_digits=12, decimal_places=3, default=0)
    stopped = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        db_table = "cells_followed_chain"

    def __str__(self) -> str:
        return f"{self.casino_id} @ {self.last_sequence}"


class StoreAlarm(models.Model):
    """A gap, a broken link, an altered event or a bad seal, found as events arrived."""

    class Kind(models.TextChoices):
        GAP = "gap", "gap in the chain"
        LINK = "link", "broken link"
        HASH = "hash", "altered event"
        SEAL = "seal", "bad seal"

    casino_id = models.CharField(max_length=64)
    sequence = models.BigIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    detail = models.CharField(max_length=300)
    raised_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "cells_store_alarm"
        constraints = [models.UniqueConstraint(fields=["casino_id", "sequence", "kind"],
                                               name="cells_store_alarm_once")]

    def __str__(self) -> str:
        return f"{self.casino_id} #{self.sequence}: {self.kind}"


class MovedCasino(models.Model):
    """In a cell: a casino moved to another cell (``cells_move``). This cell appends no more of its
    events (a trigger on the event table refuses them); its chain here stays, read and
    verified, up to ``last_sequence``."""

    casino_id = models.CharField(max_length=64, primary_key=True)
    to_cell = models.CharField(max_length=64)
    last_sequence = models.BigIntegerField()
    last_hash = models.CharField(max_length=64)
    moved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "cells_moved_out"

    def __str__(self) -> str:
        return f"{self.casino_id} -> {self.to_cell} after {self.last_sequence}"
