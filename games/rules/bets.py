"""Bets as the pit takes them: the stake tables, a bet as the rules read it, and each new bet
checked in order: its shape and seat, the rules engine (``games.engine.check_bet``), then the
table's limits (``check_limits``), each refusal of a limit naming its article.

Pure: the table travels as :class:`TableRules`, the round's bets as :class:`BetView`; a refusal
is a ``RuleError`` (``games.rules.errors``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from games import engine
from games.engine.errors import RoundError
from games.engine.roulette import neighbours_of
from games.limits import group_of
from games.rules.errors import RuleError, conflict, from_engine, invalid
from games.rules.money import fmt, parse_amount

# --- the stake tables ---------------------------------------------------------------------------

# Bets the engine reads with a ``seat`` of their own.
SEATED_TYPES: dict[str, frozenset[str] | None] = {
    "blackjack": frozenset({"main", "back"}),
    "stud_poker": frozenset({"ante", "call"}),
    "football_poker": None,  # every type
}
# Stakes a card game takes only as a decision of the hand in play.
DECISION_STAKES = {"blackjack": frozenset({"split", "double", "insurance"}),
                   "stud_poker": frozenset({"call"})}
# Bets that carry from a round that leaves them undecided.
CARRY_STATUS = {"craps": "pending", "banca_francesa": "push"}
# Carried bets a player may take down before "no more bets" (craps n.º 10.9 and 11.1; banca B1).
WITHDRAWABLE = {"craps": frozenset({"odds", "place", "lay", "big_6", "big_8", "hardway"}),
                "banca_francesa": None}
# The fields of a bet's spec that are the platform's, not the engine's.
_PLATFORM_KEYS = frozenset({"seat", "player", "id", "base", "amount", "type"})
TABLE_LIMITS = "the table's limits (Portaria 217/2007; table configuration)"


@dataclass(frozen=True)
class TableRules:
    """What the rules read of a table: its code (for messages), game, seats, limits (group ->
    ``{"min", "max"}`` as strings), options (the table's own: the hold check's edge keys) and
    the prize cap of one coup."""

    code: str
    game: str
    seats: int
    limits: dict[str, dict[str, str]]
    options: dict[str, Any] = field(default_factory=dict)
    max_prize_per_coup: Decimal | None = None


@dataclass(frozen=True)
class BetView:
    """A bet as the rules reason about it (a bet of the round, or one being placed)."""

    bet_id: str
    seat: int
    player: str
    bet_type: str
    amount: Decimal
    bet: dict[str, Any]
    stage: str = "initial"
    base: str | None = None
    carried_from: str | None = None
    hand_key: str | None = None

    @classmethod
    def carried(cls, data: dict[str, Any]) -> BetView:
        """A bet left working by the session's last round (a ``RoundSettled.pending`` item)."""
        return cls(bet_id=data["bet_id"], seat=data["seat"], player=data["player"],
                   bet_type=data["bet"]["type"], amount=Decimal(data["amount"]),
                   bet=dict(data["bet"]), stage="carried", base=data.get("base"),
                   carried_from=data["from_round_id"])


def next_id(used: set[str]) -> str:
    """The first free ``b<n>``, counting on from the number of ids used."""
    n = len(used) + 1
    while f"b{n}" in used:
        n += 1
    return f"b{n}"


# --- placing bets -------------------------------------------------------------------------------

# The most bets one round takes, all seats and all stages together: far above any table's play
# (a crowded roulette round has a few hundred), far below what one request or one append can
# carry (PostgreSQL's 65,535 parameters of a statement).
MAX_BETS_PER_ROUND = 1000


def new_bets(table: TableRules, options: dict[str, Any], specs: Sequence[object],
             existing: list[BetView], *, stage: str = "initial", whole: bool = False
             ) -> list[BetView]:
    """Validate ``specs`` (seat, player, type, amount, the type's own fields) into bets.

    ``options``: the round's; ``existing``: the round's bets so far (their ids are taken, and an
    initial bet's limits are checked with them beside it); ``whole``: a whole round in one
    command (even money is then a field of the bet)."""
    if len(existing) + len(specs) > MAX_BETS_PER_ROUND:
        raise invalid("a round takes at most {max_bets_per_round:,} bets "
                      "({n_existing:,} placed, {n_specs:,} sent)",
                      params={"max_bets_per_round": MAX_BETS_PER_ROUND, "n_existing": len(existing), "n_specs": len(specs)},
                      code="too_many_bets", field="bets", limit=MAX_BETS_PER_ROUND)
    used = {b.bet_id for b in existing}
    made: list[BetView] = []
    for index, spec in enumerate(specs):
        if not isinstance(spec, dict):
            raise invalid("bet {index} is not an object",
                          params={"index": index + 1}, field="bets")
        view = new_bet(table, options, spec, used, stage, whole)
        used.add(view.bet_id)
        if stage == "initial":
            check_limits(table, options, view, existing + made)
        made.append(view)
    return made


