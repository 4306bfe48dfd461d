"""The cage's read models: projections of the ``cage/…``, ``shift/…`` and ``cage_day/…`` streams.

Design overview
---------------
* ``Cage``: one main cage, cashier window or vault, with its regulator-set minimum cash.
* ``Shift``: one shift at one cage, and where it stands (open → counted → closed). At most one
  shift per cage is open or being counted; the database refuses a second (a partial unique
  index), which is what stops two cashiers opening the same window at once.
* ``ShiftLine``: the shift's accountability per denomination, in pieces: opening, receipts,
  payments, and the count. Expected = opening + receipts − payments; variance = counted −
  expected. A CHECK refuses an expected figure below zero: no code path can hand out chips or
  notes the window does not hold.
* ``ShiftEntry``: one row per movement, for the shift screen and the report.
* ``CageSlip``: the pit slips this cage has issued or received, unique per slip, so one slip is
  never issued twice (even by two windows at once).
* ``OpeningDispute``: a next cashier's count that differs from the previous closing count, until
  a cage supervisor resolves it (the shift waits, ``disputed``, and holds nothing meanwhile).
* ``Adjustment``, ``ChipsInService``, ``ChipLiability`` (the gaming-day chip figure).

Nothing refers to another row by a surrogate id: a rebuild from events must give the same rows.
Foreign keys carry no database constraint (``db_constraint=False``), like the other projections:
PostgreSQL would check them as deferred triggers, and ``TRUNCATE`` (the rebuild) refuses to run
while any are pending in the transaction. The projection code and the rebuild check keep them
consistent; the unique indexes and CHECKs below are enforced by the database.
Every table here is written only by ``cage.projections``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from casino.models import Casino, money_field


class CageKind(models.TextChoices):
    MAIN = "main", "Main cage"
    WINDOW = "window", "Cashier window"
    VAULT = "vault", "Vault"


class Cage(models.Model):
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="cages")
    code = models.SlugField(max_length=64)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=CageKind.choices)
    minimum_cash = money_field()
    last_shift_id = models.UUIDField(null=True, blank=True,
                                     help_text="The open shift, or the last one closed.")
    version = models.PositiveIntegerField(help_text="Version of the cage's configuration stream.")

    class Meta:
        ordering = ["casino", "kind", "code"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "code"], name="cage_unique_code"),
            models.CheckConstraint(condition=Q(minimum_cash__gte=0), name="cage_minimum_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.casino_id}/{self.code})"

    @property
    def stream(self) -> str:
        return f"cage/{self.casino_id}.{self.code}"


class ShiftStatus(models.TextChoices):
    DISPUTED = "disputed", "Opening disputed, waiting for a cage supervisor"
    OPEN = "open", "Open"
    COUNTED = "counted", "Counted, waiting to close"
    CLOSED = "closed", "Closed"


class Shift(models.Model):
    id = models.UUIDField(primary_key=True)
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="cage_shifts")
    cage = models.SlugField(max_length=64)
    cage_kind = models.CharField(max_length=16, choices=CageKind.choices)
    gaming_day = models.DateField()
    status = models.CharField(max_length=16, choices=ShiftStatus.choices)
    basis = models.CharField(max_length=16)  # previous_count / blind_count
    previous_shift_id = models.UUIDField(null=True, blank=True)
    opened_by = models.CharField(max_length=150)
    opened_at = models.DateTimeField()
    count_number = models.PositiveIntegerField(default=0)
    counted_by = models.CharField(max_length=150, blank=True, default="")
    counted_at = models.DateTimeField(null=True, blank=True)
    variance_value = money_field(null=True, blank=True)
    explanation = models.TextField(blank=True, default="")
    explained_by = models.CharField(max_length=150, blank=True, default="")
    approved_count = models.PositiveIntegerField(null=True, blank=True)
    approved_by = models.CharField(max_length=150, blank=True, default="")
    closed_by = models.CharField(max_length=150, blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(help_text="Version of the shift's stream.")

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["casino", "cage"], condition=~Q(status="closed"),
                name="cage_one_live_shift",
                violation_error_message="this cage already has a shift that is not closed",
            ),
        ]
        indexes = [models.Index(fields=["casino", "gaming_day"], name="shift_casino_day")]

    def __str__(self) -> str:
        return f"shift {self.id} at {self.casino_id}/{self.cage} ({self.status})"

    @property
    def stream(self) -> str:
        return f"shift/{self.id}"


class ShiftLine(models.Model):
    """One denomination of one shift, in pieces."""

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, db_constraint=False,
                              related_name="lines")
    kind = models.CharField(max_length=8)  # cash / chips
    chip_set = models.CharField(max_length=64, blank=True, default="")
    denomination = money_field()
    opening = models.IntegerField(default=0)
    receipts = models.IntegerField(default=0)
    payments = models.IntegerField(default=0)
    counted = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "chip_set", "-denomination"]
        constraints = [
            models.UniqueConstraint(fields=["shift", "kind", "chip_set", "denomination"],
                                    name="shift_line_unique"),
            models.CheckConstraint(
                condition=Q(opening__gte=0) & Q(receipts__gte=0) & Q(payments__gte=0),
                name="shift_line_movements_not_negative"),
            models.CheckConstraint(
                condition=Q(opening__gte=F("payments") - F("receipts")),
                name="shift_line_expected_not_negative",
                violation_error_message="a cage cannot hand out pieces it does not hold"),
            models.CheckConstraint(condition=Q(counted__isnull=True) | Q(counted__gte=0),
                                   name="shift_line_counted_not_negative"),
        ]

    @property
    def expected(self) -> int:
        return self.opening + self.receipts - self.payments


class ShiftEntry(models.Model):
    """One movement in a shift, as the shift screen lists it."""

    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, db_constraint=False,
                              related_name="entries")
    version = models.PositiveIntegerField()
    event_type = models.CharField(max_length=100)
    reference = models.CharField(max_length=200, blank=True, default="")
    amount_in = money_field()
    amount_out = money_field()
    actor = models.CharField(max_length=150)
    recorded_at = models.DateTimeField()
    details = models.JSONField(default=dict)

    class Meta:
        ordering = ["shift", "version"]
        constraints = [
            models.UniqueConstraint(fields=["shift", "version"], name="shift_entry_unique"),
        ]


class SlipStatus(models.TextChoices):
    ISSUED = "issued", "Issued (fill)"
    RECEIVED = "received", "Received (credit)"


class CageSlip(models.Model):
    """A pit slip the cage acted on. Unique: a slip is issued or received once."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="cage_slips")
    kind = models.CharField(max_length=8)  # fill / credit
    number = models.CharField(max_length=64)
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, db_constraint=False,
                              related_name="slips")
    status = models.CharField(max_length=16, choices=SlipStatus.choices)
    session_id = models.CharField(max_length=64)
    table = models.CharField(max_length=64)
    amount = money_field()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["casino", "kind", "number"], name="cage_slip_once",
                                    violation_error_message="this slip was already handled"),
        ]


