"""Events of the poker room (``docs/poker-room.md``; ``docs/events.md`` § Poker room).

Streams: ``poker_table/<casino>.<table>`` (a cash table of hold'em, omaha or póquer sintético,
or a chemin de fer table: its opening, seats, buy-ins, hands or coups, rake box counts) and
``tournament/<casino>.<tournament>`` (its structure, entries, eliminations, results, prizes).
Amounts are ``Decimal`` (decimal strings), seats whole numbers; a player is a seat and, where
known, a patron reference: never a name. Per-seat amounts travel as ``{"seat": "3", "amount":
"12.50"}`` lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from eventstore.events import Event

# --- cash tables and chemin de fer -------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PokerTableOpened(Event):
    """A table of the poker room opens with its approved parameters (PR-1, PR-2, CF-6): the
    game, the seats, the buy-in limits, the house's charge (``rake`` or ``time_charge``; chemin
    de fer: ``commission``) and its figures, and the approval reference they were approved by."""

    event_type = "PokerTableOpened"
    schema_version = 1

    casino: str
    table: str
    game: str
    seats: int
    min_buy_in: Decimal
    max_buy_in: Decimal
    charge: str
    rake_percent: Decimal
    rake_cap: Decimal
    minimum_pot: Decimal
    no_flop_no_drop: bool
    time_rate: Decimal
    period_minutes: int
    commission_percent: Decimal
    approval_reference: str


@dataclass(frozen=True, kw_only=True)
class PokerPlayerSeated(Event):
    """A player takes a seat (``patron``: the compliance reference, or "" when not identified)."""

    event_type = "PokerPlayerSeated"
    schema_version = 1

    table: str
    seat: int
    patron: str


@dataclass(frozen=True, kw_only=True)
class PokerWaitlistJoined(Event):
    """A player waits for a seat at the table: a ticket number and, if identified, a patron
    reference (never a name)."""

    event_type = "PokerWaitlistJoined"
    schema_version = 1

    table: str
    ticket: int
    patron: str


@dataclass(frozen=True, kw_only=True)
class PokerWaitlistLeft(Event):
    """A ticket leaves the waiting list: ``seated`` when it took a seat, else gone."""

    event_type = "PokerWaitlistLeft"
    schema_version = 1

    table: str
    ticket: int
    seated: bool


@dataclass(frozen=True, kw_only=True)
class PokerPlayerLeft(Event):
    """A player leaves the seat, cashing out ``cashed_out`` of the players' money at the table."""

    event_type = "PokerPlayerLeft"
    schema_version = 1

    table: str
    seat: int
    cashed_out: Decimal


@dataclass(frozen=True, kw_only=True)
class PokerChipsBought(Event):
    """A buy-in (or a top-up) at the table or at the cage: the player's money, never the house's."""

    event_type = "PokerChipsBought"
    schema_version = 1

    table: str
    seat: int
    amount: Decimal
    top_up: bool
    where: str  # "table" or "cage"


@dataclass(frozen=True, kw_only=True)
class PokerHandRecorded(Event):
    """A hand as the dealer's terminal (or a batch) records it: each seat's chips in, each
    winner's share, the pot and the rake (PR-1), checked to add up before it is recorded."""

    event_type = "PokerHandRecorded"
    schema_version = 1

    table: str
    hand: int
    contributions: tuple[dict[str, str], ...]
    awards: tuple[dict[str, str], ...]
    pot: Decimal
    rake: Decimal
    flop_dealt: bool
    source: str  # "terminal" or "batch"


@dataclass(frozen=True, kw_only=True)
class PokerTimeCharged(Event):
    """A charge per time of play collected from a seat (PR-2)."""

    event_type = "PokerTimeCharged"
    schema_version = 1

    table: str
    seat: int
    minutes: int
    amount: Decimal


@dataclass(frozen=True, kw_only=True)
class RakeBoxCounted(Event):
    """The rake box dropped and counted by two counters against the rake recorded since the
    last count: ``variance`` = counted − recorded."""

    event_type = "RakeBoxCounted"
    schema_version = 1

    table: str
    recorded: Decimal
    counted: Decimal
    variance: Decimal
    counted_by: tuple[str, str]


@dataclass(frozen=True, kw_only=True)
class ChemmyCoupSettled(Event):
    """A coup of chemin de fer settled from its cards (CF-1..CF-6): the banker's seat, the
    cards, the option at five, the stakes against the bank and the result, with the house's
    commission on the banker's winnings."""

    event_type = "ChemmyCoupSettled"
    schema_version = 1

    table: str
    coup: int
    banker_seat: int
    punter_cards: tuple[str, ...]
    banker_cards: tuple[str, ...]
    punter_option: str | None
    bank: Decimal
    stakes: tuple[dict[str, str], ...]
    punter_total: int
    banker_total: int
    winner: str
    banker_result: Decimal
    commission: Decimal
    bank_after: Decimal


# --- tournaments -------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TournamentAnnounced(Event):
    """A tournament's structure (Portaria 401/2015; PR-3, PR-4): the price of an entry, a re-buy
    and an add-on, each split into what goes to the prize pool and the house's fee; the
    guaranteed pool; the payout table (percentages by place); the approval reference."""

    event_type = "TournamentAnnounced"
    schema_version = 1

    casino: str
    tournament: str
    game: str
    buy_in: Decimal
    entry_fee: Decimal
    rebuy: Decimal
    rebuy_fee: Decimal
    addon: Decimal
    addon_fee: Decimal
    guarantee: Decimal
    payout_percents: tuple[Decimal, ...]
    late_registration_levels: int
    level_minutes: int
    approval_reference: str


@dataclass(frozen=True, kw_only=True)
class TournamentEntered(Event):
    """A registration (``late``: after the start, within the late registration levels)."""

    event_type = "TournamentEntered"
    schema_version = 1

    tournament: str
    entry: int
    patron: str
    late: bool
    buy_in: Decimal
    fee: Decimal


@dataclass(frozen=True, kw_only=True)
class TournamentStarted(Event):
    event_type = "TournamentStarted"
    schema_version = 1

    tournament: str


@dataclass(frozen=True, kw_only=True)
class TournamentChipsBought(Event):
    """A re-buy or an add-on of an entry still in: its price to the pool, its fee to the house."""

    event_type = "TournamentChipsBought"
    schema_version = 1

    tournament: str
    entry: int
    kind: str  # "rebuy" or "addon"
    amount: Decimal
    fee: Decimal


@dataclass(frozen=True, kw_only=True)
class TournamentPlayerEliminated(Event):
    """An entry is out, finishing in ``place`` (the number of entries still in, itself included)."""

    event_type = "TournamentPlayerEliminated"
    schema_version = 1

    tournament: str
    entry: int
    place: int


@dataclass(frozen=True, kw_only=True)
class TournamentFinished(Event):
    """The last entry standing wins; the pool (PR-3) and the prizes by place (PR-4) are fixed:
    ``results`` as ``{"place", "entry", "prize"}`` lines. ``overlay``: what the house adds to
    reach the guarantee (an expense)."""

    event_type = "TournamentFinished"
    schema_version = 1

    tournament: str
    collected: Decimal
    pool: Decimal
    overlay: Decimal
    fees: Decimal
    results: tuple[dict[str, str], ...]


@dataclass(frozen=True, kw_only=True)
class TournamentPrizePaid(Event):
    """A prize paid at the cage against the results: the pool's liability settled."""

    event_type = "TournamentPrizePaid"
    schema_version = 1

    tournament: str
    entry: int
    place: int
    amount: Decimal
    patron: str
