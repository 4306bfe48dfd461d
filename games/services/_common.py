"""What the pit's services share: look-ups that lock, chip counts, errors from the engine."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from casino.errors import Conflict, InvalidCommand, NotFound
from casino.models import Casino, ChipSet
from casino.money import counts_as_data, counts_value, fmt, parse_counts
from eventstore import clock, projections, reads
from eventstore.commands import command
from eventstore.records import Metadata
from games.engine.errors import RoundError
from games.models import Bet, Round, SessionStatus, Table, TableSession

Reads = Callable[[dict[str, Any]], list[reads.Read]]

def casino_get(code: str) -> Casino:
    casino = Casino.objects.filter(code=code).first()
    if casino is None:
        raise NotFound("there is no casino {code!r}", params={"code": code})
    return casino


def table_get(casino: str, code: str, *, lock: bool = False) -> Table:
    query = Table.objects.filter(casino_id=casino, code=code)
    if lock:
        query = query.select_for_update()
    table = query.first()
    if table is None:
        raise NotFound("there is no table {code!r} in casino {casino!r}",
                       params={"code": code, "casino": casino}, table=code)
    return table


def session_get(session_id: str, *, lock: bool = False, open_only: bool = True) -> TableSession:
    query = TableSession.objects.filter(session_id=session_id)
    if lock:
        query = query.select_for_update()
    session = query.first()
    if session is None:
        raise NotFound("there is no table session {session_id}",
                       params={"session_id": session_id}, session=str(session_id))
    if open_only and session.status != SessionStatus.OPEN:
        raise Conflict("the session of table {table} is closed",
                       params={"table": session.table}, code="session_closed",
                       session=str(session_id))
    return session


def _session_and_table_sql() -> str:
    return (f"SELECT {reads.columns(TableSession, 's')}, {reads.columns(Table, 't')} "
            "FROM games_tablesession AS s "
            "JOIN games_table AS t ON t.casino_id = s.casino_id AND t.code = s.\"table\" "
            "WHERE s.session_id = %s FOR UPDATE OF s")


def _round_and_table_sql() -> str:
    return (f"SELECT {reads.columns(Round, 'r')}, {reads.columns(Table, 't')} "
            "FROM games_round AS r "
            "JOIN games_table AS t ON t.casino_id = r.casino_id AND t.code = r.\"table\" "
            "WHERE r.round_id = %s FOR UPDATE OF r")


def session_reads(arguments: dict[str, Any]) -> list[reads.Read]:
    """What ``session_and_table`` reads for a service's ``session_id`` (``command(reads=)``)."""
    key = _uuid(str(arguments.get("session_id", "")))
    return [] if key is None else [(_session_and_table_sql(), [key])]


def whole_round_reads(arguments: dict[str, Any]) -> list[reads.Read]:
    """``session_reads``, and what the live projections will read for the round's settlement
    (the ledger's posting facts): a whole round's reads, all with the lock."""
    reads = session_reads(arguments)
    metadata = arguments.get("metadata")
    if reads and isinstance(metadata, Metadata):
        reads += projections.reads_ahead({"casino": metadata.casino,
                                          "session_id": str(reads[0][1][0]),
                                          "at": clock.now()})
    return reads


def round_reads(arguments: dict[str, Any]) -> list[reads.Read]:
    """What ``round_and_table`` and ``round_bets`` read for a service's ``round_id``."""
    key = _uuid(str(arguments.get("round_id", "")))
    return [] if key is None else [(_round_and_table_sql(), [key]), (_ROUND_BETS_SQL, [key])]


def session_and_table(session_id: str) -> tuple[TableSession, Table]:
    """An open session, locked, and its table: ``session_get(lock=True)`` and ``table_get`` in one
    statement (the pit's hot path)."""
    key = _uuid(session_id)
    found = None if key is None else reads.one(
        _session_and_table_sql(), [key], TableSession, Table)
    if found is None:
        session_get(session_id, lock=True)  # the refusal, as it would be without the join
        raise NotFound("there is no table for session {session_id}",
                       params={"session_id": session_id}, session=str(session_id))
    session, table = found
    assert isinstance(session, TableSession)
    assert isinstance(table, Table)
    if session.status != SessionStatus.OPEN:
        session_get(session_id)
    return session, table


def round_and_table(round_id: str) -> tuple[Round, Table]:
    """A round, locked, and its table, in one statement (the pit's hot path)."""
    key = _uuid(round_id)
    found = None if key is None else reads.one(
        _round_and_table_sql(), [key], Round, Table)
    if found is None:
        round_get(round_id, lock=True)
        raise NotFound("there is no table for round {round_id}",
                       params={"round_id": round_id}, round=str(round_id))
    the_round, table = found
    assert isinstance(the_round, Round)
    assert isinstance(table, Table)
    return the_round, table


