"""Read models of progressive jackpots: every table here is a projection of the pools' events.

Design overview
---------------
Nothing here is written by a service or the admin: ``jackpots.projections`` builds every row from
the ``jackpot/<casino>.<pool_id>`` streams, and ``manage.py rebuild_projections`` rebuilds them.
Keys are natural (casino + pool id, + version, + round, prize id) so a rebuild gives the same
rows.

- ``JackpotPool``: the pool now: its parameters in force, its meters (pool, reserve) and their
  running totals (contributions, hits, wins, resets, seeds, reserve draws, corrections).
- ``JackpotConfigVersion``: every configuration the pool has had, with the moment it took
  effect: a round is paid with the one in force when it opened.
- ``JackpotTable``: which table feeds which pool (one pool per table, by a unique key); a
  table's ``options.jackpot`` is derived from it (``selectors.table_jackpot_option``).
- ``JackpotCoup``: each coup's recorded request and result (one per pool and round).
- ``JackpotPrize``: each prize awarded (a hit), and whether and when the cage paid it.
- ``JackpotMeterReading``: the meters after every event that moved them, so any meter is known
  as of any past moment.

The database holds the last line: meters never negative (CHECK), one coup per round and pool,
one prize per bet of a coup, one pool per table (UNIQUE).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import models

from casino.models import money_field
from jackpots.rules import number_text

CENT = Decimal("0.01")
PERCENT_DIGITS = 9
PERCENT_PLACES = 4


def percent_field(**kwargs: object) -> models.DecimalField:  # type: ignore[type-arg]
    return models.DecimalField(max_digits=PERCENT_DIGITS, decimal_places=PERCENT_PLACES,
                               **kwargs)  # type: ignore[arg-type]


class Game(models.TextChoices):
    BLACKJACK = "blackjack", "Blackjack/21"
    STUD_POKER = "stud_poker", "Póquer sem descarte"


class JackpotPool(models.Model):
    """A progressive jackpot pool (prémio acumulado) and its meters, as of now."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="jackpot_pools")
    pool_id = models.SlugField(max_length=64)
    name = models.CharField(max_length=200)
    game = models.CharField(max_length=16, choices=Game.choices)
    tables = models.JSONField(default=list, help_text="codes of the tables that feed the pool")
    # parameters in force (configuration ``config_version``)
    bet = money_field()
    increment_percent = percent_field()
    start = money_field()
    paytable = models.JSONField(help_text="[{combination, pays}] as options.jackpot writes it")
    reserve_percent = percent_field(default=0)
    cap = money_field(null=True, blank=True)
    approved_on = models.DateField()
    approval_reference = models.CharField(max_length=200)
    paytable_approved_on = models.DateField()
    paytable_approval_reference = models.CharField(max_length=200)
    config_version = models.PositiveIntegerField()
    # meters
    amount = money_field(default=0, help_text="the pool: what the display shows")
    reserve = money_field(default=0, help_text="the hidden reserve that funds the next reset")
    coups = models.PositiveIntegerField(default=0)
    bets_count = models.PositiveIntegerField(default=0)
    bets_amount = money_field(default=0, help_text="jackpot chips staked")
    contributions = money_field(default=0, help_text="added to the pool by the bets")
    reserve_contributions = money_field(default=0, help_text="set aside in the reserve")
    diverted = money_field(default=0, help_text="kept out of the pool by the cap")
    retained = money_field(default=0, help_text="the casino's share of the bets")
    hits = models.PositiveIntegerField(default=0)
    wins = money_field(default=0, help_text="prizes awarded")
    prizes_unpaid = money_field(default=0, help_text="awarded, not yet paid by the cage")
    resets = models.PositiveIntegerField(default=0)
    seeded = models.DecimalField(max_digits=16, decimal_places=2, default=0,
                                 help_text="start values funded (first and each reset)")
    seeded_by_casino = models.DecimalField(max_digits=16, decimal_places=2, default=0)
    reserve_draws = money_field(default=0, help_text="taken from the reserve to fund resets")
    corrections = money_field(default=0, help_text="net approved corrections of the pool")
    reserve_corrections = money_field(default=0)
    last_hit_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    version = models.PositiveIntegerField(help_text="version of the pool's stream")

    class Meta:
        ordering = ["casino", "pool_id"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "pool_id"], name="jackpot_pool_unique"),
            models.CheckConstraint(condition=models.Q(amount__gte=0),
                                   name="jackpot_pool_amount_not_negative"),
            models.CheckConstraint(condition=models.Q(reserve__gte=0),
                                   name="jackpot_pool_reserve_not_negative"),
            models.CheckConstraint(condition=models.Q(prizes_unpaid__gte=0),
                                   name="jackpot_pool_unpaid_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.casino_id}/{self.pool_id}): {self.amount}"

    @property
    def stream(self) -> str:
        return f"jackpot/{self.casino_id}.{self.pool_id}"

    def jackpot_option(self) -> dict[str, Any]:
        """The parameters in force as a table's ``options.jackpot`` (docs/jackpots.md)."""
        return {
            "bet": str(self.bet.quantize(CENT)),
            "increment_percent": number_text(self.increment_percent),
            "start": str(self.start.quantize(CENT)),
            "paytable": [dict(line) for line in self.paytable],
        }


class JackpotConfigVersion(models.Model):
    """One configuration of a pool and when it took effect (for the rounds opened after it)."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    pool_id = models.SlugField(max_length=64)
    version = models.PositiveIntegerField()
    config = models.JSONField(help_text="options.jackpot as in force, plus reserve, cap, tables")
    event_type = models.CharField(max_length=64)
    changed = models.JSONField(default=list)
    approved_on = models.DateField(null=True, blank=True)
    approval_reference = models.CharField(max_length=200, blank=True, default="")
    reason = models.TextField(blank=True, default="")
    recorded_by = models.CharField(max_length=150)
    effective_at = models.DateTimeField()
    position = models.BigIntegerField()

    class Meta:
        ordering = ["casino", "pool_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "pool_id", "version"],
                                    name="jackpot_config_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id}/{self.pool_id} configuration {self.version}"


class JackpotTable(models.Model):
    """A table feeding a pool. A table feeds one pool at most."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    table = models.SlugField(max_length=64)
    pool_id = models.SlugField(max_length=64)

    class Meta:
        ordering = ["casino", "table"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "table"], name="jackpot_table_one_pool"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id}/{self.table} feeds {self.pool_id}"


