"""Read models of the slot floor: every table here is a projection of the area's events
(``machines.projections``), rebuilt by ``rebuild_projections`` and checked by its ``--check``.
Keys are natural (casino + machine number, + reading id, + drop id; ticket validation number;
hand pay id; pool), so a rebuild gives the same rows.

- ``Machine``: the machine now (configuration in force, place, status), its last reading and
  the bills in its box since the last drop.
- ``MachineConfigVersion``: every configuration it has had, from which event.
- ``MeterReading``: every reading (and reset) with its difference: the "as of" history.
- ``MachineDay``: a machine's gaming day from its meters (the win by meters).
- ``MachineBox``: the count room's counts of each box dropped.
- ``SlotTicket``, ``HandPay``, ``SlotProgressive``: tickets, hand pays, progressive pools.
"""

from __future__ import annotations

from django.db import models

from casino.models import money_field


def rate_field(**kwargs: object) -> models.DecimalField:  # type: ignore[type-arg]
    return models.DecimalField(max_digits=9, decimal_places=4, **kwargs)  # type: ignore[arg-type]


def _casino() -> models.ForeignKey:  # type: ignore[type-arg]
    return models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                             related_name="+")


class Machine(models.Model):
    casino = _casino()
    number = models.CharField(max_length=32)
    bank = models.CharField(max_length=32)
    position = models.CharField(max_length=32)
    manufacturer = models.CharField(max_length=100)
    model = models.CharField(max_length=100)
    serial = models.CharField(max_length=100)
    game = models.CharField(max_length=100)
    paytable = models.JSONField()
    denomination = money_field()
    certified_return = models.DecimalField(max_digits=5, decimal_places=2)
    return_spread = models.DecimalField(max_digits=9, decimal_places=2)
    hand_pay_limit = money_field()
    progressive_pool = models.CharField(max_length=64, blank=True, default="")
    approved_on = models.DateField()
    approval_reference = models.CharField(max_length=200)
    config_version = models.PositiveIntegerField()
    in_service = models.BooleanField(default=True)
    retired = models.BooleanField(default=False)
    added_at = models.DateTimeField()
    # the last reading applied (or the start after a reset)
    meters = models.JSONField(default=dict)
    last_reading_id = models.CharField(max_length=64, blank=True, default="")
    last_read_at = models.DateTimeField(null=True, blank=True)
    readings = models.PositiveIntegerField(default=0)
    box_metered = money_field(default=0, help_text="bills metered into the box since its drop")
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino_id", "bank", "position", "number"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "number"], name="machine_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id}/{self.number}"

    @property
    def stream(self) -> str:
        return f"machine/{self.casino_id}.{self.number}"


class MachineConfigVersion(models.Model):
    casino = _casino()
    machine = models.CharField(max_length=32)
    version = models.PositiveIntegerField(help_text="the machine's stream version")
    event_type = models.CharField(max_length=64)
    config = models.JSONField()
    approval_reference = models.CharField(max_length=200, blank=True, default="")
    reason = models.TextField(blank=True, default="")
    recorded_by = models.CharField(max_length=150)
    effective_at = models.DateTimeField()

    class Meta:
        ordering = ["casino_id", "machine", "version"]
        constraints = [models.UniqueConstraint(fields=["casino", "machine", "version"],
                                               name="machine_config_unique")]


class MeterReading(models.Model):
    casino = _casino()
    machine = models.CharField(max_length=32)
    reading_id = models.CharField(max_length=64)
    kind = models.CharField(max_length=16, help_text="reading, rollover or ram_clear")
    source = models.CharField(max_length=8)
    read_at = models.DateTimeField()
    gaming_day = models.DateField()
    meters = models.JSONField()
    difference = models.JSONField()
    win = money_field()
    recorded_by = models.CharField(max_length=150)
    witnessed_by = models.CharField(max_length=150, blank=True, default="")
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino_id", "machine", "version"]
        constraints = [models.UniqueConstraint(fields=["casino", "machine", "reading_id"],
                                               name="meter_reading_unique")]


class MachineDay(models.Model):
    casino = _casino()
    machine = models.CharField(max_length=32)
    gaming_day = models.DateField()
    coin_in = money_field(default=0)
    coin_out = money_field(default=0)
    jackpots = money_field(default=0)
    cancelled_credits = money_field(default=0)
    bills_in = money_field(default=0)
    tickets_in = money_field(default=0)
    tickets_out = money_field(default=0)
    progressive_contributions = money_field(default=0)
    contributions = money_field(default=0, help_text="to the pool, at its rate")
    games_played = models.BigIntegerField(default=0)
    win = money_field(default=0, help_text="coin in − coin out − jackpots")
    readings = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["casino_id", "gaming_day", "machine"]
        constraints = [models.UniqueConstraint(fields=["casino", "machine", "gaming_day"],
                                               name="machine_day_unique")]


class MachineBox(models.Model):
    casino = _casino()
    machine = models.CharField(max_length=32)
    drop_id = models.CharField(max_length=64)
    gaming_day = models.DateField()
    notes = models.JSONField()
    counted = money_field()
    metered = money_field()
    variance = models.DecimalField(max_digits=14, decimal_places=2)
    window = models.CharField(max_length=32)
    status = models.CharField(max_length=16, help_text="counted, confirmed")
    counted_by = models.CharField(max_length=150)
    confirmed_by = models.CharField(max_length=150, blank=True, default="")
    explanation = models.TextField(blank=True, default="")
    approved_by = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        ordering = ["casino_id", "gaming_day", "machine", "drop_id"]
        constraints = [models.UniqueConstraint(fields=["casino", "drop_id"],
                                               name="machine_box_unique")]


