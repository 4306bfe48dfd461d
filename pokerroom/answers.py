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