class AdjustmentStatus(models.TextChoices):
    REQUESTED = "requested", "Waiting for approval"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class Adjustment(models.Model):
    id = models.UUIDField(primary_key=True)
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, db_constraint=False,
                              related_name="adjustments")
    direction = models.CharField(max_length=3)  # in / out
    cash = models.JSONField()
    chips = models.JSONField()
    amount = money_field()
    reason = models.TextField()
    status = models.CharField(max_length=16, choices=AdjustmentStatus.choices)
    requested_by = models.CharField(max_length=150)
    decided_by = models.CharField(max_length=150, blank=True, default="")
    note = models.TextField(blank=True, default="")


class DisputeStatus(models.TextChoices):
    OPEN = "open", "Waiting for a cage supervisor"
    RESOLVED = "resolved", "Resolved"


class OpeningDispute(models.Model):
    """The next cashier's count against the previous closing count, and its resolution."""

    shift = models.OneToOneField(Shift, on_delete=models.PROTECT, db_constraint=False,
                                 primary_key=True, related_name="opening_dispute")
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="cage_opening_disputes")
    cage = models.SlugField(max_length=64)
    previous_shift_id = models.UUIDField()
    cash = models.JSONField()  # the disputing count, pieces by denomination
    chips = models.JSONField()
    reason = models.TextField()
    status = models.CharField(max_length=16, choices=DisputeStatus.choices)
    disputed_by = models.CharField(max_length=150)
    disputed_at = models.DateTimeField()
    outcome = models.CharField(max_length=16, blank=True, default="")  # previous/disputed_count
    note = models.TextField(blank=True, default="")
    resolved_by = models.CharField(max_length=150, blank=True, default="")
    resolved_at = models.DateTimeField(null=True, blank=True)


class ChipsInService(models.Model):
    """Chips the casino has put into service, less those taken out, by set and denomination."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="chips_in_service")
    chip_set = models.CharField(max_length=64)
    denomination = money_field()
    pieces = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["casino", "chip_set", "denomination"],
                                    name="chips_in_service_unique"),
            models.CheckConstraint(condition=Q(pieces__gte=0), name="chips_in_service_not_negative"),
        ]


class ChipLiability(models.Model):
    """Chips in circulation recorded at a gaming-day close, one row per denomination."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="chip_liabilities")
    gaming_day = models.DateField()
    denomination = money_field()
    in_service = models.IntegerField()
    in_cages = models.IntegerField()
    in_vaults = models.IntegerField()
    in_table_trays = models.IntegerField()
    in_transit = models.IntegerField(default=0)
    in_circulation = models.IntegerField()
    table_trays_known = models.BooleanField()

    class Meta:
        ordering = ["casino", "gaming_day", "-denomination"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "gaming_day", "denomination"],
                                    name="chip_liability_unique"),
        ]


class ChipCirculationDay(models.Model):
    """The chips in circulation recorded for a gaming day: its value at the boundary, with the
    parts not known by denomination (open tables' trays since their count, jackpot slots)."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="chip_circulation_days")
    gaming_day = models.DateField()
    as_at = models.DateTimeField(null=True, blank=True)
    position = models.BigIntegerField(default=0)  # the last event the figure counts
    open_tables = money_field(default=0)
    jackpot_slots = money_field(default=0)
    value = money_field()
    state = models.JSONField(default=dict, help_text="where every chip was (the next fold's start)")

    class Meta:
        ordering = ["casino", "-gaming_day"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "gaming_day"],
                                    name="chip_circulation_day_unique"),
        ]


class CasinoCheque(models.Model):
    """Projection: a casino cheque the cage issued (a redemption or a jackpot payment paid by
    cheque), by its pre-printed number, each number once in a casino. Nominative to the patron
    (by reference: ``patron_id``) and crossed (``docs/cage.md``)."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="casino_cheques")
    number = models.CharField(max_length=32)
    kind = models.CharField(max_length=16)  # "redemption" or "jackpot"
    amount = money_field()
    patron_id = models.UUIDField()
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, db_constraint=False,
                              related_name="casino_cheques")
    window = models.CharField(max_length=64)
    reference = models.CharField(max_length=64)  # the transaction or payout id
    issued_by = models.CharField(max_length=150)
    issued_at = models.DateTimeField()

    class Meta:
        ordering = ["casino", "number"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "number"], name="casino_cheque_number_once"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="casino_cheque_positive"),
        ]
