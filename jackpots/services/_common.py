"""What the jackpot services share: look-ups that lock, parsing, errors from the pure rules."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from casino.errors import Conflict, InvalidCommand, NotFound
from casino.money import fmt
from eventstore.commands import in_command
from eventstore.store import ConcurrencyError
from jackpots.models import JackpotPool
from jackpots.rules import RoundError

_PERCENT = re.compile(r"^[0-9]{1,3}(\.[0-9]{1,4})?$")
_HUNDRED = Decimal(100)

#: Where the regulation sets the least start value, per game.
START_ARTICLE = {
    "blackjack": "Portaria 217/2007, Anexo, Cap. III, Secção I (blackjack/21), n.º 44",
    "stud_poker": "Portaria 217/2007, Anexo, Cap. III, Secção II (póquer sem descarte), n.º 10",
}
#: Only a player with a bet in the main game may bet the jackpot.
MAIN_BET_ARTICLE = {
    "blackjack": "Portaria 217/2007, blackjack/21, n.º 45",
    "stud_poker": "Portaria 217/2007, póquer sem descarte, n.º 16",
}
#: One jackpot chip per player and coup.
ONE_CHIP_ARTICLE = {
    "blackjack": "Portaria 217/2007, blackjack/21, n.º 47",
    "stud_poker": "Portaria 217/2007, póquer sem descarte, n.os 5 and 16 (one box, one chip)",
}
START_MULTIPLE = Decimal(10000)


def concurrent(exc: ConcurrencyError) -> Conflict:
    return Conflict(
        "someone else recorded on this jackpot pool at the same time; nothing of yours was "
        "recorded: reload and try again",
        code="concurrent_change", stream=exc.stream, expected_version=exc.expected,
        actual_version=exc.actual,
    )


def pool_get(casino: str, pool_id: str, *, lock: bool = False) -> JackpotPool:
    query = JackpotPool.objects.filter(casino_id=casino, pool_id=pool_id)
    if lock:
        query = query.select_for_update()
    pool = query.first()
    if pool is None:
        raise NotFound("there is no jackpot pool {pool_id!r} in casino {casino!r}",
                       params={"pool_id": pool_id, "casino": casino},
                       field="pool_id", pool_id=pool_id)
    return pool


@in_command
def pool_for_update(casino: str, pool_id: str) -> JackpotPool:
    """The pool, read for a write, in a command: under the event store's append lock first
    (the command's), then its row lock.

    The lock-order trap: the pit settles a round by appending its events (which takes the store's
    append lock) and then records the coup here. Were this to lock the pool's row first and the
    append lock second, a prize being paid (pool row held, waiting for the append lock) and a
    round settling (append lock held, waiting for the pool row) would deadlock. Taking the append
    lock first gives one order everywhere; reads made after it see every committed append
    (``eventstore.store``'s module docstring), so the meter read here is current. Every
    command holds the append lock from its first round trip (``eventstore.commands``), and this
    runs only inside one (``@in_command``).
    """
    return pool_get(casino, pool_id, lock=True)


def parse_percent(value: object, *, field: str, allow_zero: bool = False) -> Decimal:
    """A percentage written as a string (or a whole number): above 0 (or 0 if allowed), at most
    100, at most four decimals. Floats are refused like amounts are."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidCommand('{field} is a percentage written as a string such as "70"',
                             params={"field": field},
                             field=field)
    text = str(value).strip()
    if not _PERCENT.match(text):
        raise InvalidCommand("{field} {text!r} is not a percentage (at most four decimals)",
                             params={"field": field, "text": text},
                             field=field)
    number = Decimal(text)
    if number > _HUNDRED or (number == 0 and not allow_zero):
        low = "0" if allow_zero else "above 0"
        raise InvalidCommand("{field} must be {low} and at most 100, not {text}",
                             params={"field": field, "low": low, "text": text}, field=field)
    return number


def parse_date(value: object, *, field: str) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise InvalidCommand("{field} is a date such as \"2024-03-01\"",
                         params={"field": field}, field=field)


def text(value: object, *, field: str, limit: int = 200, required: bool = True) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidCommand("{field} must be text", params={"field": field}, field=field)
    value = value.strip()
    if required and not value:
        raise InvalidCommand("{field} is required", params={"field": field}, field=field)
    if len(value) > limit:
        raise InvalidCommand("{field} is longer than {limit} characters",
                             params={"field": field, "limit": limit}, field=field)
    return value


def rules_error(error: RoundError, **extra: Any) -> InvalidCommand:
    """A refusal of the pure jackpot rules, in the platform's error family (code kept)."""
    if error.bet is not None:
        extra["bet"] = error.bet
    return InvalidCommand(error.template, code=error.code, params=error.params, **extra)


def check_start(game: str, bet: Decimal, start: Decimal) -> None:
    """The start value is at least 10,000 times the jackpot bet (BJ n.º 44; SP n.º 10)."""
    least = bet * START_MULTIPLE
    if start < least:
        article = START_ARTICLE[game]
        raise InvalidCommand(
            "the start value {start} is below 10,000 times the jackpot bet of {bet} "
            "(at least {least}): {article}, «O valor de arranque do jackpot será, no "
            "mínimo, de 10 mil vezes o valor da aposta no acumulado.»",
            params={"start": fmt(start), "bet": fmt(bet), "least": fmt(least), "article": article},
            code="start_below_minimum", field="start", article=article, minimum=fmt(least),
        )
