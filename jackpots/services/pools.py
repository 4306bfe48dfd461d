"""Setting up a pool and changing it: each parameter change is an event.

A change never applies to a round already open: every configuration is kept with the moment it
took effect (``JackpotConfigVersion``) and a coup is paid with the one in force when its round
opened (``coups.jackpot_coup_settle``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotFound
from casino.models import Casino, Role
from casino.money import Money, fmt
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata
from games.models import Table
from jackpots import rules
from jackpots.events import (
    JackpotParametersChanged,
    JackpotPoolCreated,
    JackpotSeeded,
    JackpotTablesChanged,
)
from jackpots.models import JackpotPool, JackpotTable

from ..answers import PoolChangeAnswer, PoolCreateAnswer, PoolTablesAnswer
from ._common import (
    check_start,
    parse_date,
    parse_percent,
    pool_for_update,
    rules_error,
    text,
)

CONFIGURE_ROLES = (Role.ADMINISTRATOR,)
_CODE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_KEEP: Any = object()  # a parameter left as it is


def _parameters(
    game: str, *, bet: Decimal, increment_percent: object, start: Decimal, paytable: object,
    reserve_percent: object, cap: Decimal | None,
) -> dict[str, Any]:
    """Check a whole set of parameters; the configuration itself by the pure rules (the engine's
    own check of ``options.jackpot``)."""
    bet_ = bet  # amounts parsed at the edge (``casino.money.parse_amount``)
    percent = parse_percent(increment_percent, field="increment_percent")
    start_ = start
    check_start(game, bet_, start_)  # BJ n.º 44, SP n.º 10: refused, citing the article
    reserve = parse_percent(reserve_percent if reserve_percent is not None else "0",
                            field="reserve_percent", allow_zero=True)
    if percent + reserve > 100:
        raise InvalidCommand(
            "the increment ({percent}%) and the reserve "
            "({reserve}%) together take more than the whole bet",
            params={"percent": rules.number_text(percent), "reserve": rules.number_text(reserve)},
            field="reserve_percent")
    cap_ = cap
    if cap_ is not None and cap_ < start_:
        raise InvalidCommand("the cap {cap} is below the start value {start}",
                             params={"cap": fmt(cap_), "start": fmt(start_)},
                             field="cap")
    option = {"bet": fmt(bet_), "increment_percent": rules.number_text(percent),
              "start": fmt(start_), "paytable": paytable}
    try:
        config = rules.parse_config(game, option)
    except rules.RoundError as error:
        raise rules_error(error, field="paytable") from None
    return {
        "bet": bet_,
        "increment_percent": percent,
        "start": start_,
        "paytable": tuple(config.as_option()["paytable"]),
        "reserve_percent": reserve,
        "cap": cap_,
    }


def _tables(casino: str, game: str, tables: object, pool_id: str) -> tuple[str, ...]:
    """The tables that feed the pool: each exists, plays the pool's game, feeds no other pool."""

    if not isinstance(tables, list | tuple) or not tables:
        raise InvalidCommand("a pool is fed by one table or more (a list of table codes)",
                             field="tables")
    codes: list[str] = []
    for code in tables:
        if not isinstance(code, str) or not code:
            raise InvalidCommand("tables are listed by their codes", field="tables")
        if code in codes:
            raise InvalidCommand("table {code} is listed twice",
                                 params={"code": code}, field="tables")
        codes.append(code)
    found = dict(Table.objects.filter(casino_id=casino, code__in=codes)
                 .values_list("code", "game"))
    for code in codes:
        if code not in found:
            raise NotFound("there is no table {code!r} in casino {casino!r}",
                           params={"code": code, "casino": casino}, field="tables",
                           table=code)
        if found[code] != game:
            raise InvalidCommand("table {code} plays {found}, not {game}: it cannot feed "
                                 "this pool",
                                 params={"code": code, "found": found[code], "game": game}, field="tables", table=code)
    taken = (JackpotTable.objects.filter(casino_id=casino, table__in=codes)
             .exclude(pool_id=pool_id).values_list("table", "pool_id").first())
    if taken is not None:
        raise Conflict("table {taken} already feeds pool {taken_2} (a table feeds one pool)",
                       params={"taken": taken[0], "taken_2": taken[1]},
                       code="table_feeds_another_pool", table=taken[0], pool_id=taken[1])
    return tuple(codes)


