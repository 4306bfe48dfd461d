"""What the poker room's commands answer: one frozen dataclass each, JSON-native (amounts as
decimal strings)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableAnswer:
    casino: str
    table: str
    version: int


@dataclass(frozen=True)
class HandsAnswer:
    casino: str
    table: str
    hands: list[int]
    rake: str
    version: int


@dataclass(frozen=True)
class RakeCountAnswer:
    casino: str
    table: str
    recorded: str
    counted: str
    variance: str
    version: int


@dataclass(frozen=True)
class CoupAnswer:
    casino: str
    table: str
    coup: int
    winner: str
    commission: str
    bank_after: str
    version: int


@dataclass(frozen=True)
class TournamentAnswer:
    casino: str
    tournament: str
    version: int


@dataclass(frozen=True)
class EntryAnswer:
    casino: str
    tournament: str
    entry: int
    late: bool
    version: int


@dataclass(frozen=True)
class ResultsAnswer:
    casino: str
    tournament: str
    pool: str
    overlay: str
    prizes: list[dict[str, str]]
    version: int


@dataclass(frozen=True)
class PrizeAnswer:
    casino: str
    tournament: str
    entry: int
    place: int
    amount: str
    version: int


# --- reads --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PokerTableRow:
    table: str
    game: str
    seats: int
    occupied: int
    charge: str
    min_buy_in: str
    max_buy_in: str
    hands: int
    players_money: str
    rake_recorded: str
    rake_counted: str
    commission: str
    approval_reference: str


@dataclass(frozen=True)
class SeatRow:
    seat: int
    patron: str
    occupied: bool
    bought: str


@dataclass(frozen=True)
class HandRow:
    hand: int
    pot: str
    rake: str
    flop_dealt: bool
    source: str
    recorded_at: str


@dataclass(frozen=True)
class WaitRow:
    ticket: int
    patron: str
    joined_at: str


@dataclass(frozen=True)
class PokerTableDetail:
    table: PokerTableRow
    seats: list[SeatRow]
    waiting: list[WaitRow]
    hands: list[HandRow]


@dataclass(frozen=True)
class EntryRow:
    entry: int
    patron: str
    late: bool
    rebuys: int
    addons: int
    place: int | None
    prize: str
    paid: bool


@dataclass(frozen=True)
class TournamentRow:
    tournament: str
    game: str
    status: str
    buy_in: str
    entry_fee: str
    guarantee: str
    entries: int
    remaining: int
    collected: str
    fees: str
    pool: str
    overlay: str
    prizes_paid: str
    level: int
    level_ends_at: str | None
    late_registration_until: str | None


@dataclass(frozen=True)
class TournamentDetail:
    tournament: TournamentRow
    payout_percents: list[str]
    entries: list[EntryRow]
