"""The pit's read models: every table here is a projection of events (``games.projections``).

Design overview
---------------
Nothing in this module is written by a service or the admin directly: ``Table`` is the
``table/<casino>.<code>`` stream, ``TableSession`` and ``Slip`` the ``table_session/<id>``
streams (and the cage's ``FillIssued`` / ``CreditReceived``), ``Round`` and ``Bet`` the
``round/<id>`` streams, ``JackpotBet`` the rounds' jackpot chips (and the pools' coups that
decide them), ``GamingDayResult`` the closes. All can be rebuilt from the events
(``manage.py rebuild_projections``). Keys are natural (casino + code, uuid, round + bet id) so a
rebuild gives the same rows. Money is ``casino.models.money_field``; chip counts are JSON maps of
denomination strings to pieces.
"""

from __future__ import annotations

from django.db import models

from casino.models import money_field


class Table(models.Model):
    """A gaming table (banca / mesa) of one game, with its options, seats and limits."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="tables")
    code = models.SlugField(max_length=64)
    name = models.CharField(max_length=200)
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    seats = models.PositiveSmallIntegerField()
    chip_set = models.SlugField(max_length=64)
    limits = models.JSONField(default=dict, help_text="limit group -> {min, max}")
    max_prize_per_coup = money_field(null=True, blank=True)
    # Gaming tax (docs/gaming-tax.md): banca simples or dupla (Decreto-Lei n.º 422/89, arts. 85.º
    # and 87.º), and whether it is a VIP table (Macau's premium, Lei n.º 16/2001, art. 20.º).
    bank = models.CharField(max_length=8, default="simples")
    vip = models.BooleanField(default=False)
    # The currency the table plays in (``TableCurrencyChanged``); empty: the book currency.
    currency = models.CharField(max_length=3, blank=True, default="")
    # The float in the tray while no session is open: the last closing count.
    last_session_id = models.UUIDField(null=True, blank=True)
    last_closing = models.JSONField(null=True, blank=True)
    open_session_id = models.UUIDField(null=True, blank=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino", "code"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "code"], name="table_unique_code"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id}/{self.code} ({self.game})"

    @property
    def stream(self) -> str:
        return f"table/{self.casino_id}.{self.code}"


class TableCapital(models.Model):
    """Projection of ``TableCapitalApproved``: each capital em giro inicial approved for a
    table, from the moment it was recorded (a day's register reads the one in force at the
    day's end: configuration read as of the day, never live)."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    table = models.SlugField(max_length=64)
    capital = money_field()
    reference = models.CharField(max_length=200)
    recorded_at = models.DateTimeField()
    position = models.BigIntegerField()

    class Meta:
        ordering = ["casino", "table", "position"]
        constraints = [models.UniqueConstraint(fields=["position"],
                                               name="table_capital_unique_position")]


class TableTaxClass(models.Model):
    """Projection of ``TableTaxClassChanged``: each class a table was given (banca simples or
    dupla, VIP), from the moment it was recorded: a day's register reads the one in force at
    the day's end (configuration read as of the day, never live; issue 34)."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    table = models.SlugField(max_length=64)
    bank = models.CharField(max_length=16)
    vip = models.BooleanField()
    recorded_at = models.DateTimeField()
    position = models.BigIntegerField()

    class Meta:
        ordering = ["casino", "table", "position"]
        constraints = [models.UniqueConstraint(fields=["position"],
                                               name="table_tax_class_unique_position")]


class DropDefinition(models.Model):
    """One version of the casino's drop definition (``DropDefinitionSet``)."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="drop_definitions")
    version = models.PositiveIntegerField()
    basis = models.CharField(max_length=16)
    reason = models.TextField()
    set_by = models.CharField(max_length=150)
    set_at = models.DateTimeField()

    class Meta:
        ordering = ["casino", "version"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "version"], name="drop_definition_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id} drop v{self.version}: {self.basis}"


class SessionStatus(models.TextChoices):
    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class TableSession(models.Model):
    """A table session (partida): float, fills, credits, drop, rounds, handle, result, hold."""

    session_id = models.UUIDField(primary_key=True)
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="table_sessions")
    table = models.SlugField(max_length=64)
    game = models.CharField(max_length=32)
    gaming_day = models.DateField()
    status = models.CharField(max_length=8, choices=SessionStatus.choices)
    opened_at = models.DateTimeField()
    opened_by = models.CharField(max_length=150)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.CharField(max_length=150, blank=True, default="")
    previous_session_id = models.UUIDField(null=True, blank=True)
    opening = models.JSONField()
    opening_amount = money_field()
    # A session of a table in a foreign currency: its currency and the rate the ledger books
    # it at (``TableSessionOpened``); empty / null: the book currency.
    currency = models.CharField(max_length=3, blank=True, default="")
    rate = models.DecimalField(max_digits=14, decimal_places=6, null=True, blank=True)
    roll_difference = models.JSONField(default=dict)
    float_chips = models.JSONField(help_text="opening + fills issued - credits, by denomination")
    fills_amount = money_field(default=0)
    fills_requested_amount = money_field(default=0)
    credits_amount = money_field(default=0)
    drop_recorded = money_field(default=0)
    drop_counted = money_field(null=True, blank=True)
    drop = money_field(null=True, blank=True)
    drop_basis = models.CharField(max_length=16, blank=True, default="")
    drop_definition_version = models.PositiveIntegerField(null=True, blank=True)
    closing = models.JSONField(null=True, blank=True)
    closing_amount = money_field(null=True, blank=True)
    handle = money_field(default=0)
    round_result = money_field(default=0)
    table_win = money_field(null=True, blank=True)
    variance = money_field(null=True, blank=True, help_text="table win - round result")
    hold_percent = models.DecimalField(max_digits=24, decimal_places=4, null=True, blank=True)
    win_handle_percent = models.DecimalField(max_digits=24, decimal_places=4, null=True,
                                             blank=True)
    rounds = models.PositiveIntegerField(default=0)
    rounds_voided = models.PositiveIntegerField(default=0)
    current_round_id = models.UUIDField(null=True, blank=True)
    pending_bets = models.JSONField(default=list, help_text="bets carried to the next round")
    craps_point = models.PositiveSmallIntegerField(null=True, blank=True)
    colour_chips = models.JSONField(default=dict, help_text="colour -> {player, value, chips}")
    colour_chips_in = money_field(default=0)
    colour_chips_out = money_field(default=0)
    # After the close: the table win moved by approved late slips (a fill issued, a slip voided)
    late_amount = money_field(default=0, help_text="table win moved after the close")
    late_changes = models.PositiveIntegerField(default=0)
    # The table variance as a second person approved it (docs/approvals.md, table_variance)
    variance_approved = money_field(null=True, blank=True)
    variance_approval_id = models.UUIDField(null=True, blank=True)
    variance_approved_by = models.CharField(max_length=150, blank=True, default="")
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["-opened_at"]
        indexes = [
            models.Index(fields=["casino", "table", "status"], name="session_table_status"),
            models.Index(fields=["casino", "gaming_day"], name="session_gaming_day"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id}/{self.table} {self.gaming_day} ({self.status})"

    @property
    def stream(self) -> str:
        return f"table_session/{self.session_id}"

    @property
    def rounds_played(self) -> int:
        """The rounds counted one way on every screen (issue 36): settled or with an outcome,
        never a void one (counted apart, ``rounds_voided``) nor the one in play, as the gaming
        day's result counts them at the close (``GamingDayResult.rounds``)."""
        return self.rounds - self.rounds_voided - (1 if self.current_round_id else 0)


class SlipKind(models.TextChoices):
    FILL = "fill", "Fill"
    CREDIT = "credit", "Credit"


class SlipStatus(models.TextChoices):
    REQUESTED = "requested", "Requested"
    ISSUED = "issued", "Issued by the cage"
    RECEIVED = "received", "Received by the cage"
    VOIDED = "voided", "Voided"
    REFUSED = "refused", "Refused by the cage"


class Slip(models.Model):
    """A pre-numbered fill or credit slip. Its number is used once, voided or not."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="slips")
    kind = models.CharField(max_length=8, choices=SlipKind.choices)
    number = models.CharField(max_length=32)
    session_id = models.UUIDField()
    table = models.SlugField(max_length=64)
    chip_set = models.SlugField(max_length=64, blank=True, default="")
    chips = models.JSONField()
    amount = money_field()
    status = models.CharField(max_length=12, choices=SlipStatus.choices)
    shift_id = models.CharField(max_length=64, null=True, blank=True)
    window = models.CharField(max_length=64, blank=True, default="")
    requested_at = models.DateTimeField()
    requested_by = models.CharField(max_length=150)
    void_reason = models.TextField(blank=True, default="")
    # The cage's answer when it declines the request (SlipRefused): the slip is refused, with the
    # reason, who and when, for the pit to see at once; the pit voids it.
    refusal_reason = models.TextField(blank=True, default="")
    refused_by = models.CharField(max_length=150, blank=True, default="")
    refused_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["casino", "kind", "number"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "kind", "number"], name="slip_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} slip {self.number} ({self.status})"


class RoundStatus(models.TextChoices):
    BETTING = "betting", "Taking bets"
    CLOSED = "closed", "No more bets"
    OUTCOME = "outcome", "Outcome recorded"
    SETTLED = "settled", "Settled"
    VOIDED = "voided", "Void (golpe nulo)"


class Round(models.Model):
    """A round (golpe): its bets, outcome and settlements."""

    round_id = models.UUIDField(primary_key=True)
    # Every index is written on every round opened: the session's is the (session_id, number)
    # one below; the casino's is a plain one (not the LIKE one Django adds for a text key); the
    # table's rounds are read through its sessions.
    session_id = models.UUIDField()
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="rounds", db_index=False)
    table = models.SlugField(max_length=64, db_index=False)
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=RoundStatus.choices)
    point = models.PositiveSmallIntegerField(null=True, blank=True)
    play = models.JSONField(default=dict, help_text="card games: the deal and the hands in play")
    outcome = models.JSONField(null=True, blank=True)
    outcome_by = models.CharField(max_length=150, blank=True, default="")
    outcome_version = models.PositiveIntegerField(null=True, blank=True)
    settled_outcome = models.JSONField(null=True, blank=True)
    handle = money_field(default=0)
    stakes = models.JSONField(default=dict, help_text="hold check: edge key -> [sum, squares]")
    result = money_field(default=0)
    prizes = money_field(default=0)
    void_reason = models.TextField(blank=True, default="")
    # A void after the outcome: asked by one pit boss, approved by another (docs/approvals.md)
    void_reason_code = models.CharField(max_length=64, blank=True, default="")
    void_approval_id = models.UUIDField(null=True, blank=True)
    void_requested_by = models.CharField(max_length=150, blank=True, default="")
    voided_by = models.CharField(max_length=150, blank=True, default="")
    corrections = models.PositiveIntegerField(default=0)
    jackpot_amount = money_field(default=0, help_text="jackpot chips collected (not handle)")
    jackpot_prizes = money_field(default=0, help_text="jackpot prizes the round's coup awarded")
    opened_at = models.DateTimeField()
    opened_by = models.CharField(max_length=150)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["session_id", "number"]
        indexes = [models.Index(fields=["session_id", "number"], name="round_session_number"),
                   models.Index(fields=["casino"], name="round_casino")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.table} ({self.status})"

    @property
    def stream(self) -> str:
        return f"round/{self.round_id}"


class Bet(models.Model):
    """A bet of a round, by seat and player, with its settlement."""

    round_id = models.UUIDField()
    bet_id = models.CharField(max_length=64)
    session_id = models.UUIDField()
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=100)
    bet_type = models.CharField(max_length=32)
    bet = models.JSONField(help_text="the bet as the rules engine reads it")
    amount = money_field()
    stage = models.CharField(max_length=10, default="initial")
    base = models.CharField(max_length=64, null=True, blank=True)
    hand_key = models.CharField(max_length=32, null=True, blank=True)
    carried_from = models.UUIDField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)
    status = models.CharField(max_length=12, blank=True, default="")
    win = money_field(null=True, blank=True)
    returned = money_field(null=True, blank=True)
    point = models.PositiveSmallIntegerField(null=True, blank=True)
    capped_win = money_field(null=True, blank=True)
    settled_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round_id", "bet_id"], name="bet_unique_id"),
        ]

    def __str__(self) -> str:
        return f"{self.bet_id} {self.bet_type} {self.amount} ({self.status or 'open'})"


class JackpotBetStatus(models.TextChoices):
    PLACED = "placed", "Placed"
    RETURNED = "returned", "Returned (void before the chips were collected)"
    VOID = "void", "In the pool, decided nothing (void round)"
    WON = "won", "Won a combination"
    LOST = "lost", "No combination"


class JackpotBet(models.Model):
    """A jackpot chip of a round (aposta no acumulado): one per player and coup, outside the
    main game's handle. Its fate comes from the pool's coup (``JackpotCoupSettled``)."""

    round_id = models.UUIDField()
    bet_id = models.CharField(max_length=64)
    session_id = models.UUIDField()
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=100)
    amount = money_field()
    pool_id = models.SlugField(max_length=64)
    status = models.CharField(max_length=10, choices=JackpotBetStatus.choices,
                              default=JackpotBetStatus.PLACED)
    combination = models.CharField(max_length=32, blank=True, default="")
    prize = money_field(null=True, blank=True)

    class Meta:
        ordering = ["round_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round_id", "bet_id"], name="jackpot_bet_unique_id"),
        ]

    def __str__(self) -> str:
        return f"jackpot {self.bet_id} seat {self.seat} {self.amount} ({self.status})"


class GamingDayResult(models.Model):
    """Results of one table on one gaming day (dia de jogo), summed over its closed sessions."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="gaming_day_results")
    gaming_day = models.DateField()
    table = models.SlugField(max_length=64)
    game = models.CharField(max_length=32)
    sessions = models.PositiveIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)
    opening_amount = money_field(default=0)
    closing_amount = money_field(default=0)
    fills = money_field(default=0)
    credits = money_field(default=0)
    drop = money_field(default=0)
    handle = money_field(default=0)
    round_result = money_field(default=0)
    table_win = money_field(default=0)
    late_amount = money_field(default=0, help_text="table win moved after the sessions closed")
    carried_win = money_field(default=0, help_text=(
        "table win of late corrections to sessions of sealed days, booked in this day (part of "
        "table_win; CarriedCorrection lists them)"))

    class Meta:
        ordering = ["casino", "gaming_day", "table"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "gaming_day", "table"],
                                    name="gaming_day_table_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id} {self.gaming_day} {self.table}: {self.table_win}"


