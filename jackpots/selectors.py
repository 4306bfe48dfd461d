"""Reads of the jackpots, over the projection tables only.

"As of" reads: every event that moved a meter left a ``JackpotMeterReading`` with all the meters
after it, so the meters at any past moment are the last reading at or before it; the parameters
in force then are the last ``JackpotConfigVersion`` at or before it; the hits then are those
recorded at or before it (paid or not *at that moment*).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from casino.errors import NotFound
from casino.money import fmt
from jackpots.rules import number_text

from .models import (
    METERS,
    JackpotConfigVersion,
    JackpotCoup,
    JackpotMeterReading,
    JackpotPool,
    JackpotPrize,
    JackpotTable,
)

LAST_HITS = 10


def pool_list(*, casinos: list[str]) -> QuerySet[JackpotPool]:
    return JackpotPool.objects.filter(casino_id__in=casinos).order_by("casino_id", "pool_id")


def pool_get(casino: str, pool_id: str) -> JackpotPool:
    pool = JackpotPool.objects.filter(casino_id=casino, pool_id=pool_id).first()
    if pool is None:
        raise NotFound("there is no jackpot pool {pool_id!r} in casino {casino!r}",
                       params={"pool_id": pool_id, "casino": casino})
    return pool


def _money(value: Any) -> Any:
    return fmt(value) if isinstance(value, Decimal) else value


def pool_meters(casino: str, pool_id: str, *, as_of: dt.datetime | None = None) -> dict[str, Any]:
    """The meters now, or as of a past moment (``NotFound`` before the pool existed)."""
    pool = pool_get(casino, pool_id)
    if as_of is None:
        meters = {name: _money(getattr(pool, name)) for name in METERS}
        meters |= {"version": pool.version, "last_hit_at": pool.last_hit_at}
        return meters
    reading = (JackpotMeterReading.objects
               .filter(casino_id=casino, pool_id=pool_id, recorded_at__lte=as_of)
               .order_by("-version").first())
    if reading is None:
        raise NotFound("pool {pool_id} had no meter yet at {as_of}",
                       params={"pool_id": pool_id, "as_of": as_of.isoformat()})
    meters = {name: _money(getattr(reading, name)) for name in METERS}
    last = (JackpotPrize.objects.filter(casino_id=casino, pool_id=pool_id, hit_at__lte=as_of)
            .order_by("-position").values_list("hit_at", flat=True).first())
    meters |= {"version": reading.version, "last_hit_at": last}
    return meters


def pool_config(casino: str, pool_id: str, *, as_of: dt.datetime | None = None
                ) -> JackpotConfigVersion:
    """The configuration in force now, or at ``as_of``."""
    versions = JackpotConfigVersion.objects.filter(casino_id=casino, pool_id=pool_id)
    if as_of is not None:
        versions = versions.filter(effective_at__lte=as_of)
    found = versions.order_by("-version").first()
    if found is None:
        raise NotFound("pool {pool_id} had no configuration at that moment",
                       params={"pool_id": pool_id})
    return found


def pool_config_history(casino: str, pool_id: str) -> QuerySet[JackpotConfigVersion]:
    return JackpotConfigVersion.objects.filter(casino_id=casino, pool_id=pool_id).order_by(
        "version")


def hit_list(casino: str, pool_id: str, *, as_of: dt.datetime | None = None,
             limit: int = LAST_HITS) -> list[dict[str, Any]]:
    """The last hits (newest first) with their table and round, as they stood at ``as_of``."""
    hits = JackpotPrize.objects.filter(casino_id=casino, pool_id=pool_id)
    if as_of is not None:
        hits = hits.filter(hit_at__lte=as_of)
    out = []
    for prize in hits.order_by("-position", "prize_id")[:limit]:
        paid = prize.paid and (as_of is None or (prize.paid_at is not None
                                                 and prize.paid_at <= as_of))
        out.append({
            "prize_id": prize.prize_id, "round_id": prize.round_id, "table": prize.table,
            "seat": prize.seat, "player": prize.player, "combination": prize.combination,
            "top": prize.top, "amount": fmt(prize.amount), "pool_before": fmt(prize.pool_before),
            "pool_after": fmt(prize.pool_after), "hit_at": prize.hit_at, "paid": paid,
            "paid_at": prize.paid_at if paid else None,
            "payout_id": prize.payout_id if paid else "",
        })
    return out


def prize_list(casino: str, *, unpaid_only: bool = False, pool_id: str | None = None
               ) -> QuerySet[JackpotPrize]:
    """Prizes awarded, newest first; ``unpaid_only`` for what the cage still owes."""
    prizes = JackpotPrize.objects.filter(casino_id=casino)
    if pool_id is not None:
        prizes = prizes.filter(pool_id=pool_id)
    if unpaid_only:
        prizes = prizes.filter(paid=False)
    return prizes.order_by("-position", "prize_id")


def prize_get(casino: str, prize_id: str) -> JackpotPrize:
    prize = JackpotPrize.objects.filter(casino_id=casino, prize_id=prize_id).first()
    if prize is None:
        raise NotFound("there is no jackpot prize {prize_id!r} in casino {casino!r}",
                       params={"prize_id": prize_id, "casino": casino})
    return prize


def coup_list(casino: str, pool_id: str) -> QuerySet[JackpotCoup]:
    return JackpotCoup.objects.filter(casino_id=casino, pool_id=pool_id).order_by("-position")


def coup_get(casino: str, pool_id: str, round_id: str) -> JackpotCoup:
    coup = JackpotCoup.objects.filter(casino_id=casino, pool_id=pool_id,
                                      round_id=round_id).first()
    if coup is None:
        raise NotFound("pool {pool_id} has no coup of round {round_id}",
                       params={"pool_id": pool_id, "round_id": round_id})
    return coup


def meter_history(casino: str, pool_id: str, *, since: dt.datetime | None = None,
                  until: dt.datetime | None = None) -> QuerySet[JackpotMeterReading]:
    readings = JackpotMeterReading.objects.filter(casino_id=casino, pool_id=pool_id)
    if since is not None:
        readings = readings.filter(recorded_at__gte=since)
    if until is not None:
        readings = readings.filter(recorded_at__lte=until)
    return readings.order_by("version")


def table_pool(casino: str, table: str) -> JackpotPool | None:
    """The pool a table feeds, if any."""
    link = JackpotTable.objects.filter(casino_id=casino, table=table).first()
    if link is None:
        return None
    return JackpotPool.objects.filter(casino_id=casino, pool_id=link.pool_id).first()


def table_pool_at(casino: str, table: str, at: dt.datetime | None = None
                  ) -> tuple[str, JackpotConfigVersion] | None:
    """The pool ``table`` fed at ``at`` (now when None) and that pool's configuration in force
    then, or None. A round is paid with the configuration in force when it opened, so this is
    what the pit reads when it opens a round (``options.jackpot``) and takes its jackpot bets."""
    versions = JackpotConfigVersion.objects.filter(casino_id=casino)
    if at is not None:
        versions = versions.filter(effective_at__lte=at)
    for version in versions.order_by("pool_id", "-version").distinct("pool_id"):
        if table in version.config.get("tables", []):
            return version.pool_id, version
    return None


def table_jackpot_option(casino: str, table: str) -> dict[str, Any] | None:
    """A table's ``options.jackpot``, derived from the pool it feeds (``None``: no jackpot).

    The pool is the one source of truth: the pit puts this in a round's options when it opens
    (``docs/jackpots.md`` § Integration with rounds).
    """
    pool = table_pool(casino, table)
    return None if pool is None else pool.jackpot_option()


def pool_summary(pool: JackpotPool) -> dict[str, Any]:
    """A pool as the pit, the cage and the regulator read it."""
    return {
        "casino": pool.casino_id,
        "pool_id": pool.pool_id,
        "name": pool.name,
        "game": pool.game,
        "tables": list(pool.tables),
        "jackpot": pool.jackpot_option(),
        "reserve_percent": number_text(pool.reserve_percent),
        "cap": None if pool.cap is None else fmt(pool.cap),
        "approved_on": pool.approved_on,
        "approval_reference": pool.approval_reference,
        "paytable_approved_on": pool.paytable_approved_on,
        "paytable_approval_reference": pool.paytable_approval_reference,
        "config_version": pool.config_version,
        "amount": fmt(pool.amount),
        "created_at": pool.created_at,
    }
