"""The rules engine: settle one round of any game of Portaria 217/2007 (and Macau football poker).

Pure: no Django, no clock, no randomness, no I/O. The same round always settles the same way
(``docs/settlement.md``).

Public entry points:

- :func:`settle` — result dict, or ``{"error": {...}}`` for an invalid round (never raises
  :class:`RoundError`).
- :func:`settle_or_raise` — the same, raising :class:`RoundError`.
- :func:`check_bet` — placement-time validation of one bet, before any outcome exists.

Check order (``docs/settlement.md`` § "Which error, and when", applied to every game):
1 ``malformed`` frame, 2 ``unknown_game``, 3 options, 4 outcome, 5 per bet in order (duplicate id,
amount, the game's own bet check), 6 the game's settlement (outcome-dependent and all-bets checks).
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from typing import Any

from games.engine import (
    baccarat,
    banca_francesa,
    blackjack,
    craps,
    cussec,
    football_poker,
    roulette,
    stud_poker,
)
from games.engine.errors import RoundError, invalid_bet, malformed, show, unknown_game
from games.engine.frame import check_bet_frame, check_round
from games.engine.money import MONEY_CONTEXT, parse_amount
from games.engine.registry import GAMES, Game

__all__ = ["GAMES", "RoundError", "check_bet", "settle", "settle_or_raise"]

# Imported for their registration in GAMES.
_ENGINE_MODULES = (roulette, banca_francesa, craps, cussec, blackjack, stud_poker, baccarat,
                   football_poker)


def _game(code: str) -> Game:
    game = GAMES.get(code)
    if game is None:
        raise unknown_game("no game {code}", params={"code": show(code)})
    return game


def settle_or_raise(round: dict[str, Any]) -> dict[str, Any]:
    """Settle one round; raise :class:`RoundError` if it is invalid (rejected whole)."""
    code, options, outcome, bets = check_round(round)
    game = _game(code)
    with localcontext(MONEY_CONTEXT):
        options = game.check_options(options)
        outcome = game.check_outcome(options, outcome)
        seen: set[str] = set()
        add = seen.add
        per_bet = getattr(game, "settle_bet", None)
        if per_bet is not None:
            results: list[dict[str, Any]] = []
            append = results.append
            for bet in bets:
                bet_id = bet["id"]
                if bet_id in seen:
                    raise invalid_bet("bet id {bet_id} is used twice in the round", bet_id,
                                                                                           params={"bet_id": show(bet_id)})
                add(bet_id)
                append(per_bet(options, outcome, bet, parse_amount(bet["amount"], bet_id)))
            return {"game": code, "outcome": outcome, "bets": results}
        stakes: list[Decimal] = []
        check = game.check_bet
        for bet in bets:
            bet_id = bet["id"]
            if bet_id in seen:
                raise invalid_bet("bet id {bet_id} is used twice in the round", bet_id,
                                                                                       params={"bet_id": show(bet_id)})
            add(bet_id)
            stakes.append(parse_amount(bet["amount"], bet_id))
            check(options, bet)
        return {
            "game": code,
            "outcome": outcome,
            "bets": game.settle_bets(options, outcome, bets, stakes),
        }


def settle(round: dict[str, Any]) -> dict[str, Any]:
    """Settle one round: the result, or ``{"error": {"code", "message", ["bet"]}}``."""
    try:
        return settle_or_raise(round)
    except RoundError as error:
        return error.as_dict()


def check_bet(game: str, options: dict[str, Any], bet: dict[str, Any]) -> dict[str, Any]:
    """Placement-time check of ONE bet (no outcome yet), in the contract's order.

    ``malformed`` bet frame (not an object; ``id``/``type``/``amount`` not strings; ``options`` not
    an object), ``unknown_game``, the game's options, the amount, the game's bet check.
    Returns the table's checked options with defaults filled in (what ``settle`` will use);
    raises :class:`RoundError`. Checks that need the outcome or the other bets (a craps come
    bet's point, a blackjack seat that was not dealt) happen only at settlement.
    """
    if not isinstance(game, str):
        raise malformed("game is not a string")
    if not isinstance(options, dict):
        raise malformed("options is not an object")
    check_bet_frame(bet)
    table = _game(game)
    with localcontext(MONEY_CONTEXT):
        checked = table.check_options(options)
        parse_amount(bet["amount"], bet["id"])
        table.check_bet(checked, bet)
    return checked
