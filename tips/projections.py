"""Projections of the tips' streams into ``tips.models``: one handler per event class, each
changing only this app's tables, returning changes (``eventstore.changes``)."""

from __future__ import annotations

from collections.abc import Iterator

from eventstore.changes import Change, Insert, Update, Upsert
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent

from . import events as ev
from .models import TipBox, TipCategoryShare, TipCorrection, TipPeriod, TipRule, TipShare, TipStaff

Changes = Iterator[Change]


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


def _casino(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("casino", ""))


def _box_key(recorded: RecordedEvent, event: ev.TipBoxDropped | ev.TipBoxCounted
             | ev.TipBoxCountConfirmed) -> dict[str, object]:
    return {"casino_id": _casino(recorded), "gaming_day": event.gaming_day, "box": event.box}


@register
class TipsProjection(Projection):
    name = "tips"
    models = (TipRule, TipStaff, TipBox, TipCorrection, TipPeriod, TipCategoryShare, TipShare)

    @handles
    def rule_set(self, event: ev.TipRuleSet, recorded: RecordedEvent) -> Changes:
        values = dict(
            period=event.period, fund_percent=event.fund_percent,
            categories=[dict(c) for c in event.categories], source=event.source,
            effective_from=event.effective_from, set_by=_actor(recorded),
            version=recorded.version)
        yield Upsert(TipRule, {"casino_id": event.casino}, values=values, set=values)

    @handles
    def staff_registered(self, event: ev.TipStaffRegistered, recorded: RecordedEvent) -> Changes:
        yield Insert(TipStaff, dict(casino_id=_casino(recorded), staff_number=event.staff_number,
                                    category=event.category, since=event.since, until=None,
                                    version=recorded.version))

    @handles
    def staff_changed(self, event: ev.TipStaffCategoryChanged | ev.TipStaffLeft,
                      recorded: RecordedEvent) -> Changes:
        key = {"casino_id": _casino(recorded), "staff_number": event.staff_number}
        if isinstance(event, ev.TipStaffLeft):
            yield Update(TipStaff, key, set={"until": event.until, "version": recorded.version})
        else:
            yield Update(TipStaff, key, set={"category": event.category,
                                             "version": recorded.version})

    @handles
    def box_dropped(self, event: ev.TipBoxDropped, recorded: RecordedEvent) -> Changes:
        yield Insert(TipBox, dict(
            _box_key(recorded, event), place=event.place, code=event.code,
            currency=event.currency, status="dropped", count_id="", count_number=0, cash={},
            amount=None, dropped_by=_actor(recorded), counted_by="", confirmed_by="",
            version=recorded.version))

    @handles
    def box_counted(self, event: ev.TipBoxCounted, recorded: RecordedEvent) -> Changes:
        yield Update(TipBox, _box_key(recorded, event), set=dict(
            status="counted", count_id=event.count_id, count_number=event.count_number,
            cash=dict(event.cash), amount=event.amount, counted_by=_actor(recorded),
            version=recorded.version))

    @handles
    def box_confirmed(self, event: ev.TipBoxCountConfirmed, recorded: RecordedEvent) -> Changes:
        yield Update(TipBox, _box_key(recorded, event), set=dict(
            status="confirmed", confirmed_by=_actor(recorded), version=recorded.version))

    @handles
    def misplacement_reported(self, event: ev.TipMisplacementReported,
                              recorded: RecordedEvent) -> Changes:
        yield Insert(TipCorrection, dict(
            correction_id=event.correction_id, casino_id=_casino(recorded),
            direction=event.direction, table=event.table, gaming_day=event.gaming_day,
            currency=event.currency, amount=event.amount, reason=event.reason,
            status="reported", reported_by=_actor(recorded), confirmed_by="",
            version=recorded.version))

    @handles
    def misplacement_corrected(self, event: ev.TipMisplacementCorrected,
                               recorded: RecordedEvent) -> Changes:
        yield Update(TipCorrection, {"correction_id": event.correction_id}, set=dict(
            status="corrected", confirmed_by=_actor(recorded), version=recorded.version))

    @handles
    def distributed(self, event: ev.TipsDistributed, recorded: RecordedEvent) -> Changes:
        casino = _casino(recorded)
        yield Insert(TipPeriod, dict(
            casino_id=casino, period=event.period, first_day=event.first_day,
            last_day=event.last_day, currency=event.currency, total=event.total,
            boxes=event.boxes, corrections=event.corrections, fund_percent=event.fund_percent,
            fund=event.fund, staff=event.staff, source=event.source,
            distributed_by=_actor(recorded), distributed_at=recorded.recorded_at,
            position=recorded.position))
        for c in event.categories:
            yield Insert(TipCategoryShare, dict(
                casino_id=casino, period=event.period, category=c["category"],
                people=int(c["people"]), points=c["points"], amount=c["amount"]))
        for s in event.shares:
            yield Insert(TipShare, dict(
                casino_id=casino, period=event.period, staff_number=s["staff_number"],
                category=s["category"], points=s["points"], days=int(s["days"]),
                amount=s["amount"]))
