"""What the pit answers: its commands' answers, one frozen dataclass each (shared where the
answer is really the same).

An answer is JSON-native, as an event's data is (``cage.answers``): amounts as decimal strings
(``"125.00"``), ids as strings, chips by denomination as ``{"25.00": 4}``. A command's answer
is kept as JSON by the idempotency record and rebuilt from it on a retry
(``eventstore.answers``); the API publishes each one's schema under its name
(``edge.api.schema.answer_serializer``). A field whose default is None is an optional part, left
out of the JSON when the answer does not have it (``jackpot``: only a round with jackpot chips).
"""

from __future__ import annotations

from dataclasses import dataclass

Counts = dict[str, int]  # chips by denomination: {"25.00": 4}


# --- tables and the drop definition ------------------------------------------------------------


@dataclass(frozen=True)
class TableAnswer:
    """A table configured, or its limits or options changed."""

    casino: str
    table: str
    version: int


@dataclass(frozen=True)
class TableTaxClassAnswer:
    casino: str
    table: str
    bank: str
    vip: bool
    version: int


@dataclass(frozen=True)
class TableCurrencyAnswer:
    casino: str
    table: str
    currency: str
    chip_set: str
    version: int


@dataclass(frozen=True)
class DropDefinitionAnswer:
    casino: str
    basis: str
    version: int


# --- sessions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionOpenAnswer:
    """``roll_difference``: chips by denomination against the previous closing count."""

    session_id: str
    table: str
    opening_amount: str
    roll_difference: Counts


@dataclass(frozen=True)
class SlipRequestAnswer:
    """A fill or credit slip recorded (``kind``: fill or credit)."""

    session_id: str
    kind: str
    slip: str
    amount: str


@dataclass(frozen=True)
class SlipVoidAnswer:
    kind: str
    slip: str
    status: str


@dataclass(frozen=True)
class DropRecordAnswer:
    session_id: str
    amount: str
    patron_id: str | None


@dataclass(frozen=True)
class ColourChipsIssueAnswer:
    colour: str
    player: str
    chips: int
    amount: str


@dataclass(frozen=True)
class ColourChipsExchangeAnswer:
    colour: str
    chips: int
    amount: str
    late: bool


@dataclass(frozen=True)
class SessionCloseAnswer:
    """``variance_state``: none or awaiting_approval."""

    session_id: str
    closing_amount: str
    drop: str | None
    table_win: str | None
    round_result: str
    drop_box: str
    variance: str | None
    variance_state: str


@dataclass(frozen=True)
class TableVarianceApproveAnswer:
    """A session's variance approved (four eyes)."""

    session_id: str
    variance: str
    status: str


# --- the count room ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DropBoxCountAnswer:
    count_id: str
    session_id: str
    table: str
    count_number: int
    amount: str
    status: str


@dataclass(frozen=True)
class DropBoxConfirmAnswer:
    """``variance_state``: none or awaiting_approval."""

    count_id: str
    session_id: str
    table: str
    amount: str
    status: str
    counted_by: list[str]
    drop: str | None
    table_win: str | None
    hold_percent: str | None
    variance: str | None
    variance_state: str


@dataclass(frozen=True)
class DropVarianceApproveAnswer:
    """A drop box's variance approved (four eyes)."""

    session_id: str
    table: str
    variance_value: str


# --- rounds ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundJackpotPrize:
    """A prize the pool's coup awarded (the cage pays it by its ``prize_id``)."""

    prize_id: str
    seat: int
    player: str
    combination: str
    amount: str


@dataclass(frozen=True)
class RoundJackpot:
    """The pool's coup, recorded with the round when it had jackpot chips."""

    pool_id: str
    contributions: str
    paid: str
    pool_after: str
    void: bool
    prizes: list[RoundJackpotPrize]


@dataclass(frozen=True)
class RoundOpenAnswer:
    """``bets``: the bets' ids."""

    round_id: str
    number: int
    version: int
    bets: list[str]


@dataclass(frozen=True)
class BetPlaceAnswer:
    """``bets``: the bets' ids."""

    round_id: str
    bets: list[str]
    version: int


@dataclass(frozen=True)
class JackpotBetPlaceAnswer:
    """``jackpot_bets``: the jackpot bets' ids."""

    round_id: str
    pool_id: str
    jackpot_bets: list[str]
    version: int


@dataclass(frozen=True)
class BetWithdrawAnswer:
    round_id: str
    bet_id: str
    withdrawn: bool


@dataclass(frozen=True)
class RoundStatusAnswer:
    """Betting closed, or the outcome recorded: the round's new status."""

    round_id: str
    status: str
    version: int


@dataclass(frozen=True)
class DealRecordAnswer:
    round_id: str
    version: int


@dataclass(frozen=True)
class DecisionRecordAnswer:
    """``bets``: the ids of the bets it placed (a double, a split)."""

    round_id: str
    decision: str
    bets: list[str]
    version: int


@dataclass(frozen=True)
class RoundSettleAnswer:
    round_id: str
    result: str
    prizes: str
    handle: str
    version: int
    jackpot: RoundJackpot | None = None


@dataclass(frozen=True)
class RoundVoidAnswer:
    round_id: str
    status: str
    jackpot: RoundJackpot | None = None


@dataclass(frozen=True)
class RoundCorrectAnswer:
    round_id: str
    result: str
    previous_result: str
    version: int


@dataclass(frozen=True)
class RoundRecordAnswer:
    """A whole round in one command (an electronic table)."""

    round_id: str
    number: int
    result: str
    prizes: str
    handle: str
    jackpot: RoundJackpot | None = None
