"""Projections of the pools' streams (``jackpot/<casino>.<pool_id>``) into ``jackpots.models``.

One handler per event type, each changing only this app's tables. A handler takes the typed event
(read through the upcasters) and its recorded envelope and returns changes
(``eventstore.changes``); those that work out a meter take a ``reader`` too and read the
pool as every event before left it (``reader.row``), whether it is written yet or still pending.
Every event that moves a meter leaves a ``JackpotMeterReading`` with all the meters after it (the
history the "as of" reads use): the pool's row as read plus what the event adds to it. The pool's
meters themselves are changed by ``add`` (so the changes of one append, or of a rebuild's batch,
merge into one statement per pool); the meter figures of a reading are computed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any

from django.db import connection

from eventstore.changes import Change, Insert, Sql, Update, Upsert
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent
from eventstore.writer import Reader

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
Changes = Iterator[Change]
Row = Mapping[str, Any]


def _key(recorded: RecordedEvent) -> dict[str, str]:
    """The pool of the event's stream, as ``JackpotPool``'s unique key."""
    casino, _, pool_id = recorded.stream_id.partition(".")
    return {"casino_id": casino, "pool_id": pool_id}


def _actor(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("actor", ""))


def _pool(recorded: RecordedEvent, reader: Reader) -> dict[str, Any]:
    """The pool's row (attribute names) as every event before this one left it."""
    key = _key(recorded)
    pool = reader.row(JackpotPool, **key)
    if pool is None:
        raise JackpotPool.DoesNotExist(f"no jackpot pool {key['casino_id']}/{key['pool_id']}")
    return pool


def _parameters(event: ev.JackpotPoolCreated | ev.JackpotParametersChanged) -> dict[str, Any]:
    return {
        "bet": event.bet,
        "increment_percent": event.increment_percent,
        "start": event.start,
        "paytable": [dict(line) for line in event.paytable],
        "reserve_percent": event.reserve_percent,
        "cap": event.cap,
    }


def _config(pool: Row) -> dict[str, Any]:
    """The configuration snapshot: ``options.jackpot`` plus the platform's own parameters."""
    fields = {name: pool[name] for name in ("bet", "increment_percent", "start", "paytable")}
    return {
        "jackpot": JackpotPool(**fields).jackpot_option(),
        "reserve_percent": number_text(pool["reserve_percent"]),
        "cap": None if pool["cap"] is None else str(pool["cap"]),
        "tables": list(pool["tables"]),
    }


def _version(pool: Row, recorded: RecordedEvent, *, changed: list[str], approved_on: Any = None,
             reference: str = "", reason: str = "") -> Insert:
    """The configuration ``pool`` now has (its ``config_version``), from this event on."""
    return Insert(JackpotConfigVersion, dict(
        casino_id=pool["casino_id"], pool_id=pool["pool_id"], version=pool["config_version"],
        config=_config(pool), event_type=recorded.event_type, changed=changed,
        approved_on=approved_on, approval_reference=reference, reason=reason,
        recorded_by=_actor(recorded), effective_at=recorded.recorded_at,
        position=recorded.position))


def _moved(pool: Row, recorded: RecordedEvent, change: Decimal, add: dict[str, Any], *,
           round_id: str = "", table: str = "", **set_: Any) -> Changes:
    """The meters of ``pool`` moved by ``add``: the pool's row (its stream version too, and
    ``set_``), and the reading of every meter after the event."""
    key = {"casino_id": pool["casino_id"], "pool_id": pool["pool_id"]}
    yield Update(JackpotPool, key, add=add, set={**set_, "version": recorded.version})
    yield Insert(JackpotMeterReading, dict(
        key, version=recorded.version, position=recorded.position,
        recorded_at=recorded.recorded_at, event_type=recorded.event_type, round_id=round_id,
        table=table, change=change,
        **{name: pool[name] + add[name] if name in add else pool[name] for name in METERS}))


def _link(casino: str, pool_id: str, tables: tuple[str, ...], removed: tuple[str, ...] = ()
          ) -> Changes:
    """The pool's ``removed`` tables no longer feed it; ``tables`` feed it unless they feed a
    pool already (a table feeds one pool: ``jackpot_table_one_pool``)."""
    if removed:
        yield Sql(
            f"DELETE FROM {connection.ops.quote_name(JackpotTable._meta.db_table)} "
            'WHERE casino_id = %s AND pool_id = %s AND "table" IN ('
            + ", ".join(["%s"] * len(removed)) + ")",
            [casino, pool_id, *removed])
    for table in tables:
        yield Upsert(JackpotTable, {"casino_id": casino, "table": table},
                     values={"pool_id": pool_id})


