"""The casino's core tables.

``Casino`` is a projection of the ``casino/<code>`` stream: it is written only by
``casino.projections`` and rebuilt from the events. ``Membership`` (who holds which role in which
casino) is plain configuration kept by the administrator in the Django admin.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import models

from casino import gaming_day as gaming_days

# One shape shared with the parsers at the edge (``casino.money``), which refuse what it won't hold.
from casino.money import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS


def money_field(**kwargs: Any) -> models.DecimalField:  # type: ignore[type-arg]
    """The one NUMERIC shape for money: 14 digits, 2 decimals."""
    return models.DecimalField(
        max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES, **kwargs
    )


class Currency(models.TextChoices):
    EUR = "EUR", "Euro"
    MOP = "MOP", "Macau pataca"


class Casino(models.Model):
    code = models.SlugField(max_length=64, primary_key=True)
    name = models.CharField(max_length=200)
    currency = models.CharField(max_length=3, choices=Currency.choices)
    time_zone = models.CharField(max_length=64)
    gaming_day_closes_at = models.PositiveSmallIntegerField(
        help_text="Local hour (0-23) at which the gaming day closes."
    )
    version = models.PositiveIntegerField(help_text="Version of the casino's event stream.")

    class Meta:
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(gaming_day_closes_at__lte=23), name="casino_closing_hour_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def gaming_day(self, moment: dt.datetime) -> dt.date:
        """The gaming day ``moment`` falls in (``casino.gaming_day``: the one rule)."""
        return gaming_days.day_of(moment, self.time_zone, self.gaming_day_closes_at)

    def gaming_day_start(self, day: dt.date) -> dt.datetime:
        return gaming_days.start_of(day, self.time_zone, self.gaming_day_closes_at)

    def gaming_day_end(self, day: dt.date) -> dt.datetime:
        return gaming_days.end_of(day, self.time_zone, self.gaming_day_closes_at)


class Role(models.TextChoices):
    CASHIER = "cashier", "Cashier"
    CAGE_SUPERVISOR = "cage_supervisor", "Cage supervisor"
    PIT_BOSS = "pit_boss", "Pit boss"
    ACCOUNTANT = "accountant", "Accountant"
    REGULATOR = "regulator", "Regulator"
    COMPLIANCE_OFFICER = "compliance_officer", "Compliance officer"
    ADMINISTRATOR = "administrator", "Administrator"


class Membership(models.Model):
    """A person holds one or more roles in a casino."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="memberships")
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False, related_name="memberships")
    role = models.CharField(max_length=32, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "casino", "role"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.role} at {self.casino_id}"

    def clean(self) -> None:
        """A regulator's inspector holds no casino role: their jurisdiction's casinos are theirs
        to read by ``casino.selectors.casino_roles``' rule, and no casino grants more (issue 35)."""
        from django.core.exceptions import ValidationError

        if self.user_id is not None and getattr(self.user, "regulator_account", None) is not None:
            raise ValidationError({"user": "a regulator's inspector holds no casino role: "
                                           "they read their jurisdiction's casinos as such"})


class ChipSet(models.Model):
    """Projection: a set of value chips and its denominations (decimal strings, largest first)."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="chip_sets")
    code = models.SlugField(max_length=64)
    name = models.CharField(max_length=200)
    denominations = models.JSONField()
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino", "code"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "code"], name="chipset_unique_code"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.casino_id}/{self.code})"

    @property
    def stream(self) -> str:
        return f"chipset/{self.casino_id}.{self.code}"


class ApprovalStatus(models.TextChoices):
    REQUESTED = "requested", "Awaiting approval"
    GRANTED = "granted", "Approved"
    REFUSED = "refused", "Refused"
    WITHDRAWN = "withdrawn", "Withdrawn"


class Approval(models.Model):
    """Projection of an ``approval/<id>`` stream: a change after the fact, asked by one person,
    decided by another (``casino.approvals``)."""

    id = models.UUIDField(primary_key=True)
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="approvals")
    kind = models.CharField(max_length=64)
    subject = models.CharField(max_length=200)
    reason = models.CharField(max_length=64)
    explanation = models.TextField()
    summary = models.TextField()
    amount = money_field(null=True, blank=True)
    details = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=ApprovalStatus.choices)
    requested_by = models.CharField(max_length=150)
    requested_at = models.DateTimeField()
    decided_by = models.CharField(max_length=150, blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True, default="")
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["-requested_at"]
        indexes = [models.Index(fields=["casino", "status"], name="approval_casino_status")]
        constraints = [
            # one open request per thing: a second one waits for the first to be decided
            models.UniqueConstraint(fields=["casino", "kind", "subject"],
                                    condition=models.Q(status="requested"),
                                    name="approval_one_open_per_subject"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.subject} ({self.status})"

    @property
    def stream(self) -> str:
        return f"approval/{self.id}"


class GamingDaySeal(models.Model):
    """Projection of a ``seal/<casino>.<day>`` stream (``GamingDaySealed``): a sealed gaming day,
    with the payload as signed and its signature (``casino.seal``, ``docs/event-hash.md``)."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="seals")
    gaming_day = models.DateField()
    first_position = models.BigIntegerField()
    last_position = models.BigIntegerField()
    last_hash = models.CharField(max_length=64)
    totals = models.JSONField(help_text="The day's figures as signed (decimal strings).")
    report_digest = models.CharField(max_length=128)
    key_id = models.CharField(max_length=64)
    signature = models.CharField(max_length=128)
    payload = models.JSONField(help_text="The event's data: what was signed, and the signature.")
    position = models.BigIntegerField(help_text="Global position of the seal's event.")
    sealed_by = models.CharField(max_length=150)
    sealed_at = models.DateTimeField()

    class Meta:
        ordering = ["casino", "gaming_day"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "gaming_day"], name="seal_one_per_day"),
        ]

    def __str__(self) -> str:
        return f"seal of {self.casino_id} {self.gaming_day} ({self.first_position}-{self.last_position})"

    @property
    def stream(self) -> str:
        return f"seal/{self.casino_id}.{self.gaming_day.isoformat()}"
