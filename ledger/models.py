"""The general ledger: a double-entry journal projected from the events.

Design overview
---------------
* ``JournalEntry`` / ``JournalLine`` (tables ``journal_entry`` and ``journal_line``): the journal.
  One entry per event that moves value, numbered per casino in the order of the events, posted
  in a gaming day (its accounting period). Append-only like the events: PostgreSQL refuses any
  UPDATE, DELETE or TRUNCATE (``ledger/sql/0001_journal.sql``), refuses an entry whose lines do
  not balance when the transaction commits (a deferred constraint trigger), refuses a line that
  is not one positive debit or one positive credit (CHECK), a line added to an entry of an earlier
  transaction, and any posting into a closed day. A mistake is put right by a new entry in an
  open day that references what it corrects (``corrects``).
* ``Account``: the chart of accounts of each casino, made from ``ledger.chart`` the first time a
  posting names an account. Lines name their account by (casino, code), a composite foreign key.
* ``Period``: a closed gaming day (``PeriodClosed``). Rows are never updated or deleted.
* ``AccountDayBalance``, ``TableDay``, ``LedgerSession``: what the projection keeps beside the
  journal so that balances, trial balances and table results are read without summing the whole
  journal, and what it remembers of open table sessions.

Every table here is written only by ``ledger.projections`` and is never rebuilt in place (the
journal cannot be emptied); ``manage.py rebuild_projections --check`` compares it with a replay
of the events computed in memory. Nothing refers to another row by a surrogate id except a line
to its entry and an entry to the entry it corrects (compared by entry number).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Model, Q

from casino.errors import Words
from casino.models import Casino, money_field


class Account(models.Model):
    # No index of its own on casino (nor the LIKE one Django adds for a text key): the unique
    # (casino, code) leads with it. Every index is written on every insert.
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="ledger_accounts", db_index=False)
    code = models.CharField(max_length=100)
    name = models.CharField(max_length=300)
    name_pt = models.CharField(max_length=300)
    kind = models.CharField(max_length=16)
    normal = models.CharField(max_length=6, help_text="debit or credit")
    template = models.CharField(max_length=8, help_text="the chart's code, without the scope")
    scope = models.CharField(max_length=80, blank=True, default="")
    game = models.CharField(max_length=32, blank=True, default="")
    snc = models.CharField(max_length=100, help_text="Portuguese SNC account it maps to")
    macau = models.CharField(max_length=100, help_text="Macau's chart account it maps to")

    class Meta:
        db_table = "ledger_account"
        ordering = ["casino", "code"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "code"], name="ledger_account_unique_code"),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class JournalEntry(models.Model):
    # Covered by the unique (casino, number) and the (casino, day, number) index.
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="journal_entries", db_index=False)
    number = models.PositiveIntegerField(help_text="Entry number, per casino, in event order.")
    day = models.DateField(help_text="The gaming day (period) the entry is posted in.")
    event_day = models.DateField(help_text="The gaming day of the event it came from.")
    event_position = models.BigIntegerField(unique=True,
                                            help_text="Global position of the event.")
    event_type = models.CharField(max_length=100)
    stream = models.CharField(max_length=200)
    recorded_at = models.DateTimeField()
    description = models.TextField()
    words = models.JSONField(
        default=dict, db_default=models.Value({}, models.JSONField()), blank=True,
        help_text="The description's template and values (casino.errors.Words.as_data), so "
                  "that a screen says it in its language; empty for an entry posted before.")
    corrects = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="corrections")
    txid = models.BigIntegerField(default=0, editable=False,
                                  help_text="Set by the database: the transaction that posted it.")

    class Meta:
        db_table = "journal_entry"
        ordering = ["casino", "number"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "number"], name="journal_entry_number"),
        ]
        indexes = [
            models.Index(fields=["casino", "day", "number"], name="journal_entry_day"),
            models.Index(fields=["stream", "event_type"], name="journal_entry_stream"),
        ]

    def __str__(self) -> str:
        return f"entry {self.number} ({self.casino_id}, {self.day})"

    @property
    def description_words(self) -> str:
        """The description as :class:`casino.errors.Words` (its template and values) when the
        entry keeps them, else the stored text: ``{{ entry.description_words|said }}`` in a template."""
        return Words.from_data(self.words, self.description) if self.words else self.description


class JournalLine(models.Model):
    # Covered by the unique (entry, line_no).
    entry = models.ForeignKey(JournalEntry, on_delete=models.PROTECT, related_name="lines",
                              db_index=False)
    line_no = models.PositiveSmallIntegerField()
    casino_code = models.CharField(max_length=64, db_column="casino_id")
    account_code = models.CharField(max_length=100)
    debit = money_field(default=0)
    credit = money_field(default=0)

    class Meta:
        db_table = "journal_line"
        ordering = ["entry", "line_no"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "line_no"], name="journal_line_unique"),
            models.CheckConstraint(condition=Q(debit__gte=0) & Q(credit__gte=0),
                                   name="journal_line_not_negative"),
            models.CheckConstraint(
                condition=(Q(debit__gt=0) & Q(credit=0)) | (Q(credit__gt=0) & Q(debit=0)),
                name="journal_line_debit_or_credit",
                violation_error_message="a line is a positive debit or a positive credit"),
        ]
        indexes = [models.Index(fields=["casino_code", "account_code"], name="journal_line_account")]

    def __str__(self) -> str:
        side = f"Dr {self.debit}" if self.debit else f"Cr {self.credit}"
        return f"{self.account_code} {side}"


class Period(models.Model):
    """A closed gaming day of a casino's ledger."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="ledger_periods")
    day = models.DateField()
    closed_at = models.DateTimeField()
    closed_by = models.CharField(max_length=150)
    event_position = models.BigIntegerField()
    entries = models.PositiveIntegerField()
    debit_total = models.DecimalField(max_digits=18, decimal_places=2)
    credit_total = models.DecimalField(max_digits=18, decimal_places=2)

    class Meta:
        db_table = "ledger_period"
        ordering = ["casino", "day"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "day"], name="ledger_period_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id} {self.day} (closed)"


