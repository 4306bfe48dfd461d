"""Projections of the casino configuration streams (``Casino``, ``ChipSet``), of the
approvals (``Approval``, four eyes: ``casino.approvals``) and of the seals (``GamingDaySeal``)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

from django.db.models import Model, QuerySet

from eventstore.changes import Change, Insert, Update
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent

from .events import (
    ApprovalGranted,
    ApprovalRefused,
    ApprovalRequested,
    ApprovalWithdrawn,
    CasinoRegistered,
    CasinoSettingsChanged,
    ChipSetDenominationsChanged,
    ChipSetRegistered,
    GamingDaySealed,
)
from .models import Approval, ApprovalStatus, Casino, ChipSet, GamingDaySeal


@register
class CasinoProjection(Projection):
    name = "casino"
    models = (Casino,)

    def casino_rows(self, model: type[Model], casino: str) -> QuerySet[Any]:
        return Casino.objects.filter(code=casino)

    @handles
    def registered(self, event: CasinoRegistered, recorded: RecordedEvent) -> Iterator[Change]:
        yield Insert(Casino, dict(
            code=event.code, name=event.name, currency=event.currency,
            time_zone=event.time_zone, gaming_day_closes_at=event.gaming_day_closes_at,
            version=recorded.version))

    @handles
    def settings_changed(self, event: CasinoSettingsChanged, recorded: RecordedEvent
                         ) -> Iterator[Change]:
        changes: dict[str, object] = {"version": recorded.version}
        for name in ("name", "time_zone", "gaming_day_closes_at"):
            value = getattr(event, name)
            if value is not None:
                changes[name] = value
        yield Update(Casino, {"code": recorded.stream_id}, set=changes)


@register
class ChipSetProjection(Projection):
    name = "chip_sets"
    models = (ChipSet,)

    @handles
    def registered(self, event: ChipSetRegistered, recorded: RecordedEvent) -> Iterator[Change]:
        yield Insert(ChipSet, dict(
            casino_id=event.casino, code=event.code, name=event.name,
            denominations=list(event.denominations), version=recorded.version))

    @handles
    def denominations_changed(self, event: ChipSetDenominationsChanged, recorded: RecordedEvent
                              ) -> Iterator[Change]:
        casino, _, code = recorded.stream_id.partition(".")
        yield Update(ChipSet, {"casino_id": casino, "code": code},
                     set={"denominations": list(event.denominations),
                          "version": recorded.version})


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


@register
class ApprovalProjection(Projection):
    name = "approvals"
    models = (Approval,)

    @handles
    def requested(self, event: ApprovalRequested, recorded: RecordedEvent) -> Iterator[Change]:
        yield Insert(Approval, dict(
            id=uuid.UUID(event.approval_id), casino_id=event.casino, kind=event.kind,
            subject=event.subject, reason=event.reason, explanation=event.explanation,
            summary=event.summary, amount=event.amount, details=event.details,
            status=ApprovalStatus.REQUESTED, requested_by=_actor(recorded),
            requested_at=recorded.recorded_at, version=recorded.version))

    def _decided(self, approval_id: str, status: ApprovalStatus, note: str,
                 recorded: RecordedEvent) -> Iterator[Change]:
        yield Update(Approval, {"id": uuid.UUID(approval_id)}, set={
            "status": status, "decided_by": _actor(recorded), "decided_at": recorded.recorded_at,
            "note": note, "version": recorded.version})

    @handles
    def granted(self, event: ApprovalGranted, recorded: RecordedEvent) -> Iterator[Change]:
        yield from self._decided(event.approval_id, ApprovalStatus.GRANTED, event.note, recorded)

    @handles
    def refused(self, event: ApprovalRefused, recorded: RecordedEvent) -> Iterator[Change]:
        yield from self._decided(event.approval_id, ApprovalStatus.REFUSED, event.note, recorded)

    @handles
    def withdrawn(self, event: ApprovalWithdrawn, recorded: RecordedEvent) -> Iterator[Change]:
        yield from self._decided(event.approval_id, ApprovalStatus.WITHDRAWN, event.note,
                                 recorded)


@register
class SealProjection(Projection):
    name = "seals"
    models = (GamingDaySeal,)

    @handles
    def sealed(self, event: GamingDaySealed, recorded: RecordedEvent) -> Iterator[Change]:
        # The stored data, not the typed event's: what was signed is those bytes, and an upcast
        # of a later schema would no longer verify.
        yield Insert(GamingDaySeal, dict(
            casino_id=event.casino, gaming_day=event.gaming_day,
            first_position=event.first_position, last_position=event.last_position,
            last_hash=event.last_hash, totals=recorded.data["totals"],
            report_digest=event.report_digest, key_id=event.key_id, signature=event.signature,
            payload=recorded.data, position=recorded.position, sealed_by=_actor(recorded),
            sealed_at=recorded.recorded_at))