def new_bet(table: TableRules, options: dict[str, Any], spec: dict[str, Any], used: set[str],
            stage: str, whole: bool = False) -> BetView:
    """One bet's shape, seat and id, and the rules engine's check (not the table's limits)."""
    kind = spec.get("type")
    if not isinstance(kind, str):
        raise invalid("each bet needs its type", field="type")
    seat = spec.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise invalid("each bet names the seat it is on (a number)", field="seat")
    if not 1 <= seat <= table.seats:
        raise invalid("table {code} has no seat {seat} (seats 1 to {seats})",
                      params={"code": table.code, "seat": seat, "seats": table.seats},
                      code="no_such_seat", field="seat", seat=seat)
    bet_id = spec.get("id") or next_id(used)
    if not isinstance(bet_id, str) or len(bet_id) > 64:
        raise invalid("a bet id is a string of at most 64 characters", field="id")
    if bet_id in used:
        raise invalid("bet id {bet_id!r} is already used in this round",
                      params={"bet_id": bet_id}, field="id")
    amount = parse_amount(spec.get("amount"), field="amount")
    player = spec.get("player") or f"seat-{seat}"  # a label (casino.players)
    if not isinstance(player, str) or len(player) > 100:
        raise invalid("player is a name or a colour of at most 100 characters", field="player")
    if stage == "initial" and kind in DECISION_STAKES.get(table.game, ()):
        raise conflict("a {kind} stake is taken only as a decision of the hand in play "
                       "(record the decision)",
                       params={"kind": kind}, code="decision_only", field="type")
    if stage == "initial" and not whole and table.game == "blackjack" and spec.get("even_money"):
        raise conflict("even money is a decision of the hand in play", code="decision_only")
    bet = {k: v for k, v in spec.items() if k not in _PLATFORM_KEYS}
    bet |= {"id": bet_id, "type": kind, "amount": fmt(amount)}
    seated = SEATED_TYPES.get(table.game, frozenset())
    if table.game in SEATED_TYPES and (seated is None or kind in seated):
        bet["seat"] = seat
    try:
        engine.check_bet(table.game, options, bet)
    except RoundError as error:
        raise from_engine(error, field="bets") from None
    base = spec.get("base")
    if base is not None and not isinstance(base, str):
        raise invalid("base names the bet that odds back, by its id", field="base")
    return BetView(bet_id=bet_id, seat=seat, player=player, bet_type=kind, amount=amount,
                   bet=bet, stage=stage, base=base)


# --- the table's limits -------------------------------------------------------------------------


def over_limit(message: str, article: str = TABLE_LIMITS, *, params: dict[str, Any] | None = None,
               **extra: Any) -> RuleError:
    return invalid(message, code="over_limit", params=params, article=article, **extra)


def check_limits(table: TableRules, options: dict[str, Any], bet: BetView,
                 others: list[BetView]) -> None:
    """The table's limits for one new bet, the others of the round beside it."""
    game, kind, amount = table.game, bet.bet_type, bet.amount
    group = group_of(game, options, bet.bet)
    if group is None or group not in table.limits:
        raise invalid("{kind} bets are not taken at table {code}",
                      params={"kind": kind, "code": table.code}, code="bet_not_offered")
    low, high = Decimal(table.limits[group]["min"]), Decimal(table.limits[group]["max"])
    if game == "banca_francesa" and kind in ("small_line", "big_line"):
        low, high = low * 2, high * 2  # n.º 11: twice the minimum, twice the maximum
    if amount < low:
        raise over_limit("{kind} {amount} is below the table minimum {low} for {group}",
                         params={"kind": kind, "amount": amount, "low": low, "group": group},
                         bet=bet.bet_id, minimum=str(low))
    if amount > high:
        raise over_limit("{kind} {amount} is over the table maximum {high} for {group}",
                         params={"kind": kind, "amount": amount, "high": high, "group": group},
                         bet=bet.bet_id, maximum=str(high))
    same_player = [o for o in others if o.player == bet.player]
    if game == "blackjack":
        if amount % low:
            raise over_limit("a blackjack stake is the minimum {low} or a multiple of it",
                             "Portaria 217/2007, blackjack, n.º 14",
                             params={"low": low}, bet=bet.bet_id)
        on_seat = [o for o in others if o.seat == bet.seat and o.bet_type in ("main", "back")]
        if kind == "main" and any(o.bet_type == "main" for o in on_seat):
            raise conflict("seat {seat} already has its holder's stake (a second player "
                           "bets there as a back bet)",
                           params={"seat": bet.seat}, code="seat_taken")
        if kind == "back" and not any(o.bet_type == "main" for o in on_seat):
            raise conflict("seat {seat} has no holder's stake to back",
                           params={"seat": bet.seat}, code="no_holder")
        total = sum((o.amount for o in on_seat), amount)
        if total > high:
            raise over_limit("the stakes on seat {seat} would be {total}, over the table "
                             "maximum {high}", "Portaria 217/2007, blackjack, n.º 15",
                                                params={"seat": bet.seat, "total": total, "high": high},
                             bet=bet.bet_id)
    elif game == "stud_poker":
        if any(o.seat == bet.seat and o.bet_type == "ante" for o in others):
            raise conflict("box {seat} already has an ante (one box per player, n.º 5)",
                           params={"seat": bet.seat},
                           code="seat_taken")
    elif game == "craps":
        if kind in ("place", "lay") and amount % low:
            raise over_limit("{kind} bets are multiples of the minimum {low}",
                             "Portaria 217/2007, craps, n.º 12",
                             params={"kind": kind, "low": low}, bet=bet.bet_id)
        if kind == "odds":
            check_odds(bet, others)
    elif game in ("american_roulette", "french_roulette"):
        if kind == "series" and amount % low:
            raise over_limit("a series is played in whole units of {low}",
                             "Portaria 217/2007, roleta americana, n.º 32 c)",
                             params={"low": low}, bet=bet.bet_id)
        if kind in ("straight", "neighbours"):
            check_straight_per_player(table, bet, same_player)
    elif game == "punto_banco_macau" and kind in ("player", "banker"):
        other_side = "banker" if kind == "player" else "player"
        mine = sum((o.amount for o in same_player if o.bet_type == kind), amount)
        theirs = sum((o.amount for o in same_player if o.bet_type == other_side), Decimal(0))
        minimum = Decimal(table.limits["player_banker"]["min"])
        if theirs and abs(mine - theirs) < minimum:
            raise over_limit("{player} bets on both player and banker: the difference must "
                             "be at least the table minimum {minimum}",
                             "Portaria 217/2007, bacará ponto e banca/Macau, n.º 11",
                             params={"player": bet.player, "minimum": minimum},
                             bet=bet.bet_id)