@register
class JackpotProjection(Projection):
    name = "jackpots"
    models = (JackpotPool, JackpotConfigVersion, JackpotTable, JackpotCoup, JackpotPrize,
              JackpotMeterReading)

    # --- configuration ---------------------------------------------------------------------

    @handles
    def created(self, event: ev.JackpotPoolCreated, recorded: RecordedEvent) -> Changes:
        pool = dict(
            casino_id=event.casino, pool_id=event.pool_id, name=event.name, game=event.game,
            tables=list(event.tables), approved_on=event.approved_on,
            approval_reference=event.approval_reference,
            paytable_approved_on=event.approved_on,
            paytable_approval_reference=event.approval_reference, config_version=1,
            created_at=recorded.recorded_at, version=recorded.version, **_parameters(event))
        yield Insert(JackpotPool, pool)
        yield from _link(event.casino, event.pool_id, event.tables)
        yield _version(pool, recorded, changed=["created"], approved_on=event.approved_on,
                       reference=event.approval_reference)

    @handles
    def parameters_changed(self, event: ev.JackpotParametersChanged, recorded: RecordedEvent,
                           *, reader: Reader) -> Changes:
        pool = _pool(recorded, reader)
        changes = dict(_parameters(event), approved_on=event.approved_on,
                       approval_reference=event.approval_reference,
                       config_version=event.config_version, version=recorded.version)
        if "paytable" in event.changed:
            changes.update(paytable_approved_on=event.approved_on,
                           paytable_approval_reference=event.approval_reference)
        yield Update(JackpotPool, _key(recorded), set=changes)
        yield _version({**pool, **changes}, recorded, changed=list(event.changed),
                       approved_on=event.approved_on, reference=event.approval_reference,
                       reason=event.reason)

    @handles
    def tables_changed(self, event: ev.JackpotTablesChanged, recorded: RecordedEvent, *,
                       reader: Reader) -> Changes:
        pool = _pool(recorded, reader)
        changes = dict(tables=list(event.tables), config_version=event.config_version,
                       version=recorded.version)
        yield Update(JackpotPool, _key(recorded), set=changes)
        yield from _link(pool["casino_id"], pool["pool_id"], event.added, event.removed)
        yield _version({**pool, **changes}, recorded, changed=["tables"], reason=event.reason)

    # --- the meter -------------------------------------------------------------------------

    @handles
    def seeded(self, event: ev.JackpotSeeded, recorded: RecordedEvent, *, reader: Reader
               ) -> Changes:
        yield from _moved(_pool(recorded, reader), recorded, event.amount, {
            "amount": event.amount, "reserve": -event.from_reserve, "seeded": event.amount,
            "seeded_by_casino": event.from_casino, "reserve_draws": event.from_reserve})

    @handles
    def contributed(self, event: ev.JackpotContributed, recorded: RecordedEvent, *,
                    reader: Reader) -> Changes:
        yield from _moved(_pool(recorded, reader), recorded, event.to_pool, {
            "amount": event.to_pool, "reserve": event.to_reserve, "coups": 1,
            "bets_count": len(event.bets), "bets_amount": event.amount,
            "contributions": event.to_pool, "reserve_contributions": event.to_reserve,
            "diverted": event.diverted, "retained": event.retained,
        }, round_id=event.round_id, table=event.table)

    @handles
    def hit(self, event: ev.JackpotHit, recorded: RecordedEvent, *, reader: Reader) -> Changes:
        pool = _pool(recorded, reader)
        yield from _moved(pool, recorded, -event.amount, {
            "amount": -event.amount, "hits": 1, "wins": event.amount,
            "prizes_unpaid": event.amount,
        }, round_id=event.round_id, table=event.table, last_hit_at=recorded.recorded_at)
        yield Insert(JackpotPrize, dict(
            prize_id=event.prize_id, casino_id=pool["casino_id"], pool_id=pool["pool_id"],
            round_id=event.round_id, table=event.table, bet_id=event.bet_id, seat=event.seat,
            player=event.player, combination=event.combination, top=event.top,
            amount=event.amount, pool_before=event.pool_before, pool_after=event.pool_after,
            hit_at=recorded.recorded_at, position=recorded.position))

    @handles
    def reset(self, event: ev.JackpotReset, recorded: RecordedEvent, *, reader: Reader
              ) -> Changes:
        yield from _moved(_pool(recorded, reader), recorded, event.start, {
            "amount": event.start, "reserve": -event.from_reserve, "resets": 1,
            "seeded": event.start, "seeded_by_casino": event.from_casino,
            "reserve_draws": event.from_reserve,
        }, round_id=event.round_id, table=event.table)

    @handles
    def coup_settled(self, event: ev.JackpotCoupSettled, recorded: RecordedEvent) -> Changes:
        key = _key(recorded)
        yield Insert(JackpotCoup, dict(
            key, round_id=event.round_id, table=event.table,
            config_version=event.config_version, request=event.request, result=event.result,
            seats=event.seats, settled_at=recorded.recorded_at, settled_by=_actor(recorded),
            position=recorded.position))
        yield Update(JackpotPool, key, set={"version": recorded.version})

    @handles
    def prize_paid(self, event: ev.JackpotPrizePaid, recorded: RecordedEvent, *,
                   reader: Reader) -> Changes:
        yield from _moved(_pool(recorded, reader), recorded, ZERO,
                          {"prizes_unpaid": -event.amount}, round_id=event.round_id)
        yield Update(JackpotPrize, {"prize_id": event.prize_id}, add={
            "paid_amount": event.amount}, set={
            "paid": event.owed_after == 0, "paid_at": recorded.recorded_at,
            "payout_id": event.payout_id, "shift_id": event.shift_id,
            "paid_by": _actor(recorded)})

    @handles
    def corrected(self, event: ev.JackpotMeterCorrected, recorded: RecordedEvent, *,
                  reader: Reader) -> Changes:
        signed = event.amount if event.direction == "up" else -event.amount
        if event.meter == "pool":
            add, change = {"amount": signed, "corrections": signed}, signed
        else:
            add, change = {"reserve": signed, "reserve_corrections": signed}, ZERO
        yield from _moved(_pool(recorded, reader), recorded, change, add)
