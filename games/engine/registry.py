"""The games the engine knows, by code (``docs/settlement.md`` § The games)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol


class Game(Protocol):
    """What every game module registers.

    ``settle()`` calls these in the contract's order: ``check_options``, ``check_outcome``, then
    per bet ``check_bet``, then ``settle_bets`` once with every bet.
    """

    code: str

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Validated options with defaults filled in; raises ``invalid_option``."""
        ...

    def check_outcome(self, options: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
        """Validated, normalised outcome with the derived fields; raises ``invalid_outcome``."""
        ...

    def check_bet(self, options: dict[str, Any], bet: dict[str, Any]) -> None:
        """Layout/type/field check of ONE bet, independent of any outcome; raises ``invalid_bet``
        naming the bet. ``options`` are the checked ones (from ``check_options``)."""
        ...

    def settle_bets(
        self,
        options: dict[str, Any],
        outcome: dict[str, Any],
        bets: list[dict[str, Any]],
        stakes: list[Decimal],
    ) -> list[dict[str, Any]]:
        """One result dict per bet, in order. Bets are frame-checked and ``check_bet``-ed, stakes
        parsed; may raise ``invalid_bet`` for checks needing the outcome or all bets together."""
        ...


class PerBetGame(Game, Protocol):
    """Optional fast path for games whose bets settle one by one (no all-bets checks).

    ``settle()`` calls ``settle_bet`` per bet, in order, instead of ``check_bet`` then
    ``settle_bets``: it must raise exactly what ``check_bet`` raises, then the bet's
    outcome-dependent ``invalid_bet`` checks, then return the bet's result. It saves validating
    every bet twice. Roulette and the dice games implement it; ``check_bet`` and ``settle_bets``
    stay the reference behaviour (tests compare the two paths).
    """

    def settle_bet(
        self, options: dict[str, Any], outcome: dict[str, Any], bet: dict[str, Any], stake: Decimal
    ) -> dict[str, Any]: ...


@dataclass
class GameFunctions:
    """A ``Game`` made of a module's four functions (the card games are written that way)."""

    code: str
    check_options: Callable[[dict[str, Any]], dict[str, Any]]
    check_outcome: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
    check_bet: Callable[[dict[str, Any], dict[str, Any]], None]
    settle_bets: Callable[
        [dict[str, Any], dict[str, Any], list[dict[str, Any]], list[Decimal]],
        list[dict[str, Any]],
    ]


GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` under its ``code``; a second game with the same code is a programming error."""
    if game.code in GAMES and GAMES[game.code] is not game:
        raise ValueError(f"game {game.code!r} registered twice")
    GAMES[game.code] = game
    return game