def check_odds(bet: BetView, others: list[BetView]) -> None:
    """n.º 11.1: odds back a line or come bet, for no more than that bet."""
    if bet.base is None:
        raise invalid("odds back a line or come bet: name it in base", field="base",
                      article="Portaria 217/2007, craps, n.º 11.1")
    base = next((o for o in others if o.bet_id == bet.base), None)
    if base is None or base.bet_type != bet.bet.get("on"):
        raise invalid("odds on {on} need a {on} bet to back; "
                      "{base!r} is not one",
                      params={"on": bet.bet.get('on'), "base": bet.base}, field="base",
                      article="Portaria 217/2007, craps, n.º 11.1")
    if base.bet_type in ("come", "dont_come") and base.bet.get("point") != bet.bet.get("point"):
        raise invalid("odds on a come bet ride on that bet's point", field="point")
    backed = sum((o.amount for o in others if o.bet_type == "odds" and o.base == base.bet_id),
                 bet.amount)
    if backed > base.amount:
        raise over_limit("odds of {backed} on a {amount} {bet_type} bet: odds may not "
                         "exceed the bet they back", "Portaria 217/2007, craps, n.º 11.1",
                                                     params={"backed": backed, "amount": base.amount, "bet_type": base.bet_type},
                         bet=bet.bet_id)


def check_straight_per_player(table: TableRules, bet: BetView, mine: list[BetView]) -> None:
    """n.º 32 d): a player's neighbours and straight bets on any number stay within the straight
    maximum (``mine``: the player's other bets of the round)."""
    high = Decimal(table.limits["straight"]["max"])
    per_number: dict[int, Decimal] = {}
    for item in [*mine, bet]:
        if item.bet_type == "straight":
            number = item.bet["numbers"][0]
            per_number[number] = per_number.get(number, Decimal(0)) + item.amount
        elif item.bet_type == "neighbours":
            covered = neighbours_of(item.bet["number"], item.bet["neighbours"])
            chip = item.amount / len(covered)
            for number in covered:
                per_number[number] = per_number.get(number, Decimal(0)) + chip
    worst = max(per_number.items(), key=_staked, default=None)
    if worst is not None and worst[1] > high:
        raise over_limit("{player} would have {value} on "
                         "number {worst} in straight and neighbours bets, over the straight "
                         "maximum {high}", "Portaria 217/2007, roleta americana, n.º 32 d)",
                                            params={"player": bet.player, "value": worst[1].quantize(Decimal('0.01')), "worst": worst[0], "high": high},
                         bet=bet.bet_id)


def _staked(number_and_amount: tuple[int, Decimal]) -> Decimal:
    return number_and_amount[1]


# --- taking a bet down --------------------------------------------------------------------------


def check_withdrawable(game: str, bet: BetView) -> None:
    """Only a bet carried from an earlier round comes down, and at craps only the types n.º 10.9
    lets a player take down once the point is set."""
    allowed = WITHDRAWABLE.get(game, frozenset())
    if bet.carried_from is None:
        raise conflict("only a bet left working by an earlier round is taken down here",
                       code="not_withdrawable")
    if allowed is not None and bet.bet_type not in allowed:
        raise conflict("this bet stays on the table once its point is set: only odds, place, "
                       "lay, big 6, big 8 and hardway bets come down (Portaria 217/2007, craps, "
                       "n.º 10.9)", code="not_withdrawable", bet_type=bet.bet_type)