class CarriedCorrection(models.Model):
    """A late change to a closed session of a sealed gaming day (a slip added, voided or issued
    after the close, approved), booked in the next open day: the sealed day's figures stay as
    signed, and this row says what the booked day's table win takes and what it corrects."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="carried_corrections")
    booked_day = models.DateField(help_text="the open day whose figures take the change")
    table = models.SlugField(max_length=64)
    corrects_day = models.DateField(help_text="the sealed day of the session it corrects")
    session_id = models.UUIDField()
    event_type = models.CharField(max_length=64)
    kind = models.CharField(max_length=16, help_text="fill or credit")
    slip = models.CharField(max_length=32)
    win_change = money_field()
    approval_id = models.CharField(max_length=64, blank=True, default="")
    position = models.BigIntegerField(unique=True, help_text="global position of the event")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["casino", "booked_day", "table", "position"]
        indexes = [models.Index(fields=["casino", "booked_day"])]

    def __str__(self) -> str:
        return (f"{self.casino_id} {self.booked_day} {self.table}: {self.kind} {self.slip} of "
                f"{self.corrects_day} {self.win_change}")


class DropBoxStatus(models.TextChoices):
    COUNTED = "counted", "Counted, awaiting the second counter"
    CONFIRMED = "confirmed", "Counted by two counters"
    RECEIVED = "received", "Received by the cage"


class DropBox(models.Model):
    """The drop box of one closed session in the count room (``drop_box/<session>``): its count
    by two counters and the cage's receipt against it, with the difference and its approval.

    ``variance_value`` is received less counted (negative: short); a variance other than zero
    needs an approval (``variance_approval_id``) before its gaming day closes.
    """

    session_id = models.UUIDField(primary_key=True)
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="drop_boxes")
    table = models.SlugField(max_length=64)
    gaming_day = models.DateField()
    status = models.CharField(max_length=10, choices=DropBoxStatus.choices)
    count_id = models.UUIDField()
    count_number = models.PositiveIntegerField(default=1)
    cash = models.JSONField(help_text="the count: denomination -> pieces")
    amount = money_field()
    counted_by = models.CharField(max_length=150)
    counted_at = models.DateTimeField()
    confirmed_by = models.CharField(max_length=150, blank=True, default="")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    receipt_id = models.CharField(max_length=64, blank=True, default="")
    shift_id = models.CharField(max_length=64, blank=True, default="")
    window = models.CharField(max_length=64, blank=True, default="")
    received_cash = models.JSONField(null=True, blank=True)
    received_amount = money_field(null=True, blank=True)
    received_by = models.CharField(max_length=150, blank=True, default="")
    received_at = models.DateTimeField(null=True, blank=True)
    variance_cash = models.JSONField(default=dict, blank=True)
    variance_value = money_field(default=0)
    variance_approval_id = models.UUIDField(null=True, blank=True)
    variance_reason = models.CharField(max_length=64, blank=True, default="")
    variance_approved_by = models.CharField(max_length=150, blank=True, default="")
    variance_approved_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino", "gaming_day", "table"]
        indexes = [models.Index(fields=["casino", "gaming_day"], name="drop_box_gaming_day")]

    def __str__(self) -> str:
        return f"drop box {self.casino_id}/{self.table} {self.gaming_day} ({self.status})"

    @property
    def stream(self) -> str:
        return f"drop_box/{self.session_id}"

    @property
    def variance_approved(self) -> bool:
        return self.variance_approval_id is not None
