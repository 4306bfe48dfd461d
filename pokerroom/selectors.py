"""Reads of the poker room, over its projections only: tables with seats and hands, the waiting
list's free seats, tournaments with their clock, entrants and payouts (answers are types)."""

from __future__ import annotations

import datetime as dt

from casino.errors import NotFound
from casino.money import fmt

from .answers import (
    EntryRow,
    HandRow,
    PokerTableDetail,
    PokerTableRow,
    SeatRow,
    TournamentDetail,
    TournamentRow,
    WaitRow,
)
from .models import (
    PokerHand,
    PokerSeat,
    PokerTable,
    PokerWaitlistTicket,
    Tournament,
    TournamentEntry,
)


def _table_row(t: PokerTable, occupied: int) -> PokerTableRow:
    return PokerTableRow(
        table=t.code, game=t.game, seats=t.seats, occupied=occupied, charge=t.charge,
        min_buy_in=fmt(t.min_buy_in), max_buy_in=fmt(t.max_buy_in), hands=t.hands,
        players_money=fmt(t.players_money), rake_recorded=fmt(t.rake_recorded + t.time_charges),
        rake_counted=fmt(t.rake_counted), commission=fmt(t.commission),
        approval_reference=t.approval_reference)


def table_list(casino: str) -> list[PokerTableRow]:
    occupied: dict[str, int] = {}
    for table in PokerSeat.objects.filter(casino_id=casino, occupied=True).values_list(
            "table", flat=True):
        occupied[table] = occupied.get(table, 0) + 1
    return [_table_row(t, occupied.get(t.code, 0))
            for t in PokerTable.objects.filter(casino_id=casino).order_by("code")]


def table_detail(casino: str, table: str, *, hands: int = 20) -> PokerTableDetail:
    found = PokerTable.objects.filter(casino_id=casino, code=table).first()
    if found is None:
        raise NotFound("there is no poker room table {table!r} in {casino}",
                       params={"table": table, "casino": casino})
    seats = list(PokerSeat.objects.filter(casino_id=casino, table=table).order_by("seat"))
    last = PokerHand.objects.filter(casino_id=casino, table=table).order_by("-hand")[:hands]
    return PokerTableDetail(
        table=_table_row(found, sum(1 for s in seats if s.occupied)),
        seats=[SeatRow(seat=s.seat, patron=s.patron, occupied=s.occupied, bought=fmt(s.bought))
               for s in seats],
        waiting=[WaitRow(ticket=w.ticket, patron=w.patron, joined_at=w.joined_at.isoformat())
                 for w in PokerWaitlistTicket.objects.filter(
                     casino_id=casino, table=table, waiting=True).order_by("ticket")],
        hands=[HandRow(hand=h.hand, pot=fmt(h.pot), rake=fmt(h.rake), flop_dealt=h.flop_dealt,
                       source=h.source, recorded_at=h.recorded_at.isoformat()) for h in last])


def _clock(t: Tournament, now: dt.datetime) -> tuple[int, str | None, str | None]:
    """The level being played (1 from the start), when it ends and when late registration
    closes: the clock runs from the start at ``level_minutes`` a level."""
    if t.started_at is None or t.status == "finished" or t.level_minutes == 0:
        return 0, None, None
    elapsed = max(now - t.started_at, dt.timedelta(0))
    length = dt.timedelta(minutes=t.level_minutes)
    level = int(elapsed / length) + 1
    ends = t.started_at + level * length
    late = t.started_at + t.late_registration_levels * length
    return level, ends.isoformat(), late.isoformat()


def _tournament_row(t: Tournament, now: dt.datetime) -> TournamentRow:
    level, ends, late = _clock(t, now)
    return TournamentRow(
        tournament=t.code, game=t.game, status=t.status, buy_in=fmt(t.buy_in),
        entry_fee=fmt(t.entry_fee), guarantee=fmt(t.guarantee), entries=t.entries,
        remaining=t.remaining, collected=fmt(t.collected), fees=fmt(t.fees), pool=fmt(t.pool),
        overlay=fmt(t.overlay), prizes_paid=fmt(t.prizes_paid), level=level,
        level_ends_at=ends, late_registration_until=late)


def tournament_list(casino: str, *, now: dt.datetime | None = None) -> list[TournamentRow]:
    moment = now or dt.datetime.now(tz=dt.UTC)
    return [_tournament_row(t, moment)
            for t in Tournament.objects.filter(casino_id=casino).order_by("code")]


def tournament_detail(casino: str, tournament: str, *, now: dt.datetime | None = None
                      ) -> TournamentDetail:
    found = Tournament.objects.filter(casino_id=casino, code=tournament).first()
    if found is None:
        raise NotFound("there is no tournament {tournament!r} in {casino}",
                       params={"tournament": tournament, "casino": casino})
    entries = TournamentEntry.objects.filter(casino_id=casino, tournament=tournament
                                             ).order_by("place", "entry")
    return TournamentDetail(
        tournament=_tournament_row(found, now or dt.datetime.now(tz=dt.UTC)),
        payout_percents=[str(p) for p in found.payout_percents],
        entries=[EntryRow(entry=e.entry, patron=e.patron, late=e.late, rebuys=e.rebuys,
                          addons=e.addons, place=e.place, prize=fmt(e.prize), paid=e.paid)
                 for e in entries])
