"""Patrons and anti-money-laundering tables.

``PatronVault`` and ``ReportNarrative`` hold personal data, encrypted, and are **not**
projections: no event carries what they hold, no rebuild empties them, and destroying a
patron's wrapped key (crypto-shredding) is the one change the database lets happen to a vault
row after it is written (``compliance/sql/0001_vault.sql``). Every other model here is a
projection of the ``patron/``, ``aml_alert/`` and ``aml_report/`` streams and of the cage's and
the tables' movements (``compliance.projections``).
"""

from __future__ import annotations

from django.db import models

from casino.models import money_field


class PatronStatus(models.TextChoices):
    REGISTERED = "registered", "Identified, document not verified"
    VERIFIED = "verified", "Identified and verified"
    SHREDDED = "shredded", "Personal data destroyed"


class PatronVault(models.Model):
    patron_id = models.UUIDField(primary_key=True)
    casino = models.CharField(max_length=64)
    master_key_id = models.CharField(max_length=32)
    wrapped_key = models.BinaryField(null=True)  # NULL: shredded
    nonce = models.BinaryField()
    ciphertext = models.BinaryField()
    document_index = models.CharField(max_length=64, null=True)  # NULL once shredded
    created_at = models.DateTimeField()
    shredded_at = models.DateTimeField(null=True)

    class Meta:
        db_table = "compliance_patron_vault"
        constraints = [
            models.UniqueConstraint(fields=["casino", "document_index"],
                                    name="patron_vault_one_patron_per_document"),
            models.CheckConstraint(
                condition=(models.Q(wrapped_key__isnull=True, document_index__isnull=True,
                                    shredded_at__isnull=False)
                           | models.Q(wrapped_key__isnull=False, shredded_at__isnull=True)),
                name="patron_vault_shredded_whole"),
        ]


class ReportNarrative(models.Model):
    report_id = models.UUIDField(primary_key=True)
    patron_id = models.UUIDField()
    nonce = models.BinaryField()
    ciphertext = models.BinaryField()

    class Meta:
        db_table = "compliance_report_narrative"


class PatronCorrection(models.Model):
    """A correction of a patron's data asked for and awaiting its second person (approval kind
    ``patron_correction``): the new values, sealed under the patron's own key (so a shredding
    takes them too), never in an event."""

    correction_id = models.UUIDField(primary_key=True)
    patron_id = models.UUIDField()
    nonce = models.BinaryField()
    ciphertext = models.BinaryField()
    created_at = models.DateTimeField()

    class Meta:
        db_table = "compliance_patron_correction"


class Patron(models.Model):
    """Projection: a patron by reference (no personal data)."""

    patron_id = models.UUIDField(primary_key=True)
    casino = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=PatronStatus.choices)
    place = models.CharField(max_length=16)
    window = models.CharField(max_length=64, blank=True, default="")
    registered_by = models.CharField(max_length=150)
    registered_at = models.DateTimeField()
    verified_by = models.CharField(max_length=150, blank=True, default="")
    verified_at = models.DateTimeField(null=True)
    shredded_at = models.DateTimeField(null=True)
    version = models.PositiveIntegerField()

    class Meta:
        db_table = "compliance_patron"
        ordering = ["-registered_at"]
        indexes = [models.Index(fields=["casino", "status"], name="patron_casino_status")]


class PatronTransaction(models.Model):
    """Projection: one movement of a named patron at the cage or a table."""

    casino = models.CharField(max_length=64)
    gaming_day = models.DateField()
    patron_id = models.UUIDField()
    kind = models.CharField(max_length=16)
    amount = money_field()
    cash = money_field()
    where = models.CharField(max_length=80)
    reference = models.CharField(max_length=64)
    position = models.BigIntegerField(unique=True)
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "compliance_patron_transaction"
        ordering = ["position"]
        indexes = [models.Index(fields=["casino", "gaming_day", "patron_id"],
                                name="patron_tx_day")]


class AnonymousMovement(models.Model):
    """Projection: one movement that named no patron, by where it was made (a cage window's
    code, or "table <code>") and its gaming day: the anonymous side of structuring."""

    casino = models.CharField(max_length=64)
    gaming_day = models.DateField()
    where = models.CharField(max_length=80)
    kind = models.CharField(max_length=16)
    amount = money_field()
    cash = money_field()
    reference = models.CharField(max_length=64)
    position = models.BigIntegerField(unique=True)
    # the pit's or the cashier's mark for the same unidentified person (a pseudonym, P-7f3a):
    # movements with one mark in the linking period are linked as one patron's (issue 34)
    mark = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        db_table = "compliance_anonymous_movement"
        ordering = ["position"]
        indexes = [models.Index(fields=["casino", "gaming_day", "where"],
                                name="anonymous_day_where")]