class AccountDayBalance(models.Model):
    """Debits and credits posted to one account in one gaming day."""

    # Covered by the unique (casino, day, account_code) and the (casino, account_code) index.
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+", db_index=False)
    day = models.DateField()
    account_code = models.CharField(max_length=100)
    debit = models.DecimalField(max_digits=18, decimal_places=2)
    credit = models.DecimalField(max_digits=18, decimal_places=2)

    class Meta:
        db_table = "ledger_balance"
        ordering = ["casino", "day", "account_code"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "day", "account_code"],
                                    name="ledger_balance_unique"),
        ]
        indexes = [models.Index(fields=["casino", "account_code"], name="ledger_balance_account")]


class TableDay(models.Model):
    """A table's figures for a gaming day that are not amounts posted: handle, drop, counts."""

    # Covered by the unique (casino, day, table).
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+", db_index=False)
    day = models.DateField()
    table = models.CharField(max_length=64)
    game = models.CharField(max_length=32)
    handle = models.DecimalField(max_digits=18, decimal_places=2, default=0)
    drop = models.DecimalField(max_digits=18, decimal_places=2, default=0)
    rounds = models.PositiveIntegerField(default=0)
    sessions = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "ledger_table_day"
        ordering = ["casino", "day", "table"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "day", "table"],
                                    name="ledger_table_day_unique"),
        ]


class LedgerSession(models.Model):
    """What the ledger remembers of a table session: its table, game and drop so far."""

    session_id = models.CharField(max_length=64, primary_key=True)
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    table = models.CharField(max_length=64)
    game = models.CharField(max_length=32)
    drop_recorded = money_field(default=0)
    drop_counted = money_field(null=True, blank=True)
    gaming_day = models.DateField(null=True, blank=True)
    # a table in a foreign currency: its currency and the rate the session is booked at
    currency = models.CharField(max_length=3, blank=True, default="")
    rate = models.DecimalField(max_digits=14, decimal_places=6, null=True, blank=True)

    class Meta:
        db_table = "ledger_session"


