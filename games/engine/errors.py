"""Error codes of the settlement contract (``docs/settlement.md`` § Errors).

An invalid round is rejected whole: the engine raises :class:`RoundError` and the public
``settle()`` turns it into ``{"error": {"code", "message", ["bet"]}}``.
"""

from __future__ import annotations

from decimal import Decimal

UNKNOWN_GAME = "unknown_game"
INVALID_OPTION = "invalid_option"
INVALID_OUTCOME = "invalid_outcome"
INVALID_BET = "invalid_bet"
MALFORMED = "malformed"

CODES = frozenset({UNKNOWN_GAME, INVALID_OPTION, INVALID_OUTCOME, INVALID_BET, MALFORMED})


class RoundError(Exception):
    """A round (or one bet of it) the engine refuses to settle.

    ``code`` is what a caller acts on, ``message`` is for a pit boss, ``bet`` names the bet at
    fault where one bet is.
    """

    code: str
    message: str
    bet: str | None

    def __init__(self, code: str, message: str, bet: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.bet = bet

    def as_dict(self) -> dict[str, object]:
        error: dict[str, object] = {"code": self.code, "message": self.message}
        if self.bet is not None:
            error["bet"] = self.bet
        return {"error": error}

    def __repr__(self) -> str:
        return f"RoundError({self.code!r}, {self.message!r}, bet={self.bet!r})"


def invalid_option(message: str) -> RoundError:
    return RoundError(INVALID_OPTION, message)


def invalid_outcome(message: str) -> RoundError:
    return RoundError(INVALID_OUTCOME, message)


def invalid_bet(message: str, bet: str | None = None) -> RoundError:
    return RoundError(INVALID_BET, message, bet)


def malformed(message: str) -> RoundError:
    return RoundError(MALFORMED, message)


def unknown_game(message: str) -> RoundError:
    return RoundError(UNKNOWN_GAME, message)


def show(value: object, limit: int = 60) -> str:
    """A value as a message shows it: short, and a Decimal read from JSON as its number."""
    text = str(value) if isinstance(value, Decimal) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
