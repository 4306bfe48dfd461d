"""What compliance answers: its commands' answers and its API's reads, one frozen dataclass
each, JSON-native as events are (amounts as decimal strings, ids and dates as strings). A
command's answer is kept as JSON by the idempotency record and rebuilt from it on a retry
(``eventstore.commands``); the API publishes each one's schema under its name
(``edge.api.schema.answer_serializer``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .selectors import Identification

# --- commands ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PatronAnswer:
    """A patron registered or verified: their reference and status now."""

    patron_id: str
    status: str
    version: int


@dataclass(frozen=True)
class PatronShredAnswer:
    patron_id: str
    status: str
    retention_ended: str
    version: int


@dataclass(frozen=True)
class PatronCorrectionAnswer:
    patron_id: str
    fields: list[str]
    version: int


@dataclass(frozen=True)
class PepMovementAnswer:
    """A politically exposed person's movement approved up to ``approved_up_to``."""

    patron_id: str | None
    gaming_day: str | None
    approved_up_to: str | None


@dataclass(frozen=True)
class ReportDraftAnswer:
    report_id: str
    status: str
    patron_id: str
    version: int


@dataclass(frozen=True)
class ReportReviewAnswer:
    report_id: str
    status: str
    version: int


@dataclass(frozen=True)
class ReportSendAnswer:
    report_id: str
    status: str
    reference: str
    sent_on: str
    version: int


# --- reads -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Patron:
    patron_id: str
    status: str
    place: str
    registered_at: str
    registered_by: str
    verified_at: str | None
    shredded_at: str | None


@dataclass(frozen=True)
class PatronFound(Patron):
    name: str | None


@dataclass(frozen=True)
class PatronIdentity:
    """The personal data, opened from the vault (never in an event)."""

    name: str
    document_type: str
    document_number: str
    document_country: str
    date_of_birth: str
    nationality: str
    address: str
    pep: bool
    document_image: str


@dataclass(frozen=True)
class PatronDay:
    gaming_day: str
    purchases: str
    redemptions: str
    payouts: str
    buy_ins: str
    cash: str
    transactions: int


@dataclass(frozen=True)
class PatronDetail(Patron):
    """``identity`` is null once the patron's key is shredded."""

    identity: PatronIdentity | None
    days: list[PatronDay]


@dataclass(frozen=True)
class Alert:
    alert_id: str
    kind: str
    rule: str
    patron_id: str | None
    gaming_day: str
    movement: str
    reference: str
    where: str
    amount: str
    cash: str
    threshold: str
    day_total: str
    status: str
    report_id: str | None
    raised_at: str
    # a movement at a table in another currency than the law's (issue 39): its currency, its
    # amount in it and the rate (law's currency per unit) that made ``amount``; null otherwise
    currency: str | None
    original_amount: str | None
    rate: str | None


@dataclass(frozen=True)
class Report:
    report_id: str
    patron_id: str
    alert_ids: list[str]
    status: str
    drafted_by: str
    drafted_at: str
    reviewed_by: str | None
    sent_on: str | None
    reference: str | None
    # the deadline (compliance.deadlines): from the earliest alert's gaming day; its state
    # today (overdue, due_soon, open, sent, sent_late) and the rule's source, flagged if
    # unconfirmed
    suspected_on: str
    due_on: str
    due_state: str
    deadline_source: str
    deadline_flagged: bool


@dataclass(frozen=True)
class ReportDetail(Report):
    narrative: str | None


@dataclass(frozen=True)
class LargeTransaction:
    alert_id: str
    gaming_day: str
    patron_id: str | None
    movement: str
    reference: str
    where: str
    amount: str
    cash: str
    threshold: str
    rule: str
    recorded_at: str
    currency: str | None = None  # the table's currency, where not the law's (issue 39)
    original_amount: str | None = None
    rate: str | None = None


@dataclass(frozen=True)
class LargeTransactionReport:
    casino: str
    gaming_day: str
    transactions: list[LargeTransaction]


@dataclass(frozen=True)
class IdentificationList:
    casino: str
    gaming_day: str
    patrons: list[Identification]


@dataclass(frozen=True)
class ReportSent:
    report_id: str
    sent_on: str | None
    reference: str
    patron_id: str
    grounds: list[str]


@dataclass(frozen=True)
class LinkingPeriodAnswer:
    """A linking period set: its gaming days, from when, and the casino's version of it."""

    casino: str
    days: int
    from_day: str
    version: int


@dataclass(frozen=True)
class LinkingPeriodInForce:
    """The linking period on a gaming day: its gaming days, the first, and where it comes
    from (a version's author and reason, or the default)."""

    days: int
    first_day: str
    source: str