class DayClose(models.Model):
    """Projection of ``gaming_day/<casino>.<day>``: a closed gaming day and its figures as fixed
    at the close (``GamingDayClosed``)."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    day = models.DateField()
    closed_at = models.DateTimeField()
    closed_by = models.CharField(max_length=150)
    results = models.JSONField(default=list)
    jackpots = models.JSONField(default=list)
    totals = models.JSONField(default=dict)
    exceptions = models.JSONField(default=list)
    report_digest = models.CharField(max_length=64, blank=True, default="")
    register = models.JSONField(default=list, help_text="the daily register of each table")
    revenue = models.JSONField(default=dict, help_text="the day's gross revenue, in parts")

    class Meta:
        db_table = "ledger_day_close"
        ordering = ["casino", "-day"]
        constraints = [models.UniqueConstraint(fields=["casino", "day"],
                                               name="ledger_day_close_unique")]


class TaxParameterChange(Model):
    """Projection of ``tax_rules/<jurisdiction>`` (``TaxParameterSet``): every change of a
    gaming-tax parameter, with its author, time and legal source (``ledger.tax_rules``)."""

    jurisdiction = models.CharField(max_length=2)
    casino_code = models.CharField(max_length=64, blank=True, default="",
                                   help_text="empty: every casino of the jurisdiction")
    recorded_in = models.CharField(max_length=64, help_text="the casino it was recorded in")
    code = models.CharField(max_length=100)
    value = models.CharField(max_length=100)
    effective_from = models.DateField()
    legal_source = models.TextField()
    note = models.TextField(blank=True, default="")
    set_by = models.CharField(max_length=150)
    set_at = models.DateTimeField()
    position = models.BigIntegerField(unique=True)

    class Meta:
        db_table = "ledger_tax_parameter"
        ordering = ["jurisdiction", "code", "effective_from", "position"]
        indexes = [models.Index(fields=["jurisdiction", "code"], name="tax_parameter_code")]

    def __str__(self) -> str:
        return f"{self.code} = {self.value} from {self.effective_from}"


class TaxAccrual(Model):
    """Projection of ``gaming_tax/<casino>.<YYYY-MM>``: one tax of a month's return, accrued
    (``GamingTaxAccrued``) and paid (``GamingTaxPaid``)."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    month = models.CharField(max_length=7)
    code = models.CharField(max_length=64)
    name = models.CharField(max_length=300)
    base = models.DecimalField(max_digits=18, decimal_places=2)
    accrued = models.DecimalField(max_digits=18, decimal_places=2)
    paid = models.DecimalField(max_digits=18, decimal_places=2, default=0)
    accrued_at = models.DateTimeField()
    accrued_by = models.CharField(max_length=150)
    payments = models.JSONField(default=list, help_text="{amount, reference, by, at}")

    class Meta:
        db_table = "ledger_tax_accrual"
        ordering = ["casino", "month", "code"]
        constraints = [models.UniqueConstraint(fields=["casino", "month", "code"],
                                               name="ledger_tax_accrual_unique")]

    def __str__(self) -> str:
        return f"{self.casino_id} {self.month} {self.code}: {self.accrued}"
class ResultsExport(models.Model):
    """A file of table results an accountant asked for (CSV, XLSX or PDF), built by a Celery
    task (``reporting.results_export``) that writes its progress here as it goes. Not a projection:
    a piece of work and its file, for the person who asked (nothing in the events refers to it)."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for a worker"
        RUNNING = "running", "Being built"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    export_id = models.UUIDField(primary_key=True)
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    file_format = models.CharField(max_length=4)  # csv | xlsx | pdf
    day_from = models.DateField()
    day_to = models.DateField()
    requested_by = models.CharField(max_length=150)
    requested_at = models.DateTimeField()
    language = models.CharField(max_length=10, default="en", help_text="the file's labels")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    rows_done = models.PositiveIntegerField(default=0)
    rows_total = models.PositiveIntegerField(default=0)
    content = models.BinaryField(null=True, blank=True)
    message = models.TextField(blank=True, default="")

    class Meta:
        db_table = "ledger_results_export"
        ordering = ["-requested_at"]


class ChequePresentation(Model):
    """Projection of ``bank/<casino>`` (``CasinoChequePresented``): a casino cheque the bank
    paid, by its number in the casino (the cage's ``CasinoCheque``), once."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    number = models.CharField(max_length=32)
    amount = money_field()
    bank_reference = models.CharField(max_length=100)
    paid_on = models.DateField(help_text="the day the bank paid it")
    recorded_by = models.CharField(max_length=150)
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "ledger_cheque_presentation"
        ordering = ["casino", "paid_on", "number"]
        constraints = [models.UniqueConstraint(fields=["casino", "number"],
                                               name="ledger_cheque_presented_once")]

    def __str__(self) -> str:
        return f"{self.casino_id} cheque {self.number}: {self.amount} ({self.bank_reference})"


class CardSettlement(Model):
    """Projection of ``bank/<casino>`` (``CardChequeBatchSettled``): a batch of card and
    cheque receipts the bank credited, by its settlement reference, once in a casino."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    bank_reference = models.CharField(max_length=100)
    amount = money_field()
    credited_on = models.DateField(help_text="the day the bank credited it")
    recorded_by = models.CharField(max_length=150)
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "ledger_card_settlement"
        ordering = ["casino", "credited_on", "bank_reference"]
        constraints = [models.UniqueConstraint(fields=["casino", "bank_reference"],
                                               name="ledger_card_settlement_reference_once")]

    def __str__(self) -> str:
        return f"{self.casino_id} settlement {self.bank_reference}: {self.amount}"