_ROUND_BETS_SQL = (f"SELECT {reads.columns(Bet, 'b')} FROM games_bet AS b "
                   "WHERE b.round_id = %s AND NOT b.withdrawn ORDER BY b.id")


def round_bets(round_id: uuid.UUID | str) -> list[Bet]:
    """The round's bets still standing, in the order they were placed (every command on a round
    reads them)."""
    return reads.every(_ROUND_BETS_SQL, [uuid.UUID(str(round_id))], Bet)


def _uuid(value: str) -> uuid.UUID | None:
    """A well-formed id as a UUID; None for anything else (``session_get`` or ``round_get``
    then refuses it as they always have)."""
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None


def _round_sql(lock: bool) -> str:
    return (f"SELECT {reads.columns(Round, 'r')} FROM games_round AS r WHERE r.round_id = %s"
            + (" FOR UPDATE" if lock else ""))


def locked_round_reads(arguments: dict[str, Any]) -> list[reads.Read]:
    """What ``round_get(lock=True)`` reads for a service's ``round_id``."""
    key = _uuid(str(arguments.get("round_id", "")))
    return [] if key is None else [(_round_sql(lock=True), [key])]


def round_get(round_id: str, *, lock: bool = False) -> Round:
    key = _uuid(round_id)
    if key is not None:  # the pit's hot path: a prepared statement
        rows = reads.every(_round_sql(lock), [key], Round)
        found = rows[0] if rows else None
    else:
        query = Round.objects.filter(round_id=round_id)
        found = query.first()
    if found is None:
        raise NotFound("there is no round {round_id}",
                       params={"round_id": round_id}, round=str(round_id))
    return found


def check_casino(metadata: Metadata, casino: str) -> None:
    if metadata.casino != casino:
        raise InvalidCommand("this belongs to casino {casino!r}, not {casino_2!r}",
                             params={"casino": casino, "casino_2": metadata.casino})


def denominations(table: Table) -> tuple[Decimal, ...]:
    chip_set = ChipSet.objects.filter(casino_id=table.casino_id, code=table.chip_set).first()
    if chip_set is None:
        raise NotFound("table {code} uses chip set {chip_set!r}, which does not exist",
                       params={"code": table.code, "chip_set": table.chip_set})
    return tuple(Decimal(d) for d in chip_set.denominations)


def _denomination(key: str) -> Decimal | None:
    try:
        return Decimal(key)
    except ArithmeticError:
        return None


def chips(table: Table, value: object, *, field: str, allow_empty: bool = False
          ) -> tuple[dict[str, int], Decimal]:
    allowed = denominations(table)
    if table.currency and isinstance(value, dict):
        # a table in a foreign currency: a denomination of other chips is named as such
        for key in value:
            if isinstance(key, str) and _denomination(key) not in allowed:
                raise InvalidCommand(
                    "{field}: {denomination} is not a denomination of table {code}'s "
                    "{currency} chips (chip set {chip_set}: {allowed})",
                    params={"field": field, "denomination": key, "code": table.code,
                            "currency": table.currency, "chip_set": table.chip_set,
                            "allowed": ", ".join(fmt(d) for d in allowed)},
                    code="wrong_currency_chips", field=field)
    counts = parse_counts(value, allowed=allowed, field=field)
    amount = counts_value(counts)
    if amount == 0 and not allow_empty:
        raise InvalidCommand("{field}: no chips given", params={"field": field}, field=field)
    return counts_as_data(counts), amount.quantize(Decimal("0.01"))


def chips_value(data: dict[str, int] | None) -> Decimal:
    return sum((Decimal(d) * n for d, n in (data or {}).items()), Decimal("0.00"))


def chips_add(a: dict[str, int], b: dict[str, int], sign: int = 1) -> dict[str, int]:
    out = dict(a)
    for denomination, pieces in b.items():
        out[denomination] = out.get(denomination, 0) + sign * pieces
    return {d: n for d, n in sorted(out.items(), key=lambda kv: Decimal(kv[0]), reverse=True)
            if n}


def engine_error(error: RoundError, **extra: Any) -> InvalidCommand:
    """A refusal of the rules engine, in the platform's error family (code kept)."""
    if error.bet is not None:
        extra["bet"] = error.bet
    return InvalidCommand(error.template, code=error.code, params=error.params, **extra)


__all__ = ["chips", "chips_add", "chips_value", "command", "fmt"]
