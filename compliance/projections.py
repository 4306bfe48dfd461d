"""Projections of patrons, alerts and reports, and the linked-transactions sums: each named
patron's purchases, redemptions, payouts and buy-ins across the cage and the tables, per gaming
day (``PatronDay``, one row per movement in ``PatronTransaction``).

The movements are the cage's (``ChipsSold``, ``ChipsRedeemed``, ``JackpotPaid``), the
tables' (``DropRecorded``) and the slot floor's hand pays (``HandPayPaid``: a payment of
winnings, issue 37) events, read typed (upcast: a v1 movement names no patron and is left out).
A movement belongs to the gaming day of its shift or its table session, read through the
reader; a hand pay to the casino's gaming day of the moment it was paid (as the service that
checked it asked). A buy-in at a table that plays in another currency is counted in the book
currency at its session's rate (``TableSessionOpened.rate``, as the ledger books it: issue 39),
the currency the law's thresholds are in.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.db.models import Model, QuerySet

from cage.events import ChipsRedeemed, ChipsSold, JackpotPaid
from cage.models import Shift
from casino import gaming_day as gaming_days
from casino.models import Casino
from eventstore.changes import Change, Insert, Update, Upsert
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent
from eventstore.writer import Reader
from games.events import DropRecorded
from games.models import TableSession
from machines.events import HandPayPaid

from . import rules, thresholds
from .events import (
    AmlAlertGrown,
    AmlAlertRaised,
    LinkingPeriodSet,
    PatronDataCorrected,
    PatronDataShredded,
    PatronRegistered,
    PatronVerified,
    SuspiciousReportDrafted,
    SuspiciousReportReviewed,
    SuspiciousReportSent,
)
from .models import (
    AlertStatus,
    AmlAlert,
    AnonymousMovement,
    LinkingPeriod,
    Patron,
    PatronDay,
    PatronStatus,
    PatronTransaction,
    ReportStatus,
    SuspiciousReport,
)

ZERO = Decimal("0.00")
SUM_COLUMN = {thresholds.PURCHASE: "purchases", thresholds.REDEMPTION: "redemptions",
              thresholds.PAYOUT: "payouts", thresholds.BUY_IN: "buy_ins"}


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


def _casino(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("casino", ""))


def _cash_value(counts: dict[str, int]) -> Decimal:
    return sum((Decimal(d) * n for d, n in counts.items()), ZERO)


class _ByCasino(Projection):
    def casino_rows(self, model: type[Model], casino: str) -> QuerySet[Any]:
        return model._default_manager.filter(casino=casino)


@register
class PatronProjection(_ByCasino):
    name = "patrons"
    models = (Patron,)

    @handles
    def registered(self, event: PatronRegistered, recorded: RecordedEvent) -> Iterator[Change]:
        yield Insert(Patron, dict(
            patron_id=uuid.UUID(event.patron_id), casino=event.casino,
            status=PatronStatus.REGISTERED, place=event.place, window=event.window,
            registered_by=_actor(recorded), registered_at=recorded.recorded_at,
            version=recorded.version))

    @handles
    def verified(self, event: PatronVerified, recorded: RecordedEvent) -> Iterator[Change]:
        yield Update(Patron, {"patron_id": uuid.UUID(event.patron_id)}, set={
            "status": PatronStatus.VERIFIED, "verified_by": _actor(recorded),
            "verified_at": recorded.recorded_at, "version": recorded.version})

    @handles
    def corrected(self, event: PatronDataCorrected, recorded: RecordedEvent
                  ) -> Iterator[Change]:
        yield Update(Patron, {"patron_id": uuid.UUID(event.patron_id)},
                     set={"version": recorded.version})

    @handles
    def shredded(self, event: PatronDataShredded, recorded: RecordedEvent) -> Iterator[Change]:
        yield Update(Patron, {"patron_id": uuid.UUID(event.patron_id)}, set={
            "status": PatronStatus.SHREDDED, "shredded_at": recorded.recorded_at,
            "version": recorded.version})


@register
class LinkedTransactionsProjection(_ByCasino):
    """Every movement of a named patron, and their sums per gaming day; every movement naming
    no patron by where it was made (``AnonymousMovement``, for anonymous structuring)."""

    name = "linked_transactions"
    models = (PatronTransaction, PatronDay, AnonymousMovement)

    def _anonymous(self, recorded: RecordedEvent, *, day: Any, kind: str, amount: Decimal,
                   cash: Decimal, where: str, reference: str, mark: str = ""
                   ) -> Iterator[Change]:
        yield Insert(AnonymousMovement, dict(
            casino=_casino(recorded), gaming_day=day, where=where, kind=kind, amount=amount,
            cash=cash, reference=reference, position=recorded.position, mark=mark.strip()))

    def _movement(self, recorded: RecordedEvent, *, casino: str, day: Any, patron_id: str,
                  kind: str, amount: Decimal, cash: Decimal, where: str, reference: str,
                  card_or_cheque: Decimal = ZERO, casino_cheque: Decimal = ZERO
                  ) -> Iterator[Change]:
        key = str(uuid.UUID(patron_id))
        yield Insert(PatronTransaction, dict(
            casino=casino, gaming_day=day, patron_id=key, kind=kind, amount=amount, cash=cash,
            where=where, reference=reference, position=recorded.position,
            recorded_at=recorded.recorded_at))
        yield Upsert(PatronDay, {"casino": casino, "gaming_day": day, "patron_id": key},
                     {"purchases": ZERO, "redemptions": ZERO, "payouts": ZERO,
                      "buy_ins": ZERO, "cash": ZERO, "transactions": 0,
                      "card_or_cheque": ZERO, "casino_cheques": ZERO},
                     add={SUM_COLUMN[kind]: amount, "cash": cash, "transactions": 1,
                          "card_or_cheque": card_or_cheque, "casino_cheques": casino_cheque})

    def _shift_day(self, reader: Reader, shift_id: str) -> Any:
        shift = reader.row(Shift, id=uuid.UUID(shift_id))
        assert shift is not None, f"a movement of shift {shift_id}, never opened"
        return shift["gaming_day"]

    @handles
    def sold(self, event: ChipsSold, recorded: RecordedEvent, reader: Reader
             ) -> Iterator[Change]:
        if event.patron_id:
            yield from self._movement(
                recorded, casino=_casino(recorded), day=self._shift_day(reader, event.shift_id),
                patron_id=event.patron_id, kind=thresholds.PURCHASE, amount=event.amount,
                cash=event.amount if event.payment == "cash" else ZERO, where=event.window,
                reference=event.transaction_id,
                card_or_cheque=ZERO if event.payment == "cash" else event.amount)
        else:
            yield from self._anonymous(
                recorded, day=self._shift_day(reader, event.shift_id), kind=thresholds.PURCHASE,
                amount=event.amount, cash=event.amount if event.payment == "cash" else ZERO,
                where=event.window, reference=event.transaction_id, mark=event.mark)

    @handles
    def redeemed(self, event: ChipsRedeemed, recorded: RecordedEvent, reader: Reader
                 ) -> Iterator[Change]:
        if event.patron_id:
            yield from self._movement(
                recorded, casino=_casino(recorded), day=self._shift_day(reader, event.shift_id),
                patron_id=event.patron_id, kind=thresholds.REDEMPTION, amount=event.amount,
                cash=_cash_value(event.cash), where=event.window,
                reference=event.transaction_id,
                casino_cheque=event.amount if event.payment == "casino_cheque" else ZERO)
        else:
            yield from self._anonymous(
                recorded, day=self._shift_day(reader, event.shift_id),
                kind=thresholds.REDEMPTION, amount=event.amount, cash=_cash_value(event.cash),
                where=event.window, reference=event.transaction_id, mark=event.mark)

    @handles
    def jackpot_paid(self, event: JackpotPaid, recorded: RecordedEvent, reader: Reader
                     ) -> Iterator[Change]:
        if event.patron_id:
            yield from self._movement(
                recorded, casino=_casino(recorded), day=self._shift_day(reader, event.shift_id),
                patron_id=event.patron_id, kind=thresholds.PAYOUT, amount=event.amount,
                cash=_cash_value(event.cash), where=event.window, reference=event.payout_id)
        else:
            yield from self._anonymous(
                recorded, day=self._shift_day(reader, event.shift_id), kind=thresholds.PAYOUT,
                amount=event.amount, cash=_cash_value(event.cash), where=event.window,
                reference=event.payout_id)

    @handles
    def drop(self, event: DropRecorded, recorded: RecordedEvent, reader: Reader
             ) -> Iterator[Change]:
        session = reader.row(TableSession, session_id=uuid.UUID(event.session_id))
        assert session is not None, f"a drop at session {event.session_id}, never opened"
        # a table in another currency: in the book currency at the session's rate (issue 39)
        amount = rules.in_law_currency(event.amount, session["rate"])
        if event.patron_id:
            yield from self._movement(
                recorded, casino=_casino(recorded), day=session["gaming_day"],
                patron_id=event.patron_id, kind=thresholds.BUY_IN, amount=amount,
                cash=amount, where=f"table {event.table}", reference=event.session_id)
        else:
            yield from self._anonymous(
                recorded, day=session["gaming_day"], kind=thresholds.BUY_IN,
                amount=amount, cash=amount, where=f"table {event.table}",
                reference=event.session_id, mark=event.player)


    @handles
    def hand_pay_paid(self, event: HandPayPaid, recorded: RecordedEvent, reader: Reader
                      ) -> Iterator[Change]:
        """A hand pay paid at the cage (a jackpot or cancelled credits): a payout to the patron
        named, in their linked total as the cage's payouts are; else an anonymous one at the
        window it was paid at."""
        casino = _casino(recorded)
        place = reader.row(Casino, code=casino)
        assert place is not None, f"a hand pay in casino {casino}, never registered"
        day = gaming_days.day_of(recorded.recorded_at, place["time_zone"],
                                 place["gaming_day_closes_at"])
        if event.patron:
            yield from self._movement(
                recorded, casino=casino, day=day, patron_id=event.patron,
                kind=thresholds.PAYOUT, amount=event.amount, cash=event.amount,
                where=event.window, reference=event.handpay_id)
        else:
            yield from self._anonymous(
                recorded, day=day, kind=thresholds.PAYOUT, amount=event.amount,
                cash=event.amount, where=event.window, reference=event.handpay_id)


@register
class AlertProjection(_ByCasino):
    name = "aml_alerts"
    models = (AmlAlert,)

    @handles
    def raised(self, event: AmlAlertRaised, recorded: RecordedEvent) -> Iterator[Change]:
        yield Insert(AmlAlert, dict(
            alert_id=uuid.UUID(event.alert_id), casino=event.casino, kind=event.kind,
            rule=event.rule, patron_id=uuid.UUID(event.patron_id) if event.patron_id else None,
            gaming_day=event.gaming_day, movement=event.movement,
            movement_event=event.event_type_of_movement, reference=event.reference,
            where=event.where, amount=event.amount, cash=event.cash, threshold=event.threshold,
            day_total=event.day_total, currency=event.currency,
            original_amount=event.original_amount, rate=event.rate,
            status=AlertStatus.OPEN, report_id=None,
            raised_at=recorded.recorded_at, raised_by=_actor(recorded)))

    @handles
    def grown(self, event: AmlAlertGrown, recorded: RecordedEvent) -> Iterator[Change]:
        """A further movement of the pattern: the one alert's total is the pattern's."""
        yield Update(AmlAlert, {"alert_id": uuid.UUID(event.alert_id)},
                     set={"day_total": event.day_total})

    @handles
    def reported(self, event: SuspiciousReportDrafted, recorded: RecordedEvent
                 ) -> Iterator[Change]:
        for alert_id in event.alert_ids:
            yield Update(AmlAlert, {"alert_id": uuid.UUID(alert_id)}, set={
                "status": AlertStatus.REPORTED, "report_id": uuid.UUID(event.report_id)})


@register
class SuspiciousReportProjection(_ByCasino):
    name = "aml_reports"
    models = (SuspiciousReport,)

    @handles
    def drafted(self, event: SuspiciousReportDrafted, recorded: RecordedEvent
                ) -> Iterator[Change]:
        yield Insert(SuspiciousReport, dict(
            report_id=uuid.UUID(event.report_id), casino=event.casino,
            patron_id=uuid.UUID(event.patron_id), alert_ids=list(event.alert_ids),
            status=ReportStatus.DRAFTED, drafted_by=_actor(recorded),
            drafted_at=recorded.recorded_at, version=recorded.version))

    @handles
    def reviewed(self, event: SuspiciousReportReviewed, recorded: RecordedEvent
                 ) -> Iterator[Change]:
        yield Update(SuspiciousReport, {"report_id": uuid.UUID(event.report_id)}, set={
            "status": ReportStatus.REVIEWED, "reviewed_by": _actor(recorded),
            "reviewed_at": recorded.recorded_at, "version": recorded.version})

    @handles
    def sent(self, event: SuspiciousReportSent, recorded: RecordedEvent) -> Iterator[Change]:
        yield Update(SuspiciousReport, {"report_id": uuid.UUID(event.report_id)}, set={
            "status": ReportStatus.SENT, "sent_by": _actor(recorded),
            "sent_on": event.sent_on, "reference": event.reference,
            "version": recorded.version})


@register
class LinkingPeriodProjection(_ByCasino):
    """Each version of a casino's linking period (``LinkingPeriodSet``)."""

    name = "aml_linking_periods"
    models = (LinkingPeriod,)

    @handles
    def set_(self, event: LinkingPeriodSet, recorded: RecordedEvent) -> Iterator[Change]:
        yield Insert(LinkingPeriod, dict(
            casino=event.casino, days=event.days, from_day=event.from_day, reason=event.reason,
            set_by=_actor(recorded), set_at=recorded.recorded_at, position=recorded.position))
