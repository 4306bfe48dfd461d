"""Read models of the tips: every table here is a projection of the tips' events.

Design overview
---------------
Nothing here is written by a service or the admin: ``tips.projections`` builds every row from
the ``tiprule/``, ``tipstaff/``, ``tipbox/``, ``tipcorrection/`` and ``tipperiod/`` streams,
and ``manage.py rebuild_projections`` rebuilds them. Keys are natural (casino + staff number,
+ gaming day and box, + period) so a rebuild gives the same rows.

- ``TipRule``: the casino's rule of distribution in force (period, fund's share, categories).
- ``TipStaff``: who shares in the tips: a staff number and a category (no name: the staff
  number is the link to the payroll, outside the platform).
- ``TipBox``: each tip box of each gaming day: dropped, counted by one counter, confirmed by a
  second; the period it belongs to.
- ``TipCorrection``: a tip found in a drop box or a drop in a tip box, reported and confirmed.
- ``TipPeriod``, ``TipCategoryShare``, ``TipShare``: each period distributed, by category and
  by person.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import pgettext_lazy

from casino.models import money_field


def points_field(**kwargs: object) -> models.DecimalField:  # type: ignore[type-arg]
    return models.DecimalField(max_digits=9, decimal_places=4, **kwargs)  # type: ignore[arg-type]


class TipRule(models.Model):
    casino = models.OneToOneField("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                                  related_name="tip_rule")
    period = models.CharField(max_length=8)
    fund_percent = points_field(null=True, blank=True,
                                help_text="None: the law's percentage, by the period's date")
    categories = models.JSONField(help_text='[{"category", "points"}]')
    source = models.TextField()
    effective_from = models.DateField()
    set_by = models.CharField(max_length=150)
    version = models.PositiveIntegerField()

    def points(self) -> dict[str, str]:
        return {str(c["category"]): str(c["points"]) for c in self.categories}


class TipStaff(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="tip_staff")
    staff_number = models.CharField(max_length=32)
    category = models.CharField(max_length=64)
    since = models.DateField()
    until = models.DateField(null=True, blank=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino", "staff_number"]
        constraints = [models.UniqueConstraint(fields=["casino", "staff_number"],
                                               name="tipstaff_unique")]

    @property
    def stream(self) -> str:
        return f"tipstaff/{self.casino_id}.{self.staff_number}"


class TipBoxStatus(models.TextChoices):
    DROPPED = "dropped", pgettext_lazy("tip box", "Dropped, to be counted")
    COUNTED = "counted", pgettext_lazy("tip box", "Counted, to be confirmed")
    CONFIRMED = "confirmed", pgettext_lazy("tip box", "Counted and confirmed")


class TipBox(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="tip_boxes")
    gaming_day = models.DateField()
    box = models.CharField(max_length=80)
    place = models.CharField(max_length=8)
    code = models.CharField(max_length=64)
    currency = models.CharField(max_length=3)
    status = models.CharField(max_length=16, choices=TipBoxStatus.choices)
    count_id = models.CharField(max_length=36, blank=True, default="")
    count_number = models.PositiveIntegerField(default=0)
    cash = models.JSONField(default=dict)
    amount = money_field(null=True, blank=True)
    dropped_by = models.CharField(max_length=150)
    counted_by = models.CharField(max_length=150, blank=True, default="")
    confirmed_by = models.CharField(max_length=150, blank=True, default="")
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino", "gaming_day", "box"]
        constraints = [models.UniqueConstraint(fields=["casino", "gaming_day", "box"],
                                               name="tipbox_unique")]

    @property
    def stream(self) -> str:
        return f"tipbox/{self.casino_id}.{self.gaming_day.isoformat()}.{self.box}"


class TipCorrection(models.Model):
    correction_id = models.CharField(max_length=36, primary_key=True)
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="tip_corrections")
    direction = models.CharField(max_length=16)
    table = models.CharField(max_length=64)
    gaming_day = models.DateField()
    currency = models.CharField(max_length=3)
    amount = money_field()
    reason = models.TextField()
    status = models.CharField(max_length=16)  # "reported" or "corrected"
    reported_by = models.CharField(max_length=150)
    confirmed_by = models.CharField(max_length=150, blank=True, default="")
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["casino", "gaming_day", "correction_id"]

    @property
    def stream(self) -> str:
        return f"tipcorrection/{self.correction_id}"


class TipPeriod(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="tip_periods")
    period = models.CharField(max_length=10)
    first_day = models.DateField()
    last_day = models.DateField()
    currency = models.CharField(max_length=3)
    total = money_field()
    boxes = money_field()
    corrections = money_field()
    fund_percent = points_field()
    fund = money_field()
    staff = money_field()
    source = models.TextField()
    distributed_by = models.CharField(max_length=150)
    distributed_at = models.DateTimeField()
    position = models.BigIntegerField()

    class Meta:
        ordering = ["casino", "-first_day"]
        constraints = [models.UniqueConstraint(fields=["casino", "period"],
                                               name="tipperiod_unique")]


class TipCategoryShare(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    period = models.CharField(max_length=10)
    category = models.CharField(max_length=64)
    people = models.PositiveIntegerField()
    # the sum of its people's points x days: wider than one category's points
    points = models.DecimalField(max_digits=16, decimal_places=4)
    amount = money_field()

    class Meta:
        ordering = ["casino", "period", "category"]
        constraints = [models.UniqueConstraint(fields=["casino", "period", "category"],
                                               name="tipcategoryshare_unique")]


class TipShare(models.Model):
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, db_constraint=False,
                               related_name="+")
    period = models.CharField(max_length=10)
    staff_number = models.CharField(max_length=32)
    category = models.CharField(max_length=64)
    points = points_field()
    days = models.PositiveIntegerField()
    amount = money_field()

    class Meta:
        ordering = ["casino", "period", "staff_number"]
        constraints = [models.UniqueConstraint(fields=["casino", "period", "staff_number"],
                                               name="tipshare_unique")]
