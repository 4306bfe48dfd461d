"""The poker room's postings (``docs/poker-room.md`` § The books; ``docs/ledger.md``). Pure, as
``ledger.postings`` is: one function per event class, registered by ``@posts`` for the class of
its ``event`` parameter, imported once by ``ledger.postings``.

The players' money is never the house's: a buy-in at a poker room table is cash against the
players' money (2786), a cash-out the reverse; a tournament's buy-ins, re-buys and add-ons go to
its prize pool (2787), a liability until each prize is paid. The house's revenue is the rake and
the time charges (7215), the entry fees (7216) and the chemin de fer commission (7217), each
taken from the players' money or paid beside a buy-in; an overlay on a guaranteed pool is an
expense (7885); a rake box counted short or over is a difference (7886).

The poker room's chips are its own (bought and cashed at its tables and desk): they never pass
the cage, so the cage's chips in circulation (2781) and class 0 are untouched.
"""

from __future__ import annotations

from casino.errors import Words
from pokerroom.events import (
    ChemmyCoupSettled,
    PokerChipsBought,
    PokerHandRecorded,
    PokerPlayerLeft,
    PokerTimeCharged,
    RakeBoxCounted,
    TournamentChipsBought,
    TournamentEntered,
    TournamentFinished,
    TournamentPrizePaid,
)

from .chart import AccountRef, account
from .postings import Context, Posting, _Entry, amount, posts


def _at(key: str, scope: str) -> AccountRef:
    return account(key, scope)


@posts
def poker_chips_bought(event: PokerChipsBought, ctx: Context) -> Posting:
    e = _Entry().move(_at("poker_cash", event.table), _at("poker_players_money", event.table),
                      amount(event.amount))
    return Posting(Words("Buy-in at poker table {table}, seat {seat}", table=event.table,
                         seat=event.seat), e.lines())


@posts
def poker_player_left(event: PokerPlayerLeft, ctx: Context) -> Posting | None:
    e = _Entry().move(_at("poker_players_money", event.table), _at("poker_cash", event.table),
                      amount(event.cashed_out))
    lines = e.lines()
    return Posting(Words("Cash-out at poker table {table}, seat {seat}", table=event.table,
                         seat=event.seat), lines) if lines else None


@posts
def poker_hand_recorded(event: PokerHandRecorded, ctx: Context) -> Posting | None:
    e = _Entry().move(_at("poker_players_money", event.table), _at("poker_rake", event.table),
                      amount(event.rake))
    lines = e.lines()
    return Posting(Words("Rake of hand {hand} at poker table {table}", hand=event.hand,
                         table=event.table), lines) if lines else None


@posts
def poker_time_charged(event: PokerTimeCharged, ctx: Context) -> Posting | None:
    e = _Entry().move(_at("poker_players_money", event.table), _at("poker_rake", event.table),
                      amount(event.amount))
    lines = e.lines()
    return Posting(Words("Time charge at poker table {table}, seat {seat}", table=event.table,
                         seat=event.seat), lines) if lines else None


@posts
def rake_box_counted(event: RakeBoxCounted, ctx: Context) -> Posting | None:
    e = _Entry().move(_at("poker_cash", event.table), _at("rake_box_difference", event.table),
                      amount(event.variance))
    lines = e.lines()
    return Posting(Words("Rake box of poker table {table} counted: difference", table=event.table),
                   lines) if lines else None


@posts
def chemmy_coup_settled(event: ChemmyCoupSettled, ctx: Context) -> Posting | None:
    e = _Entry().move(_at("poker_players_money", event.table),
                      _at("chemmy_commission", event.table), amount(event.commission))
    lines = e.lines()
    return Posting(Words("Commission on coup {coup} at chemin de fer table {table}",
                         coup=event.coup, table=event.table), lines) if lines else None


@posts
def tournament_entered(event: TournamentEntered, ctx: Context) -> Posting:
    t = event.tournament
    e = _Entry()
    e.move(_at("tournament_cash", t), _at("prize_pool", t), amount(event.buy_in))
    e.move(_at("tournament_cash", t), _at("tournament_fees", t), amount(event.fee))
    return Posting(Words("Entry {entry} to tournament {tournament}", entry=event.entry,
                         tournament=t), e.lines())


@posts
def tournament_chips_bought(event: TournamentChipsBought, ctx: Context) -> Posting:
    t = event.tournament
    e = _Entry()
    e.move(_at("tournament_cash", t), _at("prize_pool", t), amount(event.amount))
    e.move(_at("tournament_cash", t), _at("tournament_fees", t), amount(event.fee))
    return Posting(Words("A {kind} of entry {entry} in tournament {tournament}",
                         kind=event.kind, entry=event.entry, tournament=t), e.lines())


@posts
def tournament_finished(event: TournamentFinished, ctx: Context) -> Posting | None:
    t = event.tournament
    e = _Entry().move(_at("tournament_overlay", t), _at("prize_pool", t), amount(event.overlay))
    lines = e.lines()
    return Posting(Words("Overlay on the guarantee of tournament {tournament}", tournament=t),
                   lines) if lines else None


@posts
def tournament_prize_paid(event: TournamentPrizePaid, ctx: Context) -> Posting:
    t = event.tournament
    e = _Entry().move(_at("prize_pool", t), _at("tournament_cash", t), amount(event.amount))
    return Posting(Words("Prize of place {place} in tournament {tournament} paid",
                         place=event.place, tournament=t), e.lines())


NOT_POSTED: dict[str, str] = {
    "PokerTableOpened": "configuration",
    "PokerPlayerSeated": "a seat taken: no money moves",
    "PokerWaitlistJoined": "a ticket of the waiting list: no money moves",
    "PokerWaitlistLeft": "a ticket of the waiting list: no money moves",
    "TournamentAnnounced": "configuration",
    "TournamentStarted": "no money moves",
    "TournamentPlayerEliminated": "no money moves (the results post any overlay)",
}
