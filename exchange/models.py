"""Read models of the exchange at the cage: every table here is a projection of the
``fxcurrency/`` and ``fxdesk/`` streams (``exchange.projections``), rebuilt from them.

- ``AcceptedCurrency``: a currency the casino takes besides its book currency, its notes, the
  band a new rate may move without a second person, its rate in force.
- ``ExchangeRate``: every rate posted, with its author (the history).
- ``RateProposal``: a rate beyond the band, waiting for (or approved by) a second person.
- ``ExchangeDesk``: the desk's book-currency cash.
- ``ForeignHolding``: the foreign notes held, by denomination, and their book value.
- ``ExchangeDeal``: every purchase and sale; ``Revaluation``: every revaluation.
"""

from __future__ import annotations

from django.db import models

from casino.models import money_field


def rate_field(**kwargs: object) -> models.DecimalField:  # type: ignore[type-arg]
    return models.DecimalField(max_digits=14, decimal_places=6, **kwargs)  # type: ignore[arg-type]


class AcceptedCurrency(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="accepted_currencies")
    currency = models.CharField(max_length=3)
    book_currency = models.CharField(max_length=3)
    denominations = models.JSONField()
    band_percent = models.DecimalField(max_digits=7, decimal_places=2)
    mid = rate_field(null=True, blank=True)
    spread_percent = models.DecimalField(max_digits=7, decimal_places=4, null=True, blank=True)
    buy = rate_field(null=True, blank=True)
    sell = rate_field(null=True, blank=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino", "currency"]
        constraints = [models.UniqueConstraint(fields=["casino", "currency"],
                                               name="acceptedcurrency_unique")]

    @property
    def stream(self) -> str:
        return f"fxcurrency/{self.casino_id}.{self.currency}"


class ExchangeRate(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    currency = models.CharField(max_length=3)
    mid = rate_field()
    spread_percent = models.DecimalField(max_digits=7, decimal_places=4)
    buy = rate_field()
    sell = rate_field()
    posted_by = models.CharField(max_length=150)
    proposed_by = models.CharField(max_length=150, blank=True, default="")
    posted_at = models.DateTimeField()
    position = models.BigIntegerField(unique=True)

    class Meta:
        ordering = ["casino", "currency", "-position"]


class RateProposal(models.Model):
    proposal_id = models.CharField(max_length=36, primary_key=True)
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    currency = models.CharField(max_length=3)
    mid = rate_field()
    spread_percent = models.DecimalField(max_digits=7, decimal_places=4)
    last_mid = rate_field()
    moved_percent = models.DecimalField(max_digits=14, decimal_places=2)
    status = models.CharField(max_length=16)  # "proposed" or "posted"
    proposed_by = models.CharField(max_length=150)
    approved_by = models.CharField(max_length=150, blank=True, default="")


class ExchangeDesk(models.Model):
    casino = models.OneToOneField("casino.Casino", on_delete=models.PROTECT,
                                  db_constraint=False, related_name="exchange_desk")
    book_currency = models.CharField(max_length=3)
    cash = money_field()
    opened_by = models.CharField(max_length=150)
    version = models.PositiveIntegerField()

    @property
    def stream(self) -> str:
        return f"fxdesk/{self.casino_id}"


class ForeignHolding(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    currency = models.CharField(max_length=3)
    pieces = models.JSONField(default=dict)
    amount = money_field(help_text="in the foreign currency")
    book_value = money_field(help_text="in the book currency")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino", "currency"],
                                               name="foreignholding_unique")]


class ExchangeDeal(models.Model):
    deal_id = models.CharField(max_length=36, primary_key=True)
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    kind = models.CharField(max_length=8)  # "bought" or "sold"
    currency = models.CharField(max_length=3)
    cash = models.JSONField()
    foreign = money_field()
    rate = rate_field()
    mid = rate_field()
    book_amount = money_field(help_text="paid (bought) or received (sold), book currency")
    book_value = money_field()
    result = money_field()
    gaming_day = models.DateField()
    by = models.CharField(max_length=150)
    at = models.DateTimeField()

    class Meta:
        ordering = ["casino", "-at"]


class Revaluation(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    currency = models.CharField(max_length=3)
    gaming_day = models.DateField()
    holding = money_field()
    rate = rate_field()
    book_before = money_field()
    book_after = money_field()
    difference = money_field()
    by = models.CharField(max_length=150)

    class Meta:
        ordering = ["casino", "-gaming_day", "currency"]
        constraints = [models.UniqueConstraint(fields=["casino", "currency", "gaming_day"],
                                               name="revaluation_once_a_day")]