@command("jackpot_pool_create")
def jackpot_pool_create(
    *,
    casino: str,
    pool_id: str,
    name: str,
    game: str,
    tables: Sequence[str],
    bet: Money,
    increment_percent: object,
    start: Money,
    paytable: object,
    approved_on: object,
    approval_reference: str,
    reserve_percent: object = None,
    cap: Money | None = None,
    metadata: Metadata,
) -> PoolCreateAnswer:
    """Set up a pool fed by ``tables`` and fund its start value (``JackpotPoolCreated``,
    ``JackpotSeeded``). Refused when the start value is below 10,000 times the bet (BJ n.º 44,
    SP n.º 10). The reserve and the cap are optional and off by default."""
    require_role(metadata, CONFIGURE_ROLES, "setting up a jackpot pool")
    if metadata.casino != casino:
        raise InvalidCommand("this belongs to casino {casino!r}, not {casino_2!r}",
                             params={"casino": casino, "casino_2": metadata.casino})
    if not Casino.objects.filter(code=casino).exists():
        raise NotFound("there is no casino {casino!r}", params={"casino": casino})
    if not isinstance(pool_id, str) or not _CODE.match(pool_id):
        raise InvalidCommand("pool id {pool_id!r} must be lower-case letters, digits and dashes",
                             params={"pool_id": pool_id},
                             field="pool_id")
    if game not in rules.COMBINATIONS:
        raise InvalidCommand("only blackjack and stud poker have a jackpot, not {game!r}",
                             params={"game": game},
                             code="unknown_game", field="game")
    label = text(name, field="name")
    params = _parameters(game, bet=bet, increment_percent=increment_percent, start=start,
                         paytable=paytable, reserve_percent=reserve_percent, cap=cap)
    approved = parse_date(approved_on, field="approved_on")
    reference = text(approval_reference, field="approval_reference")
    fed_by = _tables(casino, game, list(tables), pool_id)

    if JackpotPool.objects.filter(casino_id=casino, pool_id=pool_id).exists():
        raise Conflict("pool {pool_id!r} already exists in {casino}",
                       params={"pool_id": pool_id, "casino": casino}, field="pool_id")
    start_ = params["start"]
    store.append(f"jackpot/{casino}.{pool_id}", [
        JackpotPoolCreated(pool_id=pool_id, casino=casino, name=label, game=game,
                           tables=fed_by, approved_on=approved,
                           approval_reference=reference, **params),
        JackpotSeeded(pool_id=pool_id, amount=start_, from_casino=start_,
                      from_reserve=Decimal("0.00"), pool_after=start_,
                      reserve_after=Decimal("0.00")),
    ], expected_version=0, metadata=metadata)
    return PoolCreateAnswer(casino=casino, pool_id=pool_id, amount=fmt(start_), version=2,
                            config_version=1)


@command("jackpot_pool_change")
def jackpot_pool_change(
    *,
    casino: str,
    pool_id: str,
    approved_on: object,
    approval_reference: str,
    reason: str = "",
    bet: Money = _KEEP,
    increment_percent: object = _KEEP,
    start: Money = _KEEP,
    paytable: object = _KEEP,
    reserve_percent: object = _KEEP,
    cap: Money | None = _KEEP,
    metadata: Metadata,
) -> PoolChangeAnswer:
    """New parameters (``JackpotParametersChanged``), each approved (date and reference), in force
    for the rounds opened from now on. Pass only what changes; ``cap=None`` removes the cap."""
    require_role(metadata, CONFIGURE_ROLES, "changing a jackpot pool")
    pool = pool_for_update(casino, pool_id)
    if metadata.casino != casino:
        raise InvalidCommand("this belongs to casino {casino!r}, not {casino_2!r}",
                             params={"casino": casino, "casino_2": metadata.casino})
    current: dict[str, Any] = {
        "bet": pool.bet, "increment_percent": rules.number_text(pool.increment_percent),
        "start": pool.start, "paytable": list(pool.paytable),
        "reserve_percent": rules.number_text(pool.reserve_percent), "cap": pool.cap,
    }
    asked: dict[str, Any] = {"bet": bet, "increment_percent": increment_percent,
                             "start": start, "paytable": paytable,
                             "reserve_percent": reserve_percent, "cap": cap}
    merged = {k: (current[k] if v is _KEEP else v) for k, v in asked.items()}
    params = _parameters(pool.game, **merged)
    before = _parameters(pool.game, **current)
    changed = tuple(k for k in params if params[k] != before[k])
    if not changed:
        raise InvalidCommand("nothing changes: every parameter is as it was", code="no_change")
    approved = parse_date(approved_on, field="approved_on")
    reference = text(approval_reference, field="approval_reference")
    why = text(reason, field="reason", required=False, limit=1000)

    store.append(pool.stream, [JackpotParametersChanged(
        pool_id=pool_id, config_version=pool.config_version + 1, changed=changed,
        approved_on=approved, approval_reference=reference, reason=why, **params)],
        expected_version=pool.version, metadata=metadata)
    return PoolChangeAnswer(casino=casino, pool_id=pool_id, changed=list(changed),
                            config_version=pool.config_version + 1, version=pool.version + 1)


@command("jackpot_pool_set_tables")
def jackpot_pool_set_tables(
    *, casino: str, pool_id: str, tables: Sequence[str], reason: str = "", metadata: Metadata,
) -> PoolTablesAnswer:
    """The tables that feed the pool from now on (``JackpotTablesChanged``, the whole list)."""
    require_role(metadata, CONFIGURE_ROLES, "linking tables to a jackpot pool")
    pool = pool_for_update(casino, pool_id)
    if metadata.casino != casino:
        raise InvalidCommand("this belongs to casino {casino!r}, not {casino_2!r}",
                             params={"casino": casino, "casino_2": metadata.casino})
    fed_by = _tables(casino, pool.game, list(tables), pool_id)
    before = list(pool.tables)
    added = tuple(t for t in fed_by if t not in before)
    removed = tuple(t for t in before if t not in fed_by)
    if not added and not removed:
        raise InvalidCommand("the pool is fed by these tables already", code="no_change")
    why = text(reason, field="reason", required=False, limit=1000)

    store.append(pool.stream, [JackpotTablesChanged(
        pool_id=pool_id, config_version=pool.config_version + 1, tables=fed_by,
        added=added, removed=removed, reason=why)],
        expected_version=pool.version, metadata=metadata)
    return PoolTablesAnswer(casino=casino, pool_id=pool_id, tables=list(fed_by),
                            config_version=pool.config_version + 1, version=pool.version + 1)
