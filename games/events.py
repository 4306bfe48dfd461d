"""Events of the pit: tables, table sessions (partidas), slips, drops and rounds (golpes).

Streams:

- ``table/<casino>.<code>``: a table's configuration (game, options, seats, limits, prize cap).
- ``drop_definition/<casino>``: the casino's versioned definition of the drop.
- ``table_session/<uuid>``: one session of one table, opening to closing, with its fills,
  credits, slips, drops and colour chips.
- ``drop_box/<session uuid>``: the drop box of one session in the count room: counted by
  denomination by two counters (``DropBoxCounted``, ``DropBoxCountConfirmed``) and, once the
  cage received it against that count, its difference approved (``DropVarianceApproved``).
- ``round/<uuid>``: one round: bets (and jackpot chips), "no more bets", the deal and the
  decisions of a card game, the outcome, one ``BetSettled`` per bet, a void or a correction.

Amounts are Decimal (stored as strings); chip counts map a denomination string ("100.00") to a
number of pieces. The fields of every type are listed in ``docs/events.md``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from casino.players import pseudonymised
from eventstore.events import JSON, Event, upcaster

Chips = dict[str, int]

# --- tables -------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TableConfigured(Event):
    """A table is put into service (banca / mesa) with its game, options, seats and limits."""

    event_type = "TableConfigured"
    schema_version = 1

    casino: str
    code: str
    name: str
    game: str
    options: dict[str, Any]
    seats: int
    chip_set: str
    limits: dict[str, dict[str, str]]  # limit group -> {"min": "5.00", "max": "150.00"}
    max_prize_per_coup: Decimal | None = None  # stud poker n.º 15


@dataclass(frozen=True, kw_only=True)
class TableLimitsChanged(Event):
    """New limits (the whole set) and, where the regulation provides one, the prize cap."""

    event_type = "TableLimitsChanged"
    schema_version = 1

    limits: dict[str, dict[str, str]]
    max_prize_per_coup: Decimal | None = None
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TableOptionsChanged(Event):
    event_type = "TableOptionsChanged"
    schema_version = 1

    options: dict[str, Any]
    seats: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TableTaxClassChanged(Event):
    """What the gaming tax needs to know of a table (``docs/gaming-tax.md``): ``bank``, banca
    ``simples`` or ``dupla`` (Decreto-Lei n.º 422/89, arts. 85.º and 87.º), and ``vip``, a VIP
    table (Macau's premium, Lei n.º 16/2001, art. 20.º). A table starts simples and not VIP."""

    event_type = "TableTaxClassChanged"
    schema_version = 1

    bank: str
    vip: bool
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TableCapitalApproved(Event):
    """The table's capital em giro inicial as the gaming inspection approved it: the bankroll
    the concessionaire puts at the table, on which the bets' maximums (Decreto-Lei n.º 422/89,
    art. 58.º, n.º 2) and the IEJ of banked games (art. 85.º, n.º 1, a); art. 87.º, n.º 1, A))
    rest. ``reference``: the inspection's approval (its act, letter or order); from this event
    on, a day's register reads it as of the day (``docs/gaming-tax.md``)."""

    event_type = "TableCapitalApproved"
    schema_version = 1

    capital: Decimal
    reference: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TableCurrencyChanged(Event):
    """The currency a table plays in from its next session on, and the chip set of that
    currency its chips come from (``docs/currencies.md``). A table without this event plays in
    the casino's book currency. The currency is the book currency or one the casino accepts."""

    event_type = "TableCurrencyChanged"
    schema_version = 1

    table: str  # the table's code (the chips in circulation follow its chip set by it)
    currency: str
    chip_set: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class DropDefinitionSet(Event):
    """What the casino counts as a table's drop from now on (a versioned setting).

    ``basis``: ``counted`` (the drop box as counted at the close) or ``recorded`` (the cash the
    pit recorded as exchanged at the table during the session).
    """

    event_type = "DropDefinitionSet"
    schema_version = 1

    casino: str
    basis: str
    reason: str


# --- table sessions -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TableSessionOpened(Event):
    """A table opens (partida) with its float counted by denomination.

    ``previous_closing`` is the last session's closing count (the float rolled over); the
    difference between the float counted now and that count is recorded in ``roll_difference``
    (pieces, by denomination, counted minus rolled).
    """

    event_type = "TableSessionOpened"
    schema_version = 1

    session_id: str
    casino: str
    table: str
    game: str
    gaming_day: dt.date
    opening: Chips
    opening_amount: Decimal
    previous_session_id: str | None = None
    previous_closing: Chips | None = None
    roll_difference: Chips = field(default_factory=dict)
    auto_roll: bool = False
    # A table playing in a currency other than the book currency (``TableCurrencyChanged``):
    # its currency, and the exchange's posted middle rate in force when the session opened
    # (book currency per unit): the ledger books every figure of the session at that rate.
    # Empty / None: the book currency (every session before issue 39's tables).
    currency: str = ""
    rate: Decimal | None = None
    # a rate beyond the band from the last posted one, approved by a second person (the
    # approval kind ``session_rate``): the approval's id; empty otherwise
    rate_approval_id: str = ""


@dataclass(frozen=True, kw_only=True)
class FillRequested(Event):
    """The pit asks the cage for chips (reforço) on a pre-numbered fill slip."""

    event_type = "FillRequested"
    schema_version = 1

    session_id: str
    table: str
    slip: str
    chips: Chips
    amount: Decimal
    chip_set: str = ""
    # A slip added to a session that had closed (a late slip) is recorded only with another
    # person's approval (``docs/approvals.md``, kind ``late_slip``): the approval, and the closed
    # session's gaming day (the day whose figures move, in the pit and in the ledger alike).
    approval_id: str | None = None
    after_close: bool = False
    gaming_day: dt.date | None = None
    # A session of a sealed day changes no more: the change is booked in the next open day
    # (``booked_day``), the sealed day's figures staying as signed (docs/ledger.md).
    booked_day: dt.date | None = None


@dataclass(frozen=True, kw_only=True)
class CreditRequested(Event):
    """Chips leave the table for the cage (crédito) on a pre-numbered credit slip."""

    event_type = "CreditRequested"
    schema_version = 1

    session_id: str
    table: str
    slip: str
    chips: Chips
    amount: Decimal
    chip_set: str = ""
    # A slip added to a session that had closed (a late slip) is recorded only with another
    # person's approval (``docs/approvals.md``, kind ``late_slip``): the approval, and the closed
    # session's gaming day (the day whose figures move, in the pit and in the ledger alike).
    approval_id: str | None = None
    after_close: bool = False
    gaming_day: dt.date | None = None
    # A session of a sealed day changes no more: the change is booked in the next open day
    # (``booked_day``), the sealed day's figures staying as signed (docs/ledger.md).
    booked_day: dt.date | None = None


@dataclass(frozen=True, kw_only=True)
class SlipVoided(Event):
    """A slip is voided; its number stays used (it is never missing, never reused)."""

    event_type = "SlipVoided"
    schema_version = 1

    session_id: str
    table: str
    kind: str  # "fill" or "credit"
    slip: str
    reason: str
    chips: Chips = field(default_factory=dict)  # the slip's chips (a voided credit stays at the table)
    amount: Decimal = Decimal("0.00")
    # A slip of a session that had closed is voided only with another person's approval
    # (``docs/approvals.md``): the approval, its reason's code, and the closed session's gaming
    # day (the day whose figures move, in the pit and in the ledger alike).
    approval_id: str | None = None
    reason_code: str = ""
    after_close: bool = False
    gaming_day: dt.date | None = None
    # A session of a sealed day changes no more: the change is booked in the next open day
    # (``booked_day``), the sealed day's figures staying as signed (docs/ledger.md).
    booked_day: dt.date | None = None


@dataclass(frozen=True, kw_only=True)
class DropRecorded(Event):
    """Cash a player exchanged for chips at the table, into the drop box (caixa de depósito).
    ``player``: how the pit names the player at the seat (free text); ``patron_id``: the
    identified patron (``compliance``), required at the threshold (v2)."""

    event_type = "DropRecorded"
    schema_version = 3  # v3: player is a label (casino.players)

    session_id: str
    table: str
    amount: Decimal
    seat: int | None = None
    player: str = ""
    patron_id: str = ""


@upcaster("DropRecorded", 1)
def _drop_recorded_v1(data: JSON) -> JSON:
    """Version 1 named no patron (a buy-in before patrons was anonymous)."""
    return {**data, "patron_id": ""}


@dataclass(frozen=True, kw_only=True)
class ColourChipsIssued(Event):
    """Roulette colour chips (fichas sem valor facial) given to a player for value chips or cash.

    The player sets the value of one chip on the marker (mostrador, n.º 9 and n.º 13).
    """

    event_type = "ColourChipsIssued"
    schema_version = 2  # v2: player is a label (casino.players)

    session_id: str
    table: str
    colour: str
    player: str
    chip_value: Decimal
    chips: int
    amount: Decimal
    paid_with: str  # "chips" or "cash"


@dataclass(frozen=True, kw_only=True)
class ColourChipsExchanged(Event):
    """Colour chips exchanged back for value chips (n.º 15); late ones at the table minimum."""

    event_type = "ColourChipsExchanged"
    schema_version = 1

    session_id: str
    table: str
    colour: str
    chips: int
    chip_value: Decimal
    amount: Decimal
    late: bool = False


@dataclass(frozen=True, kw_only=True)
class DropCounted(Event):
    """The drop box of the session, as typed by the pit boss at the close. No longer recorded:
    the box is counted in the count room (``DropBoxCounted``); kept to read the sessions closed
    before (``TableSessionClosed`` version 1)."""

    event_type = "DropCounted"
    schema_version = 1

    session_id: str
    table: str
    amount: Decimal


@dataclass(frozen=True, kw_only=True)
class TableSessionClosed(Event):
    """The table closes with its closing count by denomination.

    ``drop_definition_version`` and ``drop_basis`` say which drop definition the session's
    table win uses (``DropDefinitionSet``).
    """

    event_type = "TableSessionClosed"
    schema_version = 2

    session_id: str
    table: str
    closing: Chips
    closing_amount: Decimal
    drop_basis: str
    drop_definition_version: int
    # True: the drop box goes to the count room, where two counters count it
    # (``DropBoxCountConfirmed`` is the session's counted drop). False (version 1): the pit boss
    # typed the count at the close (``DropCounted``, in the same append).
    drop_count_room: bool = True


@upcaster("TableSessionClosed", 1)
def _closed_v1(data: JSON) -> JSON:
    """Version 1 closed with the drop count typed at the close (``DropCounted``)."""
    return {**data, "drop_count_room": False}


# --- the count room: drop_box/<session uuid> ----------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DropBoxCounted(Event):
    """A closed session's drop box (caixa de depósito) counted in the count room by denomination
    (notes and coins of the casino's currency), by its first counter (the actor): a cashier or a
    cage supervisor who did not work the table's session (``docs/tables.md`` § The count room).
    Not yet the session's drop: a second counter confirms it. ``count_number`` grows when the
    box is counted again before the confirmation."""

    event_type = "DropBoxCounted"
    schema_version = 1

    count_id: str
    session_id: str
    casino: str
    table: str
    gaming_day: dt.date
    cash: Chips  # notes and coins: denomination -> pieces
    amount: Decimal
    count_number: int = 1


@dataclass(frozen=True, kw_only=True)
class DropBoxCountConfirmed(Event):
    """A second counter (the actor, another person than ``counted_by``, neither of them the
    table's staff) counted the box and found the same: the count is the session's counted drop,
    the figure its table win, hold and tax use. ``drop_basis`` is the session's drop definition
    (``TableSessionClosed``), which says where the ledger posts counted less recorded."""

    event_type = "DropBoxCountConfirmed"
    schema_version = 1

    count_id: str
    session_id: str
    table: str
    game: str
    cash: Chips
    amount: Decimal
    counted_by: str
    drop_basis: str


@dataclass(frozen=True, kw_only=True)
class DropVarianceApproved(Event):
    """The cage received the box with a difference from its count (``DropBoxReceived``'s
    ``variance_value``, received less counted): explained and approved by a cage supervisor
    (four eyes, ``approval_id``: the approval's stream holds the reason and the words)."""

    event_type = "DropVarianceApproved"
    schema_version = 1

    session_id: str
    table: str
    receipt_id: str
    variance_value: Decimal
    approval_id: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class TableVarianceApproved(Event):
    """A closed session's table variance (table win less the rounds' result) is approved by a
    second person (``docs/approvals.md``, kind ``table_variance``). Moves nothing: the close
    posted the variance; this says somebody other than the one who asked looked at it."""

    event_type = "TableVarianceApproved"
    schema_version = 1

    session_id: str
    table: str
    variance: Decimal
    approval_id: str
    reason_code: str
    requested_by: str


# --- rounds -------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RoundOpened(Event):
    """A round (golpe) opens for bets. ``point`` is the craps table point before the roll."""

    event_type = "RoundOpened"
    schema_version = 1

    round_id: str
    session_id: str
    casino: str
    table: str
    game: str
    options: dict[str, Any]
    number: int
    point: int | None = None


@dataclass(frozen=True, kw_only=True)
class BetPlaced(Event):
    """A stake put at risk. ``bet`` is the bet as the rules engine reads it (id, type, amount and
    the type's own fields). ``stage``: ``initial`` (before "no more bets") or ``decision`` (a
    stake a card game takes later: split, double, insurance, stud poker's call). ``base``: the
    bet a craps odds bet backs."""

    event_type = "BetPlaced"
    schema_version = 2  # v2: player is a label (casino.players)

    round_id: str
    bet_id: str
    seat: int
    player: str
    bet: dict[str, Any]
    amount: Decimal
    stage: str = "initial"
    base: str | None = None
    hand_key: str | None = None  # blackjack split stakes: the hand they sit on (games.play)


@dataclass(frozen=True, kw_only=True)
class JackpotBetPlaced(Event):
    """A jackpot chip (aposta no acumulado) placed before the deal by a player who bet the main
    game on ``seat`` (BJ n.os 45, 47, 48; SP n.os 5, 16): one chip of exactly the pool's bet per
    player and coup. ``pool_id``: the pool the table fed when the round opened. Not a bet of the
    main game (no handle, no ``BetSettled``): the pool's coup decides it (``JackpotCoupSettled``).
    """

    event_type = "JackpotBetPlaced"
    schema_version = 2  # v2: player is a label (casino.players)

    round_id: str
    bet_id: str
    seat: int
    player: str
    amount: Decimal
    pool_id: str


@dataclass(frozen=True, kw_only=True)
class BetCarried(Event):
    """A bet left working by an earlier round of the session (a pending craps bet, a banca
    francesa push) carried into this round. Not staked again: it adds nothing to the handle."""

    event_type = "BetCarried"
    schema_version = 2  # v2: player is a label (casino.players)

    round_id: str
    bet_id: str
    from_round_id: str
    seat: int
    player: str
    bet: dict[str, Any]
    amount: Decimal
    base: str | None = None


@dataclass(frozen=True, kw_only=True)
class BetWithdrawn(Event):
    """A carried bet taken down by its player before "no more bets", where the rules allow."""

    event_type = "BetWithdrawn"
    schema_version = 1

    round_id: str
    bet_id: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class BettingClosed(Event):
    """«Jogo feito. Nada mais.»: no initial bet is taken after this."""

    event_type = "BettingClosed"
    schema_version = 1

    round_id: str


@dataclass(frozen=True, kw_only=True)
class CardsDealt(Event):
    """Blackjack: the initial deal, the bank's up card and two cards to each seat with a stake."""

    event_type = "CardsDealt"
    schema_version = 1

    round_id: str
    upcard: str
    seats: dict[str, list[str]]  # seat number (string) -> its two cards


@dataclass(frozen=True, kw_only=True)
class DecisionRecorded(Event):
    """A decision of the hand in play: blackjack hit, stand, double, split, surrender, insurance,
    even money; stud poker call or fold. ``cards``: the cards it drew (hit, double: one; split:
    the second card of each of the two hands). ``bet_id``: the bet a per-bet decision belongs to
    (insurance, even money, a back bettor following a double or split)."""

    event_type = "DecisionRecorded"
    schema_version = 1

    round_id: str
    seat: int
    hand: int
    decision: str
    cards: list[str] = field(default_factory=list)
    bet_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class OutcomeRecorded(Event):
    """What happened (the number, the dice, the cards), validated by the rules engine."""

    event_type = "OutcomeRecorded"
    schema_version = 1

    round_id: str
    outcome: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class BetSettled(Event):
    """One bet's settlement, exactly as the rules engine gave it (``status``, ``stake``, ``win``,
    ``returned``; ``point`` on a pending craps bet). ``corrects``: the version, in the round's
    stream, of the settlement this one replaces. ``capped_win``: the engine's win before the
    table's prize cap (stud poker n.º 15) reduced it."""

    event_type = "BetSettled"
    schema_version = 2  # v2: player is a label (casino.players)

    round_id: str
    bet_id: str
    seat: int
    player: str
    bet_type: str
    status: str
    stake: Decimal
    win: Decimal
    returned: Decimal
    carried: bool = False
    point: int | None = None
    corrects: int | None = None
    capped_win: Decimal | None = None


@dataclass(frozen=True, kw_only=True)
class RoundSettled(Event):
    """The round is settled. Figures for the session and the gaming day:

    ``handle``: new stakes first put at risk in this round; ``result``: stakes lost − prizes
    paid on the bets decided; ``pending``: the bets still working (carried to the next round);
    ``point_after``: the craps table point for the next roll. On a correction, ``result_delta``
    and ``handle_delta`` say how the corrected figures differ from the ones they replace."""

    event_type = "RoundSettled"
    schema_version = 1

    round_id: str
    session_id: str
    handle: Decimal
    result: Decimal
    prizes: Decimal
    pending: list[dict[str, Any]] = field(default_factory=list)
    point_after: int | None = None
    # hold check: edge key (games.hold.edge_key) -> [sum of new stakes, sum of their squares]
    stakes: dict[str, list[str]] = field(default_factory=dict)
    correction: bool = False
    result_delta: Decimal | None = None


@dataclass(frozen=True, kw_only=True)
class RoundVoided(Event):
    """A void round (golpe nulo): nothing is settled; bets are left as they were."""

    event_type = "RoundVoided"
    schema_version = 1

    round_id: str
    session_id: str
    reason: str
    carried_back: list[dict[str, Any]] = field(default_factory=list)
    # After the outcome was recorded a void is applied only when another person approves it
    # (``docs/approvals.md``, kind ``round_void``): the approval, who asked, the reason's code
    # (``reason`` is then the asker's words).
    approval_id: str | None = None
    requested_by: str = ""
    reason_code: str = ""


@dataclass(frozen=True, kw_only=True)
class RoundCorrected(Event):
    """After settlement, the outcome was wrong. Approved by a pit boss who did not record it;
    ``corrects`` is the version of the outcome it replaces, ``mistake_by`` who recorded it."""

    event_type = "RoundCorrected"
    schema_version = 1

    round_id: str
    outcome: dict[str, Any]
    previous_outcome: dict[str, Any]
    corrects: int
    mistake_by: str
    reason: str


# Issue 35: a player is a label, never a name (casino.players); the events recorded before named
# players in free text and cannot be rewritten: read, each name becomes its seat's label.
for _named in (DropRecorded, ColourChipsIssued, BetPlaced, JackpotBetPlaced, BetCarried,
               BetSettled):
    upcaster(_named.event_type, _named.schema_version - 1)(pseudonymised)
