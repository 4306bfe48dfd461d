"""Events of the tips (gratificações): the rule, the staff, the tip boxes, the corrections
between tip boxes and drop boxes, and each period's distribution.

Streams: ``tiprule/<casino>`` (the casino's rule of distribution), ``tipstaff/<casino>.<staff
number>`` (a member of staff: a number and a category, never a name), ``tipbox/<casino>.<gaming
day>.<box>`` (one tip box of one gaming day: dropped, counted, confirmed), ``tipcorrection/<id>``
(a tip found in a drop box, or a drop in a tip box), ``tipperiod/<casino>.<period>`` (a period's
distribution). Amounts are ``Decimal`` (two decimals) in ``currency``. ``docs/tips.md`` says
what each posts.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from eventstore.events import Event


@dataclass(frozen=True, kw_only=True)
class TipRuleSet(Event):
    """The casino's rule of distribution from ``effective_from``: the period (``month`` or
    ``day``), the fund's percentage (None: the law's, by the period's date), the categories and
    their points, and where the rule comes from (``source``)."""

    event_type = "TipRuleSet"
    schema_version = 1

    casino: str
    period: str
    fund_percent: Decimal | None
    categories: tuple[dict[str, str], ...]  # [{"category", "points"}]
    source: str
    effective_from: dt.date


@dataclass(frozen=True, kw_only=True)
class TipStaffRegistered(Event):
    """A member of staff shares in the tips from ``since``: a staff number and a category."""

    event_type = "TipStaffRegistered"
    schema_version = 1

    staff_number: str
    category: str
    since: dt.date


@dataclass(frozen=True, kw_only=True)
class TipStaffCategoryChanged(Event):
    event_type = "TipStaffCategoryChanged"
    schema_version = 1

    staff_number: str
    category: str
    since: dt.date


@dataclass(frozen=True, kw_only=True)
class TipStaffLeft(Event):
    """No longer shares in the tips of the periods after ``until``."""

    event_type = "TipStaffLeft"
    schema_version = 1

    staff_number: str
    until: dt.date


@dataclass(frozen=True, kw_only=True)
class TipBoxDropped(Event):
    """A tip box taken from its table or room at the end of a gaming day, for the count room."""

    event_type = "TipBoxDropped"
    schema_version = 1

    box: str
    place: str  # "table" or "room"
    code: str  # the table's or the room's code
    gaming_day: dt.date
    currency: str


@dataclass(frozen=True, kw_only=True)
class TipBoxCounted(Event):
    """The first counter's count of a tip box, by denomination (a recount replaces it)."""

    event_type = "TipBoxCounted"
    schema_version = 1

    count_id: str
    box: str
    gaming_day: dt.date
    currency: str
    cash: dict[str, int]
    amount: Decimal
    count_number: int


@dataclass(frozen=True, kw_only=True)
class TipBoxCountConfirmed(Event):
    """The second counter's count, the same as the first: the tips are held for the staff.
    Ledger: debit the tip boxes' cash, credit tips held (a liability, never revenue)."""

    event_type = "TipBoxCountConfirmed"
    schema_version = 1

    count_id: str
    box: str
    gaming_day: dt.date
    currency: str
    cash: dict[str, int]
    amount: Decimal
    counted_by: str


@dataclass(frozen=True, kw_only=True)
class TipMisplacementReported(Event):
    """A tip found in a table's drop box (``drop_to_tips``) or a drop found in a tip box
    (``tips_to_drop``), reported by one person; nothing moves until a second person confirms."""

    event_type = "TipMisplacementReported"
    schema_version = 1

    correction_id: str
    direction: str
    table: str
    gaming_day: dt.date
    currency: str
    amount: Decimal
    reason: str


@dataclass(frozen=True, kw_only=True)
class TipMisplacementCorrected(Event):
    """The second person confirms the correction. Ledger: ``drop_to_tips`` debits the table's
    misplaced-tips account and credits tips held; ``tips_to_drop`` the other way round."""

    event_type = "TipMisplacementCorrected"
    schema_version = 1

    correction_id: str
    direction: str
    table: str
    gaming_day: dt.date
    currency: str
    amount: Decimal
    reported_by: str


@dataclass(frozen=True, kw_only=True)
class TipsDistributed(Event):
    """A period's tips shared: the fund's share and each person's. Ledger: debit tips held
    ``total``, credit the fund's contribution payable ``fund`` and the staff's tips payable
    ``staff``. ``shares``: ``[{staff_number, category, points, days, amount}]``;
    ``categories``: ``[{category, people, points, amount}]``."""

    event_type = "TipsDistributed"
    schema_version = 1

    period: str
    first_day: dt.date
    last_day: dt.date
    currency: str
    total: Decimal
    boxes: Decimal
    corrections: Decimal
    fund_percent: Decimal
    fund: Decimal
    staff: Decimal
    categories: tuple[dict[str, str], ...]
    shares: tuple[dict[str, str], ...]
    source: str
