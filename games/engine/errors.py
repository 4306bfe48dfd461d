"""Error codes of the settlement contract (``docs/settlement.md`` § Errors).

An invalid round is rejected whole: the engine raises :class:`RoundError` and the public
``settle()`` turns it into ``{"error": {"code", "message", ["bet"]}}``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

UNKNOWN_GAME = "unknown_game"
INVALID_OPTION = "invalid_option"
INVALID_OUTCOME = "invalid_outcome"
INVALID_BET = "invalid_bet"
MALFORMED = "malformed"

CODES = frozenset({UNKNOWN_GAME, INVALID_OPTION, INVALID_OUTCOME, INVALID_BET, MALFORMED})


class RoundError(Exception):
    """A round (or one bet of it) the engine refuses to settle.

    ``code`` is what a caller acts on, ``message`` is for a pit boss, ``bet`` names the bet at
    fault where one bet is. ``message`` is filled from ``template`` and ``params`` (``{name}``
    placeholders), as ``casino.errors.DomainError`` is, so that a screen can say it in its
    language; the contract's ``message`` stays the English text.
    """

    code: str
    message: str
    bet: str | None
    template: str
    params: dict[str, Any] | None

    def __init__(self, code: str, message: str, bet: str | None = None, *,
                 params: dict[str, Any] | None = None) -> None:
        self.template = message
        self.params = params
        self.message = message if params is None else message.format(**params)
        super().__init__(self.message)
        self.code = code
        self.bet = bet

    def as_dict(self) -> dict[str, object]:
        error: dict[str, object] = {"code": self.code, "message": self.message}
        if self.bet is not None:
            error["bet"] = self.bet
        return {"error": error}

    def __repr__(self) -> str:
        return f"RoundError({self.code!r}, {self.message!r}, bet={self.bet!r})"


def invalid_option(message: str, *, params: dict[str, Any] | None = None) -> RoundError:
    return RoundError(INVALID_OPTION, message, params=params)


def invalid_outcome(message: str, *, params: dict[str, Any] | None = None) -> RoundError:
    return RoundError(INVALID_OUTCOME, message, params=params)


def invalid_bet(message: str, bet: str | None = None, *,
                params: dict[str, Any] | None = None) -> RoundError:
    return RoundError(INVALID_BET, message, bet, params=params)


def malformed(message: str, *, params: dict[str, Any] | None = None) -> RoundError:
    return RoundError(MALFORMED, message, params=params)


def unknown_game(message: str, *, params: dict[str, Any] | None = None) -> RoundError:
    return RoundError(UNKNOWN_GAME, message, params=params)


def show(value: object, limit: int = 60) -> str:
    """A value as a message shows it: short, and a Decimal read from JSON as its number."""
    text = str(value) if isinstance(value, Decimal) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
