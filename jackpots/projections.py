"""Projections of the pools' streams (``jackpot/<casino>.<pool_id>``) into ``jackpots.models``.

One handler per event type, each writing only this app's tables. Every event that moves a meter
leaves a ``JackpotMeterReading`` with all the meters after it (the history the "as of" reads use).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from casino.eventstore.projections import Projection, handles, register
from casino.eventstore.store import RecordedEvent

from . import events as ev
from .models import (
    METERS,
    JackpotConfigVersion,
    JackpotCoup,
    JackpotMeterReading,
    JackpotPool,
    JackpotPrize,
    JackpotTable,
)
from .rules import number_text

ZERO = Decimal("0.00")


def _pool(recorded: RecordedEvent) -> JackpotPool:
    casino, _, pool_id = recorded.stream_id.partition(".")
    return JackpotPool.objects.get(casino_id=casino, pool_id=pool_id)


def _parameters(event: ev.JackpotPoolCreated | ev.JackpotParametersChanged) -> dict[str, Any]:
    return {
        "bet": event.bet,
        "increment_percent": event.increment_percent,
        "start": event.start,
        "paytable": [dict(line) for line in event.paytable],
        "reserve_percent": event.reserve_percent,
        "cap": event.cap,
    }


def _config(pool: JackpotPool) -> dict[str, Any]:
    """The configuration snapshot: ``options.jackpot`` plus the platform's own parameters."""
    return {
        "jackpot": pool.jackpot_option(),
        "reserve_percent": number_text(pool.reserve_percent),
        "cap": None if pool.cap is None else str(pool.cap),
        "tables": list(pool.tables),
    }


def _version(pool: JackpotPool, recorded: RecordedEvent, *, changed: list[str],
             approved_on: Any = None, reference: str = "", reason: str = "") -> None:
    JackpotConfigVersion.objects.create(
        casino_id=pool.casino_id, pool_id=pool.pool_id, version=pool.config_version,
        config=_config(pool), event_type=recorded.event_type, changed=changed,
        approved_on=approved_on, approval_reference=reference, reason=reason,
        recorded_by=str(recorded.metadata.get("actor", "")),
        effective_at=recorded.recorded_at, position=recorded.position)


def _reading(pool: JackpotPool, recorded: RecordedEvent, change: Decimal, *,
             round_id: str = "", table: str = "") -> None:
    JackpotMeterReading.objects.create(
        casino_id=pool.casino_id, pool_id=pool.pool_id, version=recorded.version,
        position=recorded.position, recorded_at=recorded.recorded_at,
        event_type=recorded.event_type, round_id=round_id, table=table, change=change,
        **{name: getattr(pool, name) for name in METERS})


def _link(pool: JackpotPool, tables: tuple[str, ...], removed: tuple[str, ...] = ()) -> None:
    JackpotTable.objects.filter(casino_id=pool.casino_id, pool_id=pool.pool_id,
                                table__in=removed).delete()
    for table in tables:
        JackpotTable.objects.get_or_create(casino_id=pool.casino_id, table=table,
                                           defaults={"pool_id": pool.pool_id})