class JackpotCoup(models.Model):
    """One coup of a pool: the request ``pay_coup`` was given and its result."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    pool_id = models.SlugField(max_length=64)
    round_id = models.CharField(max_length=64)
    table = models.SlugField(max_length=64)
    config_version = models.PositiveIntegerField()
    request = models.JSONField()
    result = models.JSONField()
    seats = models.JSONField(default=dict)
    settled_at = models.DateTimeField()
    settled_by = models.CharField(max_length=150)
    position = models.BigIntegerField()

    class Meta:
        ordering = ["casino", "pool_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "pool_id", "round_id"],
                                    name="jackpot_coup_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.casino_id}/{self.pool_id} coup of round {self.round_id}"


class JackpotPrize(models.Model):
    """A prize awarded by a coup (a hit), owed to its winner until the cage pays it.

    The cage may pay it in instalments: ``paid_amount`` is what it has paid so far (never more
    than ``amount``, by a CHECK), ``paid`` says it is paid in full; ``payout_id``, ``shift_id``,
    ``paid_at`` and ``paid_by`` are those of the last payment."""

    prize_id = models.CharField(max_length=64, primary_key=True)
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    pool_id = models.SlugField(max_length=64)
    round_id = models.CharField(max_length=64)
    table = models.SlugField(max_length=64)
    bet_id = models.CharField(max_length=64)
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=100)
    combination = models.CharField(max_length=32)
    top = models.BooleanField(default=False)
    amount = money_field()
    pool_before = money_field()
    pool_after = money_field()
    hit_at = models.DateTimeField()
    position = models.BigIntegerField()
    paid = models.BooleanField(default=False, help_text="paid in full")
    paid_amount = money_field(default=0, help_text="paid by the cage so far")
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.CharField(max_length=150, blank=True, default="")
    payout_id = models.CharField(max_length=64, blank=True, default="")
    shift_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["-position", "prize_id"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "pool_id", "round_id", "bet_id"],
                                    name="jackpot_prize_once_per_bet"),
            models.CheckConstraint(condition=models.Q(amount__gte=0),
                                   name="jackpot_prize_not_negative"),
            models.CheckConstraint(
                condition=models.Q(paid_amount__gte=0, paid_amount__lte=models.F("amount")),
                name="jackpot_prize_paid_at_most_owed"),
        ]
        indexes = [models.Index(fields=["casino", "pool_id", "position"],
                                name="jackpot_prize_pool_position")]

    def __str__(self) -> str:
        return f"{self.combination} {self.amount} to {self.player} (round {self.round_id})"

    @property
    def owed(self) -> Decimal:
        """What the hit still owes its winner."""
        owed: Decimal = self.amount - self.paid_amount
        return owed


class JackpotMeterReading(models.Model):
    """The meters of a pool right after one event that moved them (the meter history)."""

    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    pool_id = models.SlugField(max_length=64)
    version = models.PositiveIntegerField(help_text="version of the event in the pool's stream")
    position = models.BigIntegerField()
    recorded_at = models.DateTimeField()
    event_type = models.CharField(max_length=64)
    round_id = models.CharField(max_length=64, blank=True, default="")
    table = models.SlugField(max_length=64, blank=True, default="")
    change = models.DecimalField(max_digits=16, decimal_places=2,
                                 help_text="how much this event moved the pool (signed)")
    amount = money_field()
    reserve = money_field()
    coups = models.PositiveIntegerField()
    bets_count = models.PositiveIntegerField()
    bets_amount = money_field()
    contributions = money_field()
    reserve_contributions = money_field()
    diverted = money_field()
    retained = money_field()
    hits = models.PositiveIntegerField()
    wins = money_field()
    prizes_unpaid = money_field()
    resets = models.PositiveIntegerField()
    seeded = models.DecimalField(max_digits=16, decimal_places=2)
    seeded_by_casino = models.DecimalField(max_digits=16, decimal_places=2)
    reserve_draws = money_field()
    corrections = money_field()
    reserve_corrections = money_field()

    class Meta:
        ordering = ["casino", "pool_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "pool_id", "version"],
                                    name="jackpot_reading_unique"),
        ]
        indexes = [models.Index(fields=["casino", "pool_id", "recorded_at"],
                                name="jackpot_reading_at")]

    def __str__(self) -> str:
        return f"{self.casino_id}/{self.pool_id} v{self.version}: {self.amount}"


#: The meters a reading copies from the pool.
METERS = (
    "amount", "reserve", "coups", "bets_count", "bets_amount", "contributions",
    "reserve_contributions", "diverted", "retained", "hits", "wins", "prizes_unpaid", "resets",
    "seeded", "seeded_by_casino", "reserve_draws", "corrections", "reserve_corrections",
)
