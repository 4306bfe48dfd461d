"""Suspicious-transaction reports: drafted by a compliance officer from alerts of one patron,
reviewed by a second one, sent to the authority under the reference it gave. Only the
compliance officer sees them (no tipping off: the cage never does). The narrative is personal
data: it is sealed under the patron's key (``ReportNarrative``), shredded with their data."""

from __future__ import annotations

import datetime as dt
import uuid

from casino.context import require_role
from casino.errors import (
    Conflict,
    InvalidCommand,
    NotAllowed,
    NotFound,
    Words,
    gettext_noop,
    status_words,
)
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata

from .. import vault
from ..answers import ReportDraftAnswer, ReportReviewAnswer, ReportSendAnswer
from ..events import SuspiciousReportDrafted, SuspiciousReportReviewed, SuspiciousReportSent
from ..models import AlertStatus, AmlAlert, PatronVault, ReportNarrative, ReportStatus
from ..models import SuspiciousReport as Report
from ._common import COMPLIANCE_ROLES, casino_get
from .keys import data_key_of

# Messages tests and screens rely on.
OWN_DRAFT = gettext_noop("you drafted this report: a second compliance officer reviews it")
WRONG_STATUS = gettext_noop("report {report} is {status}: it cannot be {action}")


def _alerts(casino: str, raw: object) -> list[AmlAlert]:
    if not isinstance(raw, list) or not raw or not all(isinstance(a, str) for a in raw):
        raise InvalidCommand("alert_ids is a list of one or more alert ids", field="alert_ids")
    found: list[AmlAlert] = []
    for value in raw:
        try:
            key = uuid.UUID(value)
        except ValueError:
            raise InvalidCommand("{value!r} is not an alert id",
                                 params={"value": value}, field="alert_ids") from None
        alert = AmlAlert.objects.filter(alert_id=key, casino=casino).first()
        if alert is None:
            raise NotFound("there is no alert {key} in {casino}",
                           params={"key": key, "casino": casino}, field="alert_ids")
        if alert.status != AlertStatus.OPEN:
            raise Conflict("alert {key} is in report {report_id} already",
                           params={"key": key, "report_id": alert.report_id},
                           code="alert_reported", field="alert_ids")
        found.append(alert)
    patrons = {a.patron_id for a in found}
    if len(patrons) != 1 or None in patrons:
        raise InvalidCommand("a report is about one identified patron: its alerts name the same "
                             "patron", field="alert_ids")
    return found


@command("suspicious_report_draft")
def suspicious_report_draft(*, alert_ids: object, narrative: object, metadata: Metadata
                            ) -> ReportDraftAnswer:
    require_role(metadata, COMPLIANCE_ROLES, "drafting a suspicious-transaction report")
    casino = casino_get(metadata.casino)
    if not isinstance(narrative, str) or not narrative.strip():
        raise InvalidCommand("narrative: say what is suspicious, in words", field="narrative")
    if len(narrative) > 20_000:
        raise InvalidCommand("narrative is longer than 20,000 characters", field="narrative")
    alerts = _alerts(casino.code, alert_ids)
    patron_id = alerts[0].patron_id
    assert patron_id is not None  # _alerts: one identified patron
    row = PatronVault.objects.filter(patron_id=patron_id).first()
    if row is None or row.wrapped_key is None:
        raise Conflict("patron {patron_id}'s data was destroyed: no report can name them",
                       params={"patron_id": patron_id},
                       code="patron_shredded", field="alert_ids")
    report_id = uuid.uuid4()
    data_key = data_key_of(row)
    nonce, sealed = vault.seal(data_key, {"narrative": narrative.strip()},
                               context=f"report:{report_id}")
    ReportNarrative.objects.create(report_id=report_id, patron_id=patron_id, nonce=nonce,
                                   ciphertext=sealed)
    recorded = store.append(f"aml_report/{report_id}", [SuspiciousReportDrafted(
        report_id=str(report_id), casino=casino.code, patron_id=str(patron_id),
        alert_ids=[str(a.alert_id) for a in alerts])], expected_version=0, metadata=metadata)
    return ReportDraftAnswer(report_id=str(report_id), status=ReportStatus.DRAFTED.value,
                             patron_id=str(patron_id), version=recorded[-1].version)


def _report(metadata: Metadata, report_id: object) -> Report:
    try:
        key = uuid.UUID(str(report_id))
    except ValueError:
        raise InvalidCommand("{report_id!r} is not a report id",
                             params={"report_id": report_id}, field="report_id") from None
    report = Report.objects.filter(report_id=key, casino=metadata.casino).first()
    if report is None:
        raise NotFound("there is no report {key} in {casino}",
                       params={"key": key, "casino": metadata.casino}, field="report_id")
    return report


@command("suspicious_report_review")
def suspicious_report_review(*, report_id: str, metadata: Metadata) -> ReportReviewAnswer:
    require_role(metadata, COMPLIANCE_ROLES, "reviewing a suspicious-transaction report")
    report = _report(metadata, report_id)
    if report.status != ReportStatus.DRAFTED:
        raise Conflict(WRONG_STATUS, params=dict(
            report=report.report_id, status=status_words(report.status, "report status"),
            action=status_words("reviewed", "report status")), code="wrong_status")
    if report.drafted_by == metadata.actor:
        raise NotAllowed(OWN_DRAFT, code="four_eyes")
    recorded = store.append(f"aml_report/{report.report_id}", [SuspiciousReportReviewed(
        report_id=str(report.report_id))], expected_version=report.version, metadata=metadata)
    return ReportReviewAnswer(report_id=str(report.report_id), status=ReportStatus.REVIEWED.value,
                              version=recorded[-1].version)


@command("suspicious_report_send")
def suspicious_report_send(*, report_id: str, reference: object, metadata: Metadata,
                           sent_on: object = None) -> ReportSendAnswer:
    """Record that the reviewed report went to the authority, and the reference it gave."""
    require_role(metadata, COMPLIANCE_ROLES, "sending a suspicious-transaction report")
    report = _report(metadata, report_id)
    if report.status != ReportStatus.REVIEWED:
        raise Conflict(WRONG_STATUS, params=dict(
            report=report.report_id, status=status_words(report.status, "report status"),
            action=Words("sent (it is reviewed first)")), code="wrong_status")
    if not isinstance(reference, str) or not reference.strip() or len(reference) > 120:
        raise InvalidCommand("reference: the authority's reference of the report (at most 120 "
                             "characters)", field="reference")
    casino = casino_get(metadata.casino)
    today = casino.gaming_day(clock.now())
    if sent_on in (None, ""):
        day = today
    else:
        try:
            day = dt.date.fromisoformat(str(sent_on))
        except ValueError:
            raise InvalidCommand("sent_on must be a date, YYYY-MM-DD (not {sent_on!r})",
                                 params={"sent_on": sent_on},
                                 field="sent_on") from None
        if day > today:
            raise InvalidCommand("sent_on cannot be in the future", field="sent_on")
    recorded = store.append(f"aml_report/{report.report_id}", [SuspiciousReportSent(
        report_id=str(report.report_id), reference=reference.strip(), sent_on=day)],
        expected_version=report.version, metadata=metadata)
    return ReportSendAnswer(report_id=str(report.report_id), status=ReportStatus.SENT.value,
                            reference=reference.strip(), sent_on=day.isoformat(),
                            version=recorded[-1].version)