@register
class JackpotProjection(Projection):
    name = "jackpots"
    models = (JackpotPool, JackpotConfigVersion, JackpotTable, JackpotCoup, JackpotPrize,
              JackpotMeterReading)

    # --- configuration ---------------------------------------------------------------------

    @handles("JackpotPoolCreated")
    def created(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotPoolCreated)
        pool = JackpotPool.objects.create(
            casino_id=event.casino, pool_id=event.pool_id, name=event.name, game=event.game,
            tables=list(event.tables), approved_on=event.approved_on,
            approval_reference=event.approval_reference,
            paytable_approved_on=event.approved_on,
            paytable_approval_reference=event.approval_reference, config_version=1,
            created_at=recorded.recorded_at, version=recorded.version, **_parameters(event))
        _link(pool, event.tables)
        _version(pool, recorded, changed=["created"], approved_on=event.approved_on,
                 reference=event.approval_reference)

    @handles("JackpotParametersChanged")
    def parameters_changed(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotParametersChanged)
        pool = _pool(recorded)
        for name, value in _parameters(event).items():
            setattr(pool, name, value)
        pool.approved_on = event.approved_on
        pool.approval_reference = event.approval_reference
        if "paytable" in event.changed:
            pool.paytable_approved_on = event.approved_on
            pool.paytable_approval_reference = event.approval_reference
        pool.config_version = event.config_version
        pool.version = recorded.version
        pool.save()
        _version(pool, recorded, changed=list(event.changed), approved_on=event.approved_on,
                 reference=event.approval_reference, reason=event.reason)

    @handles("JackpotTablesChanged")
    def tables_changed(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotTablesChanged)
        pool = _pool(recorded)
        pool.tables = list(event.tables)
        pool.config_version = event.config_version
        pool.version = recorded.version
        pool.save(update_fields=["tables", "config_version", "version"])
        _link(pool, event.added, event.removed)
        _version(pool, recorded, changed=["tables"], reason=event.reason)

    # --- the meter -------------------------------------------------------------------------

    @handles("JackpotSeeded")
    def seeded(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotSeeded)
        pool = _pool(recorded)
        pool.amount += event.amount
        pool.reserve -= event.from_reserve
        pool.seeded += event.amount
        pool.seeded_by_casino += event.from_casino
        pool.reserve_draws += event.from_reserve
        pool.version = recorded.version
        pool.save()
        _reading(pool, recorded, event.amount)

    @handles("JackpotContributed")
    def contributed(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotContributed)
        pool = _pool(recorded)
        pool.amount += event.to_pool
        pool.reserve += event.to_reserve
        pool.coups += 1
        pool.bets_count += len(event.bets)
        pool.bets_amount += event.amount
        pool.contributions += event.to_pool
        pool.reserve_contributions += event.to_reserve
        pool.diverted += event.diverted
        pool.retained += event.retained
        pool.version = recorded.version
        pool.save()
        _reading(pool, recorded, event.to_pool, round_id=event.round_id, table=event.table)

    @handles("JackpotHit")
    def hit(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotHit)
        pool = _pool(recorded)
        pool.amount -= event.amount
        pool.hits += 1
        pool.wins += event.amount
        pool.prizes_unpaid += event.amount
        pool.last_hit_at = recorded.recorded_at
        pool.version = recorded.version
        pool.save()
        JackpotPrize.objects.create(
            prize_id=event.prize_id, casino_id=pool.casino_id, pool_id=pool.pool_id,
            round_id=event.round_id, table=event.table, bet_id=event.bet_id, seat=event.seat,
            player=event.player, combination=event.combination, top=event.top,
            amount=event.amount, pool_before=event.pool_before, pool_after=event.pool_after,
            hit_at=recorded.recorded_at, position=recorded.position)
        _reading(pool, recorded, -event.amount, round_id=event.round_id, table=event.table)

    @handles("JackpotReset")
    def reset(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotReset)
        pool = _pool(recorded)
        pool.amount += event.start
        pool.reserve -= event.from_reserve
        pool.resets += 1
        pool.seeded += event.start
        pool.seeded_by_casino += event.from_casino
        pool.reserve_draws += event.from_reserve
        pool.version = recorded.version
        pool.save()
        _reading(pool, recorded, event.start, round_id=event.round_id, table=event.table)

    @handles("JackpotCoupSettled")
    def coup_settled(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotCoupSettled)
        casino, _, pool_id = recorded.stream_id.partition(".")
        JackpotCoup.objects.create(
            casino_id=casino, pool_id=pool_id, round_id=event.round_id, table=event.table,
            config_version=event.config_version, request=event.request, result=event.result,
            seats=event.seats, settled_at=recorded.recorded_at,
            settled_by=str(recorded.metadata.get("actor", "")), position=recorded.position)
        JackpotPool.objects.filter(casino_id=casino, pool_id=pool_id).update(
            version=recorded.version)

    @handles("JackpotPrizePaid")
    def prize_paid(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotPrizePaid)
        pool = _pool(recorded)
        pool.prizes_unpaid -= event.amount
        pool.version = recorded.version
        pool.save(update_fields=["prizes_unpaid", "version"])
        JackpotPrize.objects.filter(prize_id=event.prize_id).update(
            paid=True, paid_at=recorded.recorded_at, payout_id=event.payout_id,
            shift_id=event.shift_id, paid_by=str(recorded.metadata.get("actor", "")))
        _reading(pool, recorded, ZERO, round_id=event.round_id)

    @handles("JackpotMeterCorrected")
    def corrected(self, recorded: RecordedEvent) -> None:
        event = recorded.event
        assert isinstance(event, ev.JackpotMeterCorrected)
        pool = _pool(recorded)
        signed = event.amount if event.direction == "up" else -event.amount
        if event.meter == "pool":
            pool.amount += signed
            pool.corrections += signed
        else:
            pool.reserve += signed
            pool.reserve_corrections += signed
        pool.version = recorded.version
        pool.save()
        _reading(pool, recorded, signed if event.meter == "pool" else ZERO)
