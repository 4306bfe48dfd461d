"""The round's envelope: checks that come before any game looks at it.

``docs/settlement.md`` § Errors (``malformed``) and § "Which error, and when", step 1: the round is
not an object; ``game`` missing or not a string; ``options`` present and not an object (``null``
included); ``outcome`` missing or not an object; ``bets`` missing or not a list; a bet that is not
an object; a bet whose ``id``, ``type`` or ``amount`` is missing or not a string. Unknown top-level
keys are ignored.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from games.engine.errors import RoundError, invalid_bet, invalid_outcome, malformed, show

_BET_KEYS = ("id", "type", "amount")


def check_round(round_: object) -> tuple[str, dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """Return ``(game, options, outcome, bets)`` or raise ``malformed``.

    ``options`` is ``{}`` when absent. The bets are checked with :func:`check_bet_frame`.
    """
    if not isinstance(round_, dict):
        raise malformed("the round is not an object")
    game = round_.get("game")
    if not isinstance(game, str):
        raise malformed("the round has no game code" if game is None else "game is not a string")
    if "options" in round_:
        options = round_["options"]
        if not isinstance(options, dict):
            raise malformed("options is not an object")
    else:
        options = {}
    outcome = round_.get("outcome")
    if not isinstance(outcome, dict):
        raise malformed(
            "the round has no outcome" if outcome is None else "outcome is not an object"
        )
    bets = round_.get("bets")
    if not isinstance(bets, list):
        raise malformed("the round has no bets list" if bets is None else "bets is not a list")
    for index, bet in enumerate(bets):
        # Inlined for speed; same rule as check_bet_frame.
        if (
            type(bet) is not dict
            or type(bet.get("id")) is not str
            or type(bet.get("type")) is not str
            or type(bet.get("amount")) is not str
        ):
            check_bet_frame(bet, index)
    return game, options, outcome, bets


def check_bet_frame(bet: object, index: int | None = None) -> dict[str, Any]:
    """A bet must be an object whose ``id``, ``type`` and ``amount`` are strings; else ``malformed``."""
    where = "a bet" if index is None else f"bet #{index + 1}"
    if not isinstance(bet, dict):
        raise malformed("{where} is not an object", params={"where": where})
    for key in _BET_KEYS:
        value = bet.get(key)
        if not isinstance(value, str):
            if value is None and key not in bet:
                raise malformed("{where} has no {key}", params={"where": where, "key": key})
            raise malformed("{where}: {key} must be a string", params={"where": where, "key": key})
    return bet


# --- Shared helpers for what lies inside the frame (a game's own fields) --------------------------

_FRAME_KEYS = frozenset(_BET_KEYS)


def is_int(value: object) -> TypeGuard[int]:
    """A JSON integer: not a bool (``true``), not a float (``17.0``), not a string (``"17"``)."""
    return type(value) is int


def bet_fields_fault(
    bet: dict[str, Any], required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> RoundError:
    """The ``invalid_bet`` for a bet whose own fields are not ``required`` (+ ``optional``)."""
    extra = sorted(
        str(k) for k in bet if k not in _FRAME_KEYS and k not in required and k not in optional
    )
    missing = [f for f in required if f not in bet]
    what = []
    if missing:
        what.append("missing " + ", ".join(missing))
    if extra:
        what.append("unknown field " + ", ".join(extra))
    return invalid_bet("{type} bet: {value}", bet["id"],
                                                                                  params={"type": bet['type'], "value": '; '.join(what) or 'wrong fields'})


def check_dice(outcome: dict[str, Any], count: int) -> list[int]:
    """``outcome["dice"]``: a list of ``count`` JSON integers 1-6, or ``invalid_outcome``.

    A die is an integer 1 to 6 (``docs/settlement.md`` § Cards and dice).
    """
    if "dice" not in outcome:
        raise invalid_outcome("the outcome has no dice")
    dice = outcome["dice"]
    if type(dice) is not list:
        raise invalid_outcome("dice must be a list of {count} numbers, not {dice}",
                              params={"count": count, "dice": show(dice)})
    for die in dice:
        if type(die) is not int:
            raise invalid_outcome("a die is a whole number 1 to 6, not {die}",
                                  params={"die": show(die)})
    if len(dice) != count:
        raise invalid_outcome("{count} dice are thrown, not {n_dice}",
                              params={"count": count, "n_dice": len(dice)})
    for die in dice:
        if not 1 <= die <= 6:
            raise invalid_outcome("a die shows 1 to 6, not {die}", params={"die": die})
    return list(dice)


def unknown_fields(outcome: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """``invalid_outcome`` if ``outcome`` has a field outside ``allowed``."""
    extra = sorted(str(k) for k in outcome if k not in allowed)
    if extra:
        raise invalid_outcome("the outcome has unknown field {extra}",
                              params={"extra": ', '.join(extra)})