class PatronDay(models.Model):
    """Projection: a patron's linked movements in one gaming day, summed."""

    casino = models.CharField(max_length=64)
    gaming_day = models.DateField()
    patron_id = models.UUIDField()
    purchases = money_field(default=0)
    redemptions = money_field(default=0)
    payouts = money_field(default=0)
    buy_ins = money_field(default=0)
    cash = money_field(default=0)
    transactions = models.PositiveIntegerField(default=0)
    # what a casino cheque may pay back (Lei n.º 83/2017, art. 76.º, n.º 3, a)): purchases paid
    # by card or by the patron's cheque, and the casino cheques issued against them (redemptions)
    card_or_cheque = money_field(default=0)
    casino_cheques = money_field(default=0)

    class Meta:
        db_table = "compliance_patron_day"
        ordering = ["casino", "gaming_day"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "gaming_day", "patron_id"],
                                    name="patron_day_unique"),
            models.CheckConstraint(
                condition=models.Q(purchases__gte=0, redemptions__gte=0, payouts__gte=0,
                                   buy_ins__gte=0, cash__gte=0),
                name="patron_day_sums_not_negative"),
        ]

    @property
    def total(self):  # type: ignore[no-untyped-def]
        return self.purchases + self.redemptions + self.payouts + self.buy_ins


class AlertStatus(models.TextChoices):
    OPEN = "open", "Open"
    REPORTED = "reported", "In a suspicious-transaction report"


class AmlAlert(models.Model):
    """Projection of an ``aml_alert/<id>`` stream."""

    alert_id = models.UUIDField(primary_key=True)
    casino = models.CharField(max_length=64)
    kind = models.CharField(max_length=32)
    rule = models.CharField(max_length=16)
    patron_id = models.UUIDField(null=True)
    gaming_day = models.DateField()
    movement = models.CharField(max_length=16)
    movement_event = models.CharField(max_length=64)
    reference = models.CharField(max_length=64)
    where = models.CharField(max_length=80)
    amount = money_field()
    cash = money_field()
    threshold = money_field()
    day_total = money_field()
    # raised at a table in another currency than the law's (issue 39): the movement's figure in
    # the table's currency and the rate it was converted at (law's currency per unit); "",
    # null, null for a movement in the law's currency
    currency = models.CharField(max_length=3, blank=True, default="")
    original_amount = money_field(null=True, blank=True)
    rate = models.DecimalField(max_digits=14, decimal_places=6, null=True, blank=True)
    status = models.CharField(max_length=16, choices=AlertStatus.choices)
    report_id = models.UUIDField(null=True)
    raised_at = models.DateTimeField()
    raised_by = models.CharField(max_length=150)

    class Meta:
        db_table = "compliance_alert"
        ordering = ["-raised_at"]
        indexes = [models.Index(fields=["casino", "gaming_day", "kind"], name="alert_day_kind")]


class ReportStatus(models.TextChoices):
    DRAFTED = "drafted", "Drafted"
    REVIEWED = "reviewed", "Reviewed"
    SENT = "sent", "Sent"


class SuspiciousReport(models.Model):
    """Projection of an ``aml_report/<id>`` stream."""

    report_id = models.UUIDField(primary_key=True)
    casino = models.CharField(max_length=64)
    patron_id = models.UUIDField()
    alert_ids = models.JSONField(default=list)
    status = models.CharField(max_length=16, choices=ReportStatus.choices)
    drafted_by = models.CharField(max_length=150)
    drafted_at = models.DateTimeField()
    reviewed_by = models.CharField(max_length=150, blank=True, default="")
    reviewed_at = models.DateTimeField(null=True)
    sent_by = models.CharField(max_length=150, blank=True, default="")
    sent_on = models.DateField(null=True)
    reference = models.CharField(max_length=120, blank=True, default="")
    version = models.PositiveIntegerField()

    class Meta:
        db_table = "compliance_report"
        ordering = ["-drafted_at"]


class LinkingPeriod(models.Model):
    """Projection of ``LinkingPeriodSet``: each version of a casino's linking period, with its
    author; the version in force on a gaming day is the latest whose ``from_day`` is on or
    before it (``compliance.services.linking``)."""

    casino = models.CharField(max_length=64)
    days = models.PositiveIntegerField()
    from_day = models.DateField()
    reason = models.TextField()
    set_by = models.CharField(max_length=150)
    set_at = models.DateTimeField()
    position = models.BigIntegerField(unique=True)

    class Meta:
        db_table = "compliance_linking_period"
        ordering = ["casino", "from_day", "position"]
