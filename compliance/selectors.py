"""Reads of patrons, alerts and reports. Personal data is opened here only, for the people the
views let see it (the compliance officer; the cage the name of the patron it picks)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from casino.errors import InvalidCommand, NotFound, choice_words
from casino.models import Casino
from casino.money import fmt
from eventstore import clock

from . import deadlines, rules, vault
from .models import (
    AmlAlert,
    Patron,
    PatronDay,
    PatronStatus,
    PatronTransaction,
    PatronVault,
    ReportNarrative,
    ReportStatus,
    SuspiciousReport,
)
from .names import KIND_TEXT
from .services._common import jurisdiction
from .services.keys import data_key_of, document_indexes


def day_of(value: object, *, field: str = "day") -> dt.date:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise InvalidCommand("{field} must be a date, YYYY-MM-DD (not {value!r})",
                             params={"field": field, "value": value},
                             field=field) from None


def _uuid(value: object, what: str, field: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidCommand("{value!r} is not {what}",
                             params={"value": value, "what": what}, field=field) from None


def patron_get(casino: str, patron_id: object) -> Patron:
    key = _uuid(patron_id, "a patron id", "patron_id")
    patron = Patron.objects.filter(casino=casino, patron_id=key).first()
    if patron is None:
        raise NotFound("there is no patron {key} in {casino}",
                       params={"key": key, "casino": casino}, code="unknown_patron")
    return patron


def patron_list(casino: str) -> QuerySet[Patron]:
    return Patron.objects.filter(casino=casino)


def patron_identity(patron: Patron) -> dict[str, Any] | None:
    """The patron's personal data, or None once shredded (their key destroyed)."""
    row = PatronVault.objects.filter(patron_id=patron.patron_id).first()
    if row is None:
        return None
    try:
        data_key = data_key_of(row)
        return vault.open_sealed(data_key, row.nonce, row.ciphertext,
                                 context=str(patron.patron_id))
    except vault.VaultError:
        return None


def patron_find(casino: str, *, document_type: str, document_number: str,
                document_country: str) -> Patron | None:
    """The patron registered with this document (the blind index), if any."""
    indexes = document_indexes(casino, document_type, document_number, document_country)
    row = PatronVault.objects.filter(casino=casino, document_index__in=indexes).first()
    if row is None:
        return None
    return Patron.objects.filter(patron_id=row.patron_id).first()


def patron_days(patron: Patron) -> QuerySet[PatronDay]:
    return PatronDay.objects.filter(casino=patron.casino, patron_id=patron.patron_id).order_by(
        "-gaming_day")


def patron_transactions(patron: Patron, day: dt.date) -> QuerySet[PatronTransaction]:
    return PatronTransaction.objects.filter(casino=patron.casino, patron_id=patron.patron_id,
                                            gaming_day=day)


def alert_list(casino: str, *, day: dt.date | None = None, kind: str = "",
               status: str = "") -> QuerySet[AmlAlert]:
    found = AmlAlert.objects.filter(casino=casino)
    if day is not None:
        found = found.filter(gaming_day=day)
    if kind:
        if kind not in rules.ALERT_KINDS:
            raise InvalidCommand("an alert is of one of these kinds: {alert_kinds}",
                                 params={"alert_kinds": choice_words(rules.ALERT_KINDS,
                                                                     "alert kind", KIND_TEXT)},
                                 field="kind")
        found = found.filter(kind=kind)
    if status:
        found = found.filter(status=status)
    return found


def report_list(casino: str, *, status: str = "") -> QuerySet[SuspiciousReport]:
    found = SuspiciousReport.objects.filter(casino=casino)
    if status:
        if status not in ReportStatus.values:
            raise InvalidCommand("a report is {values}",
                                 params={"values": choice_words(ReportStatus.values,
                                                                "report status")},
                                 field="status")
        found = found.filter(status=status)
    return found


def report_get(casino: str, report_id: object) -> SuspiciousReport:
    key = _uuid(report_id, "a report id", "report_id")
    report = SuspiciousReport.objects.filter(casino=casino, report_id=key).first()
    if report is None:
        raise NotFound("there is no report {key} in {casino}",
                       params={"key": key, "casino": casino})
    return report


def report_narrative(report: SuspiciousReport) -> str | None:
    """The narrative, or None once the patron's key was destroyed."""
    row = ReportNarrative.objects.filter(report_id=report.report_id).first()
    key_row = PatronVault.objects.filter(patron_id=report.patron_id).first()
    if row is None or key_row is None:
        return None
    try:
        data_key = data_key_of(key_row)
        found = vault.open_sealed(data_key, row.nonce, row.ciphertext,
                                  context=f"report:{report.report_id}")
    except vault.VaultError:
        return None
    return str(found["narrative"])


# --- for the regulator: references and figures, no personal data ---------------------------


def large_transactions(casino: str, day: dt.date) -> list[dict[str, Any]]:
    """The day's large-transaction report (Macau): each cash movement at or above the
    threshold, with the patron identified by reference; one at a table in another currency
    keeps its figure in that currency and the rate beside the amount in the law's."""
    return [{
        "alert_id": str(a.alert_id), "gaming_day": a.gaming_day.isoformat(),
        "patron_id": str(a.patron_id) if a.patron_id else None, "movement": a.movement,
        "reference": a.reference, "where": a.where, "amount": fmt(a.amount),
        "cash": fmt(a.cash), "threshold": fmt(a.threshold), "rule": a.rule,
        "recorded_at": a.raised_at.isoformat(),
        # a movement at a table in another currency: its figure there and the rate (issue 39)
        "currency": a.currency or None,
        "original_amount": fmt(a.original_amount) if a.original_amount is not None else None,
        "rate": str(a.rate) if a.rate is not None else None,
    } for a in alert_list(casino, day=day, kind=rules.LARGE).order_by("raised_at")]


