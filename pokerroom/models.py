"""The poker room's read models, written only by ``pokerroom.projections`` (rebuildable from
the events of ``pokerroom.events``)."""

from __future__ import annotations

from django.db import models

from casino.models import money_field


class PokerTable(models.Model):
    """A table of the poker room and its running figures."""

    casino_id = models.CharField(max_length=64)
    code = models.CharField(max_length=32)
    game = models.CharField(max_length=32)
    seats = models.PositiveSmallIntegerField()
    min_buy_in = money_field()
    max_buy_in = money_field()
    charge = models.CharField(max_length=16)
    rake_percent = models.DecimalField(max_digits=7, decimal_places=4)
    rake_cap = money_field()
    minimum_pot = money_field()
    no_flop_no_drop = models.BooleanField()
    time_rate = money_field()
    period_minutes = models.PositiveIntegerField()
    commission_percent = models.DecimalField(max_digits=7, decimal_places=4)
    approval_reference = models.CharField(max_length=200)
    hands = models.PositiveIntegerField(default=0)
    buy_ins = money_field(default=0)
    cashed_out = money_field(default=0)
    players_money = money_field(default=0)  # buy-ins - rake - charges - commission - cash-outs
    pots = money_field(default=0)
    rake_recorded = money_field(default=0)
    rake_counted = money_field(default=0)
    rake_uncounted = money_field(default=0)
    time_charges = money_field(default=0)
    commission = money_field(default=0)
    version = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino_id", "code"],
                                               name="poker_table_unique")]
        ordering = ["casino_id", "code"]


class PokerSeat(models.Model):
    casino_id = models.CharField(max_length=64)
    table = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    patron = models.CharField(max_length=64, blank=True)
    occupied = models.BooleanField(default=True)
    bought = money_field(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino_id", "table", "seat"],
                                               name="poker_seat_unique")]
        ordering = ["casino_id", "table", "seat"]


class PokerWaitlistTicket(models.Model):
    """A ticket of a table's waiting list (a patron reference or none; never a name)."""

    casino_id = models.CharField(max_length=64)
    table = models.CharField(max_length=32)
    ticket = models.PositiveIntegerField()
    patron = models.CharField(max_length=64, blank=True)
    waiting = models.BooleanField(default=True)
    seated = models.BooleanField(default=False)
    joined_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino_id", "table", "ticket"],
                                               name="poker_waitlist_ticket_unique")]
        ordering = ["casino_id", "table", "ticket"]


class PokerHand(models.Model):
    casino_id = models.CharField(max_length=64)
    table = models.CharField(max_length=32)
    hand = models.PositiveIntegerField()
    pot = money_field()
    rake = money_field()
    flop_dealt = models.BooleanField()
    source = models.CharField(max_length=16)
    contributions = models.JSONField()
    awards = models.JSONField()
    recorded_at = models.DateTimeField()
    position = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["casino_id", "table", "hand"],
                                    name="poker_hand_unique"),
            # a rake is never negative nor more than its pot (PR-1), the last word after the rule
            models.CheckConstraint(condition=models.Q(rake__gte=0, rake__lte=models.F("pot")),
                                   name="poker_hand_rake_within_pot"),
        ]
        ordering = ["casino_id", "table", "hand"]


class RakeBoxCount(models.Model):
    casino_id = models.CharField(max_length=64)
    table = models.CharField(max_length=32)
    recorded = money_field()
    counted = money_field()
    variance = money_field()
    counted_by = models.JSONField()
    counted_at = models.DateTimeField()
    position = models.BigIntegerField(unique=True)

    class Meta:
        ordering = ["position"]
        constraints = [models.CheckConstraint(condition=models.Q(counted__gte=0),
                                              name="rake_box_counted_not_negative")]


class ChemmyCoup(models.Model):
    casino_id = models.CharField(max_length=64)
    table = models.CharField(max_length=32)
    coup = models.PositiveIntegerField()
    banker_seat = models.PositiveSmallIntegerField()
    punter_cards = models.JSONField()
    banker_cards = models.JSONField()
    punter_option = models.CharField(max_length=8, blank=True)
    bank = money_field()
    stakes = models.JSONField()
    winner = models.CharField(max_length=16)
    punter_total = models.PositiveSmallIntegerField()
    banker_total = models.PositiveSmallIntegerField()
    banker_result = money_field()
    commission = money_field()
    bank_after = money_field()
    settled_at = models.DateTimeField()
    position = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["casino_id", "table", "coup"],
                                    name="chemmy_coup_unique"),
            models.CheckConstraint(condition=models.Q(commission__gte=0),
                                   name="chemmy_commission_not_negative"),
        ]
        ordering = ["casino_id", "table", "coup"]


class Tournament(models.Model):
    casino_id = models.CharField(max_length=64)
    code = models.CharField(max_length=32)
    game = models.CharField(max_length=32)
    status = models.CharField(max_length=16)  # registering, running, finished
    buy_in = money_field()
    entry_fee = money_field()
    rebuy = money_field()
    rebuy_fee = money_field()
    addon = money_field()
    addon_fee = money_field()
    guarantee = money_field()
    payout_percents = models.JSONField()
    late_registration_levels = models.PositiveSmallIntegerField()
    level_minutes = models.PositiveSmallIntegerField()
    approval_reference = models.CharField(max_length=200)
    started_at = models.DateTimeField(null=True)
    entries = models.PositiveIntegerField(default=0)
    remaining = models.PositiveIntegerField(default=0)
    rebuys = models.PositiveIntegerField(default=0)
    addons = models.PositiveIntegerField(default=0)
    collected = money_field(default=0)
    fees = money_field(default=0)
    pool = money_field(default=0)
    overlay = money_field(default=0)
    prizes_paid = money_field(default=0)
    version = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["casino_id", "code"], name="tournament_unique"),
            # the prizes paid never exceed the pool once fixed (PR-4)
            models.CheckConstraint(
                condition=models.Q(status__in=["registering", "running"])
                | models.Q(prizes_paid__lte=models.F("pool")),
                name="tournament_prizes_within_pool"),
        ]
        ordering = ["casino_id", "code"]


class TournamentEntry(models.Model):
    casino_id = models.CharField(max_length=64)
    tournament = models.CharField(max_length=32)
    entry = models.PositiveIntegerField()
    patron = models.CharField(max_length=64, blank=True)
    late = models.BooleanField()
    rebuys = models.PositiveSmallIntegerField(default=0)
    addons = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveIntegerField(null=True)
    prize = money_field(default=0)
    paid = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino_id", "tournament", "entry"],
                                               name="tournament_entry_unique")]
        ordering = ["casino_id", "tournament", "entry"]
