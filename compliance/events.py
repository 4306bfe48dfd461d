"""Events of patrons and anti-money-laundering (``docs/patrons.md``).

No event carries personal data: a patron is ``patron_id`` (a uuid) everywhere; their name, their
document and the rest live encrypted outside the events (``compliance.models.PatronVault``), so
destroying their key at the end of the retention period leaves every event, and the hash chain,
as it was.

Streams
-------
* ``patron/<uuid>``: one patron, registered, verified, their data shredded.
* ``aml_alert/<uuid>``: one alert raised by a movement at the cage or a table.
* ``aml_report/<uuid>``: one suspicious-transaction report, drafted, reviewed, sent.
* ``aml_linking/<casino>``: the period over which a casino links movements (configuration).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from eventstore.events import Event


@dataclass(frozen=True, kw_only=True)
class PatronRegistered(Event):
    """A person is identified at the cage or the entrance; their data went into the vault."""

    event_type = "PatronRegistered"
    schema_version = 1

    patron_id: str
    casino: str
    place: str  # "cage", "entrance" or "table" (the pit, a buy-in)
    window: str = ""  # the cage's code, at the cage


@dataclass(frozen=True, kw_only=True)
class PatronVerified(Event):
    """The identity was checked against the original document (its image referenced in the
    vault): the patron may make movements at or above the threshold."""

    event_type = "PatronVerified"
    schema_version = 1

    patron_id: str
    place: str


@dataclass(frozen=True, kw_only=True)
class PatronDataCorrected(Event):
    """The patron's data was corrected, asked by one person and approved by another
    (``approval_id``, kind ``patron_correction``, with the reason): which fields changed, never
    their values (sealed again in the vault under the patron's key)."""

    event_type = "PatronDataCorrected"
    schema_version = 1

    patron_id: str
    fields: list[str]
    approval_id: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class PatronDataShredded(Event):
    """The patron's data key was destroyed at the end of the retention period: their personal
    data can no longer be read. Their movements and alerts stay, by reference."""

    event_type = "PatronDataShredded"
    schema_version = 1

    patron_id: str
    retention_ended: dt.date


@dataclass(frozen=True, kw_only=True)
class AmlAlertRaised(Event):
    """A movement reached an anti-money-laundering threshold, or looks structured below it."""

    event_type = "AmlAlertRaised"
    schema_version = 1

    alert_id: str
    casino: str
    kind: str  # compliance.rules.ALERT_KINDS
    rule: str  # the threshold version applied (compliance.thresholds.RULES)
    patron_id: str  # "" for an anonymous player
    gaming_day: dt.date
    movement: str  # compliance.thresholds.KINDS
    event_type_of_movement: str  # "ChipsSold", "ChipsRedeemed", "JackpotPaid", "DropRecorded"
    reference: str  # the movement's id (transaction, payout, the table session for a drop)
    where: str  # the cage window's code or "table <code>"
    amount: Decimal
    cash: Decimal
    threshold: Decimal
    day_total: Decimal  # the patron's linked total of the day with this movement
    # a movement at a table playing in another currency than the law's (issue 39: an HKD table
    # in Macau): ``amount`` and the totals are in the law's currency (MOP); the movement's own
    # figure in the table's ``currency`` and the ``rate`` it was converted at (law's currency per
    # unit, the session's). Added with defaults ("", None, None: the movement was in the law's
    # currency, as every alert recorded before), no upcaster (docs/events.md)
    currency: str = ""
    original_amount: Decimal | None = None
    rate: Decimal | None = None


@dataclass(frozen=True, kw_only=True)
class AmlAlertGrown(Event):
    """A further movement of the pattern an alert names (anonymous movements just below the
    threshold at one cage window or table within the linking period, the gaming day by
    default): the one alert grows, its
    ``day_total`` the pattern's whole total (issue 34), never a new alert each time."""

    event_type = "AmlAlertGrown"
    schema_version = 1

    alert_id: str
    reference: str  # the further movement's id
    amount: Decimal
    cash: Decimal
    day_total: Decimal  # the pattern's total with this movement (the alert's, grown by it)
    # how many movements just below the threshold at the place the linking period in force
    # holds with this one
    movements: int
    # as in ``AmlAlertRaised``: the further movement in the table's currency, and its rate
    currency: str = ""
    original_amount: Decimal | None = None
    rate: Decimal | None = None


@dataclass(frozen=True, kw_only=True)
class SuspiciousReportDrafted(Event):
    """The compliance officer drafts a suspicious-transaction report from alerts of one patron.
    Its narrative is kept encrypted under the patron's key (``ReportNarrative``)."""

    event_type = "SuspiciousReportDrafted"
    schema_version = 1

    report_id: str
    casino: str
    patron_id: str
    alert_ids: list[str]


@dataclass(frozen=True, kw_only=True)
class SuspiciousReportReviewed(Event):
    """A second compliance officer reviewed the draft: it may be sent."""

    event_type = "SuspiciousReportReviewed"
    schema_version = 1

    report_id: str


@dataclass(frozen=True, kw_only=True)
class SuspiciousReportSent(Event):
    """The report went to the authority (Portugal: DCIAP and the UIF; Macau: the GIF), under the
    reference it gave."""

    event_type = "SuspiciousReportSent"
    schema_version = 1

    report_id: str
    reference: str
    sent_on: dt.date


@dataclass(frozen=True, kw_only=True)
class LinkingPeriodSet(Event):
    """The period over which the casino links one patron's (or one mark's) movements toward the
    identification threshold, from the gaming day ``from_day`` on: ``days`` gaming days ending
    with the movement's (1: the gaming day alone, the default before any is set). Read as of
    the movement's gaming day (the version in force that day), never live; its author is the
    metadata's actor (``docs/patrons.md``, Linked transactions)."""

    event_type = "LinkingPeriodSet"
    schema_version = 1

    casino: str
    days: int
    from_day: dt.date
    reason: str