@dataclass(frozen=True)
class Identification:
    patron_id: str
    status: str
    verified_at: str | None
    purchases: str
    redemptions: str
    payouts: str
    buy_ins: str
    transactions: int


def identifications(casino: str, day: dt.date) -> list[Identification]:
    """The patrons identified who made movements in the gaming day, with their sums: the list
    the regulator asks for, by reference (no name, no document)."""
    days = PatronDay.objects.filter(casino=casino, gaming_day=day).order_by("patron_id")
    patrons = {p.patron_id: p for p in Patron.objects.filter(
        casino=casino, patron_id__in=[d.patron_id for d in days])}
    listed = []
    for d in days:
        p = patrons.get(d.patron_id)
        listed.append(Identification(
            patron_id=str(d.patron_id), status=p.status if p else PatronStatus.REGISTERED,
            verified_at=p.verified_at.isoformat() if p and p.verified_at else None,
            purchases=fmt(d.purchases), redemptions=fmt(d.redemptions), payouts=fmt(d.payouts),
            buy_ins=fmt(d.buy_ins), transactions=d.transactions))
    return listed


def reports_sent(casino: str, *, day: dt.date | None = None) -> list[dict[str, Any]]:
    """Reports sent to the authority: their reference, day and grounds, never the narrative."""
    found = report_list(casino, status=ReportStatus.SENT).order_by("sent_on")
    if day is not None:
        found = found.filter(sent_on=day)
    kinds = {str(a.alert_id): a.kind for a in AmlAlert.objects.filter(casino=casino,
                                                                      status="reported")}
    return [{"report_id": str(r.report_id), "sent_on": r.sent_on.isoformat() if r.sent_on
             else None, "reference": r.reference, "patron_id": str(r.patron_id),
             "grounds": sorted({kinds.get(a, "") for a in r.alert_ids} - {""})}
            for r in found]


# --- the suspicious-transaction reports' deadline (issue 34; compliance.deadlines) -------------


@dataclass(frozen=True)
class ReportDue:
    """A report's deadline: the day of the suspicion it runs from, the day it is due, what it
    says of the report today (``deadlines.STATES``), and the rule's source."""

    suspected_on: dt.date
    due_on: dt.date
    state: str
    source: str
    flagged: bool


def public_holidays(jurisdiction_code: str) -> tuple[dt.date, ...]:
    """The jurisdiction's public holidays: ``COMPLIANCE_PUBLIC_HOLIDAYS`` (a deployment's list
    of ISO dates per jurisdiction), else the module's (``deadlines.HOLIDAYS``, flagged)."""
    configured: dict[str, list[str]] = getattr(settings, "COMPLIANCE_PUBLIC_HOLIDAYS", {})
    if jurisdiction_code in configured:
        return tuple(dt.date.fromisoformat(d) for d in configured[jurisdiction_code])
    return deadlines.HOLIDAYS.get(jurisdiction_code, ())


def report_dues(casino: Casino, reports: Iterable[SuspiciousReport], *,
                today: dt.date | None = None) -> dict[uuid.UUID, ReportDue]:
    """Each report's deadline on ``today`` (the casino's gaming day now, by default): from the
    gaming day of its earliest alert, the jurisdiction's working days, its holidays."""
    listed = list(reports)
    code = jurisdiction(casino)
    rule = deadlines.deadline_for(code)
    holidays = public_holidays(code)
    day = today or casino.gaming_day(clock.now())
    alert_ids = {uuid.UUID(a) for r in listed for a in r.alert_ids}
    alert_days = dict(AmlAlert.objects.filter(alert_id__in=alert_ids)
                      .values_list("alert_id", "gaming_day"))
    out: dict[uuid.UUID, ReportDue] = {}
    for report in listed:
        found = [alert_days[uuid.UUID(a)] for a in report.alert_ids
                 if uuid.UUID(a) in alert_days]
        suspected = min(found) if found else report.drafted_at.date()
        due = deadlines.due_on(suspected, rule.working_days, holidays)
        out[report.report_id] = ReportDue(
            suspected_on=suspected, due_on=due,
            state=deadlines.state(due, day, report.sent_on, holidays),
            source=rule.source, flagged=rule.flagged)
    return out


def reports_due(casino: Casino, *, today: dt.date | None = None
                ) -> list[tuple[SuspiciousReport, ReportDue]]:
    """The reports not sent yet that are overdue or due soon, the most pressing first."""
    waiting = list(SuspiciousReport.objects.filter(casino=casino.code)
                   .exclude(status=ReportStatus.SENT))
    dues = report_dues(casino, waiting, today=today)
    pressing = [(r, dues[r.report_id]) for r in waiting
                if dues[r.report_id].state in (deadlines.OVERDUE, deadlines.DUE_SOON)]
    return sorted(pressing, key=lambda pair: (pair[1].due_on, pair[0].drafted_at))