class SlotTicket(models.Model):
    casino = _casino()
    validation = models.CharField(max_length=32)
    machine = models.CharField(max_length=32)
    amount = money_field()
    issued_at = models.DateTimeField()
    expires_on = models.DateField()
    status = models.CharField(max_length=16, help_text="outstanding, redeemed, expired")
    place = models.CharField(max_length=16, blank=True, default="")
    redeemed_machine = models.CharField(max_length=32, blank=True, default="")
    window = models.CharField(max_length=32, blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino_id", "issued_at", "validation"]
        constraints = [models.UniqueConstraint(fields=["casino", "validation"],
                                               name="slot_ticket_unique")]


class HandPay(models.Model):
    casino = _casino()
    handpay_id = models.CharField(max_length=64)
    machine = models.CharField(max_length=32)
    kind = models.CharField(max_length=20)
    amount = money_field()
    machine_event = models.CharField(max_length=64)
    pool = models.CharField(max_length=64, blank=True, default="")
    recorded_at = models.DateTimeField()
    status = models.CharField(max_length=16, help_text="recorded, paid")
    window = models.CharField(max_length=32, blank=True, default="")
    slip = models.CharField(max_length=64, blank=True, default="")
    paid_by = models.CharField(max_length=150, blank=True, default="")
    witnessed_by = models.CharField(max_length=150, blank=True, default="")
    patron = models.CharField(max_length=64, blank=True, default="")
    paid_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino_id", "recorded_at", "handpay_id"]
        constraints = [models.UniqueConstraint(fields=["casino", "handpay_id"],
                                               name="hand_pay_unique")]


class SlotProgressive(models.Model):
    casino = _casino()
    pool = models.CharField(max_length=64)
    name = models.CharField(max_length=200)
    machines = models.JSONField()
    rate = rate_field(help_text="percent of coin in")
    start = money_field()
    amount = money_field(help_text="the pool: what the display shows")
    contributions = money_field(default=0)
    hits = models.PositiveIntegerField(default=0)
    won = money_field(default=0)
    funded = money_field(default=0, help_text="start values the casino funded")
    approval_reference = models.CharField(max_length=200)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino_id", "pool"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "pool"], name="slot_progressive_unique"),
            models.CheckConstraint(condition=models.Q(amount__gte=0),
                                   name="slot_progressive_not_negative"),
        ]


class SlotCashCount(models.Model):
    """A count of the slot cashier's cash at a window (``SlotCashCounted``); ``position`` the
    count's place in the event log (the ledger's 1146.W up to it is what was expected)."""

    casino = _casino()
    count_id = models.CharField(max_length=64)
    window = models.CharField(max_length=32)
    gaming_day = models.DateField()
    notes = models.JSONField()
    counted = money_field()
    counted_by = models.CharField(max_length=150)
    witnessed_by = models.CharField(max_length=150)
    counted_at = models.DateTimeField()
    position = models.BigIntegerField()

    class Meta:
        ordering = ["casino_id", "gaming_day", "window", "position"]
        constraints = [models.UniqueConstraint(fields=["casino", "count_id"],
                                               name="slot_cash_count_unique")]


class SlotWindow(models.Model):
    """A slot cashier's window and the cash it should hold (its book: 1146.W in the ledger):
    boxes counted in, tickets and hand pays paid out, each shift's differences."""

    casino = _casino()
    window = models.CharField(max_length=32)
    cash = money_field(default=0)
    shifts = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["casino_id", "window"]
        constraints = [models.UniqueConstraint(fields=["casino", "window"],
                                               name="slot_window_unique")]


class SlotShift(models.Model):
    """A slot cashier's shift (``SlotShiftOpened`` …): its opening, the movements at its window
    while it was open, its last count and its differences. One shift not closed a window."""

    casino = _casino()
    shift_id = models.CharField(max_length=64)
    window = models.CharField(max_length=32)
    gaming_day = models.DateField()
    status = models.CharField(max_length=16)  # open | counted | closed
    opening_notes = models.JSONField()
    opening = money_field()
    book = money_field()
    opening_variance = money_field()
    first = models.BooleanField()
    boxes_in = money_field(default=0)
    tickets_paid = money_field(default=0)
    hand_pays_paid = money_field(default=0)
    count_number = models.PositiveIntegerField(default=0)
    closing_notes = models.JSONField(default=dict)
    counted = money_field(null=True)
    expected = money_field(null=True)
    variance = money_field(null=True)
    explanation = models.TextField(default="")
    approved_by = models.CharField(max_length=150, default="")
    approved_count = models.PositiveIntegerField(default=0)
    opened_by = models.CharField(max_length=150)
    counted_by = models.CharField(max_length=150, default="")
    closed_by = models.CharField(max_length=150, default="")
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True)
    closed_position = models.BigIntegerField(null=True, help_text="the close's event position")
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino_id", "-opened_at"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "shift_id"], name="slot_shift_unique"),
            # one shift not closed at a window: a second opening fails in the database
            models.UniqueConstraint(fields=["casino", "window"],
                                    condition=~models.Q(status="closed"),
                                    name="slot_shift_one_live_per_window"),
        ]


class MachineParameter(models.Model):
    """A change of a slot floor's legal parameter (``MachineParameterSet``)."""

    casino = _casino()
    name = models.CharField(max_length=32)
    value = models.DecimalField(max_digits=14, decimal_places=2)
    effective_from = models.DateField()
    reference = models.TextField()
    set_by = models.CharField(max_length=150)
    set_at = models.DateTimeField()
    position = models.BigIntegerField(unique=True)

    class Meta:
        ordering = ["casino_id", "name", "effective_from", "position"]
