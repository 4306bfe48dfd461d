"""What the poker room's services share: the roles, look-ups, refusals of the pure rules."""

from __future__ import annotations

import re
from decimal import Decimal

from casino.errors import InvalidCommand, NotFound, gettext_noop
from casino.jurisdictions import jurisdiction_of
from casino.models import Casino
from compliance.thresholds import NoRule, rule_for
from eventstore import clock
from eventstore.records import Metadata
from pokerroom.models import PokerTable, Tournament
from pokerroom.roles import CAGE_ROLES, FLOOR_ROLES
from pokerroom.rules.errors import RuleError

__all__ = ["CAGE_ROLES", "FLOOR_ROLES"]

CASH_GAMES = ("holdem", "omaha", "synthetic_poker")
CHEMIN_DE_FER = "chemin_de_fer"
GAMES = (*CASH_GAMES, CHEMIN_DE_FER)
# The games by the names the screens give them (``edge.web.labels.GAMES``'s entries), for a
# refusal's words: never "holdem" or "chemin_de_fer" (issue 36)
GAME_NAMES = {"holdem": gettext_noop("Hold'em poker"), "omaha": gettext_noop("Omaha poker"),
              "synthetic_poker": gettext_noop("Synthetic poker"),
              CHEMIN_DE_FER: gettext_noop("Chemin de fer")}

_CODE = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
_PERCENT = re.compile(r"^[0-9]{1,3}(\.[0-9]{1,4})?$")


def refused(error: RuleError, **extra: object) -> InvalidCommand:
    """A pure rule's refusal in the platform's error family (its code and words kept)."""
    return InvalidCommand(error.template, code=error.code, params=error.params,
                          **error.extra, **extra)


def same_casino(metadata: Metadata, casino: str) -> None:
    if metadata.casino != casino:
        raise InvalidCommand("this belongs to casino {casino!r}, not {casino_2!r}",
                             params={"casino": casino, "casino_2": metadata.casino})
    if not Casino.objects.filter(code=casino).exists():
        raise NotFound("there is no casino {casino!r}", params={"casino": casino})


def code(value: object, *, field: str) -> str:
    if not isinstance(value, str) or not _CODE.match(value):
        raise InvalidCommand("{field} {value!r} must be lower-case letters, digits and dashes",
                             params={"field": field, "value": value}, field=field)
    return value


def percent(value: object, *, field: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidCommand('{field} is a percentage written as a string such as "5"',
                             params={"field": field}, field=field)
    text = str(value).strip()
    if not _PERCENT.match(text) or Decimal(text) > 100:
        raise InvalidCommand("{field} {text!r} is not a percentage from 0 to 100",
                             params={"field": field, "text": text}, field=field)
    return Decimal(text)


def seat_number(value: object, *, seats: int, field: str = "seat") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= seats:
        raise InvalidCommand("{field} must be a seat from 1 to {seats}, not {value!r}",
                             params={"field": field, "seats": seats, "value": value},
                             field=field)
    return value


def patron_reference(value: object) -> str:
    """A compliance patron reference, or "" (a player is a seat and a reference, never a name)."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str) or not re.match(r"^[A-Za-z0-9_-]{1,64}$", value):
        raise InvalidCommand("patron is a patron reference (letters, digits, - and _), "
                             "never a name", field="patron")
    return value


def identification_threshold(casino: str) -> tuple[Decimal, str] | None:
    """The amount at which the patron must be identified in ``casino``'s jurisdiction, and the
    rule's citation (``compliance.thresholds``: Lei n.º 83/2017 art. 76.º; DICJ 1/2016)."""
    place = Casino.objects.get(code=casino)
    jurisdiction = jurisdiction_of(casino, place.currency)
    if not jurisdiction:
        return None
    try:
        rule = rule_for(jurisdiction, place.gaming_day(clock.now()))
    except NoRule:
        return None
    return rule.identify_at, rule.citation


def table_get(casino: str, table: str, *, lock: bool = False) -> PokerTable:
    query = PokerTable.objects.filter(casino_id=casino, code=table)
    if lock:
        query = query.select_for_update()
    found = query.first()
    if found is None:
        raise NotFound("there is no poker room table {table!r} in {casino}",
                       params={"table": table, "casino": casino}, field="table")
    return found


def tournament_get(casino: str, tournament: str, *, lock: bool = False) -> Tournament:
    query = Tournament.objects.filter(casino_id=casino, code=tournament)
    if lock:
        query = query.select_for_update()
    found = query.first()
    if found is None:
        raise NotFound("there is no tournament {tournament!r} in {casino}",
                       params={"tournament": tournament, "casino": casino}, field="tournament")
    return found
