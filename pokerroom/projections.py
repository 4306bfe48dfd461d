"""Projections of the poker room's streams into ``pokerroom.models``: one handler per event
class, the typed event in, changes out (``eventstore.changes``); nothing else writes these
tables, and ``rebuild_projections --check`` rebuilds them from the events."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from eventstore.changes import Change, Insert, Update, Upsert
from eventstore.projections import Projection, handles, register
from eventstore.records import RecordedEvent

from . import events as ev
from .models import (
    ChemmyCoup,
    PokerHand,
    PokerSeat,
    PokerTable,
    PokerWaitlistTicket,
    RakeBoxCount,
    Tournament,
    TournamentEntry,
)

Changes = Iterator[Change]
ZERO = Decimal("0.00")


def _table(recorded: RecordedEvent) -> dict[str, str]:
    casino, _, table = recorded.stream_id.partition(".")
    return {"casino_id": casino, "code": table}


def _seat(recorded: RecordedEvent, seat: int) -> dict[str, object]:
    casino, _, table = recorded.stream_id.partition(".")
    return {"casino_id": casino, "table": table, "seat": seat}


def _tournament(recorded: RecordedEvent) -> dict[str, str]:
    casino, _, code = recorded.stream_id.partition(".")
    return {"casino_id": casino, "code": code}


def _entry(recorded: RecordedEvent, entry: int) -> dict[str, object]:
    casino, _, code = recorded.stream_id.partition(".")
    return {"casino_id": casino, "tournament": code, "entry": entry}


@register
class PokerRoomProjection(Projection):
    name = "pokerroom"
    models = (PokerTable, PokerSeat, PokerWaitlistTicket, PokerHand, RakeBoxCount, ChemmyCoup, Tournament,
              TournamentEntry)

    # --- tables ----------------------------------------------------------------------------

    @handles
    def table_opened(self, event: ev.PokerTableOpened, recorded: RecordedEvent) -> Changes:
        yield Insert(PokerTable, dict(
            casino_id=event.casino, code=event.table, game=event.game, seats=event.seats,
            min_buy_in=event.min_buy_in, max_buy_in=event.max_buy_in, charge=event.charge,
            rake_percent=event.rake_percent, rake_cap=event.rake_cap,
            minimum_pot=event.minimum_pot, no_flop_no_drop=event.no_flop_no_drop,
            time_rate=event.time_rate, period_minutes=event.period_minutes,
            commission_percent=event.commission_percent,
            approval_reference=event.approval_reference, version=recorded.version))

    @handles
    def seated(self, event: ev.PokerPlayerSeated, recorded: RecordedEvent) -> Changes:
        # a seat is a row from its first player on: a later player takes it over
        taken = {"patron": event.patron, "occupied": True, "bought": ZERO}
        yield Upsert(PokerSeat, _seat(recorded, event.seat), values=taken, set=taken)
        yield Update(PokerTable, _table(recorded), set={"version": recorded.version})

    @handles
    def waitlist_joined(self, event: ev.PokerWaitlistJoined, recorded: RecordedEvent
                        ) -> Changes:
        casino, _, table = recorded.stream_id.partition(".")
        yield Insert(PokerWaitlistTicket, dict(casino_id=casino, table=table,
                                               ticket=event.ticket, patron=event.patron,
                                               joined_at=recorded.recorded_at))
        yield Update(PokerTable, _table(recorded), set={"version": recorded.version})

    @handles
    def waitlist_left(self, event: ev.PokerWaitlistLeft, recorded: RecordedEvent) -> Changes:
        casino, _, table = recorded.stream_id.partition(".")
        yield Update(PokerWaitlistTicket, {"casino_id": casino, "table": table,
                                           "ticket": event.ticket},
                     set={"waiting": False, "seated": event.seated})
        yield Update(PokerTable, _table(recorded), set={"version": recorded.version})

    @handles
    def left(self, event: ev.PokerPlayerLeft, recorded: RecordedEvent) -> Changes:
        yield Update(PokerSeat, _seat(recorded, event.seat), set={"occupied": False})
        yield Update(PokerTable, _table(recorded), add={
            "cashed_out": event.cashed_out, "players_money": -event.cashed_out},
            set={"version": recorded.version})

    @handles
    def chips_bought(self, event: ev.PokerChipsBought, recorded: RecordedEvent) -> Changes:
        yield Update(PokerSeat, _seat(recorded, event.seat), add={"bought": event.amount})
        yield Update(PokerTable, _table(recorded), add={"buy_ins": event.amount,
                                                          "players_money": event.amount},
                     set={"version": recorded.version})

    @handles
    def hand_recorded(self, event: ev.PokerHandRecorded, recorded: RecordedEvent) -> Changes:
        casino, _, table = recorded.stream_id.partition(".")
        yield Insert(PokerHand, dict(
            casino_id=casino, table=table, hand=event.hand, pot=event.pot, rake=event.rake,
            flop_dealt=event.flop_dealt, source=event.source,
            contributions=list(event.contributions), awards=list(event.awards),
            recorded_at=recorded.recorded_at, position=recorded.position))
        yield Update(PokerTable, _table(recorded), add={
            "hands": 1, "pots": event.pot, "rake_recorded": event.rake,
            "rake_uncounted": event.rake, "players_money": -event.rake}, set={"version": recorded.version})

    @handles
    def time_charged(self, event: ev.PokerTimeCharged, recorded: RecordedEvent) -> Changes:
        yield Update(PokerTable, _table(recorded), add={
            "time_charges": event.amount, "rake_uncounted": event.amount,
            "players_money": -event.amount},
            set={"version": recorded.version})

    @handles
    def rake_box_counted(self, event: ev.RakeBoxCounted, recorded: RecordedEvent) -> Changes:
        casino, _, table = recorded.stream_id.partition(".")
        yield Insert(RakeBoxCount, dict(
            casino_id=casino, table=table, recorded=event.recorded, counted=event.counted,
            variance=event.variance, counted_by=list(event.counted_by),
            counted_at=recorded.recorded_at, position=recorded.position))
        yield Update(PokerTable, _table(recorded), add={
            "rake_counted": event.counted, "rake_uncounted": -event.recorded},
            set={"version": recorded.version})

    @handles
    def coup_settled(self, event: ev.ChemmyCoupSettled, recorded: RecordedEvent) -> Changes:
        casino, _, table = recorded.stream_id.partition(".")
        yield Insert(ChemmyCoup, dict(
            casino_id=casino, table=table, coup=event.coup, banker_seat=event.banker_seat,
            punter_cards=list(event.punter_cards), banker_cards=list(event.banker_cards),
            punter_option=event.punter_option or "", bank=event.bank,
            stakes=list(event.stakes), winner=event.winner, punter_total=event.punter_total,
            banker_total=event.banker_total, banker_result=event.banker_result,
            commission=event.commission, bank_after=event.bank_after,
            settled_at=recorded.recorded_at, position=recorded.position))
        yield Update(PokerTable, _table(recorded), add={
            "hands": 1, "commission": event.commission, "players_money": -event.commission},
                     set={"version": recorded.version})

    # --- tournaments -----------------------------------------------------------------------

    @handles
    def announced(self, event: ev.TournamentAnnounced, recorded: RecordedEvent) -> Changes:
        yield Insert(Tournament, dict(
            casino_id=event.casino, code=event.tournament, game=event.game,
            status="registering", buy_in=event.buy_in, entry_fee=event.entry_fee,
            rebuy=event.rebuy, rebuy_fee=event.rebuy_fee, addon=event.addon,
            addon_fee=event.addon_fee, guarantee=event.guarantee,
            payout_percents=[str(p) for p in event.payout_percents],
            late_registration_levels=event.late_registration_levels,
            level_minutes=event.level_minutes, approval_reference=event.approval_reference,
            version=recorded.version))

    @handles
    def entered(self, event: ev.TournamentEntered, recorded: RecordedEvent) -> Changes:
        casino, _, code = recorded.stream_id.partition(".")
        yield Insert(TournamentEntry, dict(casino_id=casino, tournament=code, entry=event.entry,
                                           patron=event.patron, late=event.late))
        yield Update(Tournament, _tournament(recorded), add={
            "entries": 1, "remaining": 1, "collected": event.buy_in, "fees": event.fee},
            set={"version": recorded.version})

    @handles
    def started(self, event: ev.TournamentStarted, recorded: RecordedEvent) -> Changes:
        yield Update(Tournament, _tournament(recorded), set={
            "status": "running", "started_at": recorded.recorded_at,
            "version": recorded.version})

    @handles
    def chips_bought_in_tournament(self, event: ev.TournamentChipsBought,
                                   recorded: RecordedEvent) -> Changes:
        counter = "rebuys" if event.kind == "rebuy" else "addons"
        yield Update(TournamentEntry, _entry(recorded, event.entry), add={counter: 1})
        yield Update(Tournament, _tournament(recorded), add={
            counter: 1, "collected": event.amount, "fees": event.fee},
            set={"version": recorded.version})

    @handles
    def eliminated(self, event: ev.TournamentPlayerEliminated, recorded: RecordedEvent
                   ) -> Changes:
        yield Update(TournamentEntry, _entry(recorded, event.entry), set={"place": event.place})
        yield Update(Tournament, _tournament(recorded), add={"remaining": -1},
                     set={"version": recorded.version})

    @handles
    def finished(self, event: ev.TournamentFinished, recorded: RecordedEvent) -> Changes:
        for line in event.results:
            yield Update(TournamentEntry, _entry(recorded, int(line["entry"])), set={
                "place": int(line["place"]), "prize": Decimal(line["prize"])})
        yield Update(Tournament, _tournament(recorded), add={"remaining": -1}, set={
            "status": "finished", "pool": event.pool, "overlay": event.overlay,
            "version": recorded.version})

    @handles
    def prize_paid(self, event: ev.TournamentPrizePaid, recorded: RecordedEvent) -> Changes:
        yield Update(TournamentEntry, _entry(recorded, event.entry), set={"paid": True})
        yield Update(Tournament, _tournament(recorded), add={"prizes_paid": event.amount},
                     set={"version": recorded.version})

