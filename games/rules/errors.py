"""The refusal of a pit rule, in plain values.

A rule that refuses raises :class:`RuleError`: ``kind`` says whether the request itself is wrong
(``INVALID``) or the state of the round does not allow it now (``CONFLICT``); ``code``, ``message``
and ``extra`` are the error's body as a program, a pit boss and a screen read it; ``message`` is
filled from ``template`` and ``params`` (``{name}`` placeholders) as the platform's errors are. The services
turn it into ``casino.errors.InvalidCommand`` or ``Conflict`` with the same code, message and
extra (``games.services.rounds``), as ``engine_error`` does for the rules engine's
``RoundError``; this package knows nothing of the platform's errors.
"""

from __future__ import annotations

from typing import Any

from games.engine.errors import RoundError

INVALID = "invalid"
CONFLICT = "conflict"


class Phrase(str):
    """A value of a refusal said in words, not a code (a blackjack decision: "Even money", not
    ``even_money``): the English text, with the catalogue's ``context``, so that the services
    hand it on as ``casino.errors.Words`` and a screen says it in its language (issue 36)."""

    context: str | None

    def __new__(cls, text: str, context: str | None = None) -> Phrase:
        phrase = super().__new__(cls, text)
        phrase.context = context
        return phrase


class RuleError(Exception):
    """A pit rule's refusal. ``code`` defaults to the kind (as the platform's errors do)."""

    kind: str
    code: str
    message: str
    template: str
    params: dict[str, Any] | None
    extra: dict[str, Any]

    def __init__(self, kind: str, message: str, *, code: str | None = None,
                 params: dict[str, Any] | None = None, **extra: Any) -> None:
        self.template = message
        self.params = params
        self.message = message if params is None else message.format(**params)
        super().__init__(self.message)
        assert kind in (INVALID, CONFLICT), kind
        self.kind = kind
        self.code = code if code is not None else kind
        self.extra = extra

    def __repr__(self) -> str:
        return f"RuleError({self.kind!r}, {self.message!r}, code={self.code!r}, **{self.extra!r})"


def invalid(message: str, *, code: str | None = None, params: dict[str, Any] | None = None,
            **extra: Any) -> RuleError:
    """The request itself is wrong (a seat the table lacks, an amount over the limit...)."""
    return RuleError(INVALID, message, code=code, params=params, **extra)


def conflict(message: str, *, code: str, params: dict[str, Any] | None = None,
             **extra: Any) -> RuleError:
    """The round's state does not allow it now (a seat taken, a hand finished...)."""
    return RuleError(CONFLICT, message, code=code, params=params, **extra)


def from_engine(error: RoundError, **extra: Any) -> RuleError:
    """The rules engine's refusal, its code kept and the bet it names added to ``extra``."""
    if error.bet is not None:
        extra["bet"] = error.bet
    return invalid(error.template, code=error.code, params=error.params, **extra)
