"""Events of progressive jackpots (prémio acumulado). One stream per pool:
``jackpot/<casino>.<pool_id>``.

Money is ``Decimal`` (stored as a string with two decimals); percentages are decimal strings
("70", "2.5"); dates are ISO dates. Every field, and what the ledger posts for each type, is in
``docs/events.md`` § Jackpots and ``docs/jackpots.md``.

The meter (the pool) moves only by these events: up by ``JackpotSeeded``, ``JackpotContributed``
(``to_pool``) and ``JackpotReset`` (``start``), down by ``JackpotHit`` (a prize awarded), either
way by ``JackpotMeterCorrected`` (an approved correction). The reserve moves up by
``JackpotContributed`` (``to_reserve``), down by ``JackpotSeeded`` / ``JackpotReset``
(``from_reserve``), either way by ``JackpotMeterCorrected``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from casino.players import pseudonymised
from eventstore.events import Event, upcaster

# --- configuration (each parameter change is an event) ------------------------------------------


@dataclass(frozen=True, kw_only=True)
class JackpotPoolCreated(Event):
    """A pool is set up with the tables that feed it and its approved parameters (BJ n.os 38-44,
    SP n.os 3, 8-10). Configuration version 1. ``paytable`` as ``options.jackpot`` writes it
    (``[{combination, pays}]``); ``reserve_percent`` 0 means no hidden reserve; ``cap`` None
    means no cap. ``approved_on`` / ``approval_reference``: the Inspecção-Geral de Jogos'
    approval of the parameters and paytable (BJ n.os 40, 43; SP n.os 8, 9)."""

    event_type = "JackpotPoolCreated"
    schema_version = 1

    pool_id: str
    casino: str
    name: str
    game: str
    tables: tuple[str, ...]
    bet: Decimal
    increment_percent: Decimal
    start: Decimal
    paytable: tuple[dict[str, str], ...]
    reserve_percent: Decimal
    cap: Decimal | None
    approved_on: dt.date
    approval_reference: str


@dataclass(frozen=True, kw_only=True)
class JackpotParametersChanged(Event):
    """New parameters, in force for the rounds opened after this event (never a round already
    open). All parameters are given (the new whole set); ``changed`` names those that differ."""

    event_type = "JackpotParametersChanged"
    schema_version = 1

    pool_id: str
    config_version: int
    changed: tuple[str, ...]
    bet: Decimal
    increment_percent: Decimal
    start: Decimal
    paytable: tuple[dict[str, str], ...]
    reserve_percent: Decimal
    cap: Decimal | None
    approved_on: dt.date
    approval_reference: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class JackpotTablesChanged(Event):
    """The tables that feed the pool (the whole new list), for rounds opened from now on."""

    event_type = "JackpotTablesChanged"
    schema_version = 1

    pool_id: str
    config_version: int
    tables: tuple[str, ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]
    reason: str


# --- the meter ----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class JackpotSeeded(Event):
    """The start value (valor de arranque) put into a new pool: ``amount`` = ``from_casino`` +
    ``from_reserve``. Ledger: debit seed expense (``from_casino``) and reserve liability
    (``from_reserve``), credit pool liability (``amount``)."""

    event_type = "JackpotSeeded"
    schema_version = 1

    pool_id: str
    amount: Decimal
    from_casino: Decimal
    from_reserve: Decimal
    pool_after: Decimal
    reserve_after: Decimal


@dataclass(frozen=True, kw_only=True)
class JackpotContributed(Event):
    """The jackpot chips of one coup (BJ n.os 41, 47, 48; SP n.os 4, 16): ``amount`` staked in all,
    ``to_pool`` added to the meter, ``to_reserve`` set aside in the hidden reserve (its share of
    the bets plus anything a cap ``diverted`` from the pool), ``retained`` the casino's share
    (``amount`` - ``to_pool`` - ``to_reserve``). ``bets``: per chip ``{bet_id, seat, player,
    amount, to_pool, to_reserve, diverted}``."""

    event_type = "JackpotContributed"
    schema_version = 2  # v2: player is a label (casino.players)

    pool_id: str
    round_id: str
    table: str
    config_version: int
    bets: tuple[dict[str, Any], ...]
    amount: Decimal
    to_pool: Decimal
    to_reserve: Decimal
    diverted: Decimal
    retained: Decimal
    pool_after: Decimal
    reserve_after: Decimal


@dataclass(frozen=True, kw_only=True)
class JackpotHit(Event):
    """A prize awarded to one jackpot bet of a coup, out of the pool (JP-4): the meter goes down by
    ``amount``, now owed to the winner until the cage pays it (``JackpotPrizePaid`` here, the
    cage's ``JackpotPaid`` on the shift). ``pool_before`` / ``pool_after``: the meter around this
    prize; ``winners``: how many bets won this combination in the coup; ``nominal``: the
    combination's prize before it was shared or limited to the pool."""

    event_type = "JackpotHit"
    schema_version = 2  # v2: player is a label (casino.players)

    pool_id: str
    prize_id: str
    round_id: str
    table: str
    bet_id: str
    seat: int
    player: str
    combination: str
    top: bool
    amount: Decimal
    nominal: Decimal
    winners: int
    pool_before: Decimal
    pool_after: Decimal


@dataclass(frozen=True, kw_only=True)
class JackpotReset(Event):
    """After a top prize the pool restarts at ``start`` plus the ``leftover`` rounding cents
    (``docs/jackpots.md`` § Paying a coup, rule 5; JP-7); the start is funded from the reserve where
    there is one (``from_reserve``), the rest by the casino (``from_casino``)."""

    event_type = "JackpotReset"
    schema_version = 1

    pool_id: str
    round_id: str
    table: str
    start: Decimal
    leftover: Decimal
    from_reserve: Decimal
    from_casino: Decimal
    pool_after: Decimal
    reserve_after: Decimal


@dataclass(frozen=True, kw_only=True)
class JackpotCoupSettled(Event):
    """The coup's payment as data: ``request`` is exactly what ``jackpots.rules.pay_coup`` was
    given, ``result`` what it answered, so anyone can recompute it (``manage.py settle_jackpot``).
    ``seats``: bet id -> ``{seat, player}``. Moves no money (the events before it do)."""

    event_type = "JackpotCoupSettled"
    schema_version = 2  # v2: player is a label (casino.players)

    pool_id: str
    round_id: str
    table: str
    config_version: int
    request: dict[str, Any]
    result: dict[str, Any]
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class JackpotPrizePaid(Event):
    """A payment of a prize (a hit) by the cage: ``payout_id`` is the cage's ``JackpotPaid`` on
    shift ``shift_id``; ``amount`` is this payment (the whole prize, or a part of it when the cage
    pays in instalments) and ``owed_after`` what the hit still owes after it (0: paid in full;
    payments recorded before instalments were allowed paid the whole prize, hence the default).
    Moves no pool money (the ``JackpotHit`` did); the ledger posts the cash from the cage's
    event."""

    event_type = "JackpotPrizePaid"
    schema_version = 2  # v2: player is a label (casino.players)

    pool_id: str
    prize_id: str
    round_id: str
    seat: int
    player: str
    amount: Decimal
    payout_id: str
    shift_id: str
    owed_after: Decimal = Decimal("0.00")


@dataclass(frozen=True, kw_only=True)
class JackpotMeterCorrected(Event):
    """An approved correction of the pool or the reserve (``meter``), asked by ``requested_by``
    and approved by another person (the event's actor, ``approved_by``). ``direction`` ``up`` or
    ``down``. Recorded when the four-eyes approval ``approval_id`` (kind
    ``jackpot_meter_correction``, ``docs/approvals.md``) is granted: ``reason`` is then the
    reason's code from the kind's list and ``explanation`` the asker's words. Corrections
    recorded before approvals existed have ``approval_id`` "" and a free-text ``reason``."""

    event_type = "JackpotMeterCorrected"
    schema_version = 1

    pool_id: str
    meter: str
    direction: str
    amount: Decimal
    before: Decimal
    after: Decimal
    reason: str
    requested_by: str
    approved_by: str
    approval_id: str = ""
    explanation: str = ""


# Issue 35: a player is a label, never a name (casino.players); the events recorded before named
# players in free text and cannot be rewritten: read, each name becomes its seat's label.
for _named in (JackpotContributed, JackpotHit, JackpotCoupSettled, JackpotPrizePaid):
    upcaster(_named.event_type, _named.schema_version - 1)(pseudonymised)
