"""Rounds (golpes): open with bets, "no more bets", the hand's decisions, the outcome, the
settlement from the rules engine, a void, a correction; and a whole round in one command.

Validation, in order: the round's state (betting open, outcome missing ...), the seat, the rules
engine (``games.engine.check_bet`` at placement, ``settle_or_raise`` for the outcome), then the
table's limits (``_check_limits``, each refusal naming its article). Settlement comes from the
engine only: one ``BetSettled`` per bet, as the engine gave it.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import uuid
from collections.abc import Iterable, Sequence
from decimal import ROUND_FLOOR, Decimal
from typing import Any

from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.eventstore import store
from casino.eventstore.events import Event
from casino.eventstore.store import Metadata
from casino.models import Role
from casino.money import fmt, parse_amount
from games import engine, play
from games.engine import blackjack as bj
from games.engine.errors import RoundError
from games.events import (
    BetCarried,
    BetPlaced,
    BetSettled,
    BettingClosed,
    BetWithdrawn,
    CardsDealt,
    DecisionRecorded,
    JackpotBetPlaced,
    OutcomeRecorded,
    RoundCorrected,
    RoundOpened,
    RoundSettled,
    RoundVoided,
)
from games.hold import edge_key
from games.limits import group_of
from games.models import Bet, JackpotBet, Round, RoundStatus, Table, TableSession

from . import jackpot_bets as jp
from ._common import (
    Result,
    check_casino,
    engine_error,
    locked_round_reads,
    pit_command,
    round_and_table,
    round_bets,
    round_get,
    round_reads,
    session_and_table,
    session_get,
    session_reads,
    whole_round_reads,
)

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
_CARD = re.compile(r"^[A23456789TJQK][SHDC]$")
_PLATFORM_KEYS = frozenset({"seat", "player", "id", "base", "amount", "type"})
TABLE_LIMITS = "the table's limits (Portaria 217/2007; table configuration)"


@dataclasses.dataclass
class BetView:
    """A bet as the services reason about it (from a ``Bet`` row or being placed)."""

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
    def of(cls, row: Bet) -> BetView:
        return cls(bet_id=row.bet_id, seat=row.seat, player=row.player, bet_type=row.bet_type,
                   amount=row.amount, bet=dict(row.bet), stage=row.stage, base=row.base,
                   carried_from=str(row.carried_from) if row.carried_from else None,
                   hand_key=row.hand_key)

    @classmethod
    def carried(cls, data: dict[str, Any]) -> BetView:
        return cls(bet_id=data["bet_id"], seat=data["seat"], player=data["player"],
                   bet_type=data["bet"]["type"], amount=Decimal(data["amount"]),
                   bet=dict(data["bet"]), stage="carried", base=data.get("base"),
                   carried_from=data["from_round_id"])

    def placed(self, round_id: str) -> Event:
        if self.carried_from:
            return BetCarried(round_id=round_id, bet_id=self.bet_id,
                              from_round_id=self.carried_from, seat=self.seat, player=self.player,
                              bet=self.bet, amount=self.amount, base=self.base)
        return BetPlaced(round_id=round_id, bet_id=self.bet_id, seat=self.seat, player=self.player,
                         bet=self.bet, amount=self.amount, stage=self.stage, base=self.base,
                         hand_key=self.hand_key)


def _bets_of(round_id: uuid.UUID | str) -> list[BetView]:
    """The round's bets still standing, in the order they were placed (a prepared statement:
    every command on a round reads them)."""
    return [BetView.of(b) for b in round_bets(round_id)]


# --- placing bets -------------------------------------------------------------------------------


def _next_id(used: set[str]) -> str:
    n = len(used) + 1
    while f"b{n}" in used:
        n += 1
    return f"b{n}"


def _new_bets(table: Table, options: dict[str, Any], specs: Sequence[dict[str, Any]],
              existing: list[BetView], *, stage: str = "initial", whole: bool = False
              ) -> list[BetView]:
    """Validate ``specs`` (seat, player, type, amount, the type's own fields) into bets."""
    used = {b.bet_id for b in existing}
    made: list[BetView] = []
    for index, spec in enumerate(specs):
        if not isinstance(spec, dict):
            raise InvalidCommand(f"bet {index + 1} is not an object", field="bets")
        view = _new_bet(table, options, spec, used, stage, whole)
        used.add(view.bet_id)
        if stage == "initial":
            _check_limits(table, options, view, existing + made)
        made.append(view)
    return made


def _new_bet(table: Table, options: dict[str, Any], spec: dict[str, Any], used: set[str],
             stage: str, whole: bool = False) -> BetView:
    kind = spec.get("type")
    if not isinstance(kind, str):
        raise InvalidCommand("each bet needs its type", field="type")
    seat = spec.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise InvalidCommand("each bet names the seat it is on (a number)", field="seat")
    if not 1 <= seat <= table.seats:
        raise InvalidCommand(f"table {table.code} has no seat {seat} (seats 1 to {table.seats})",
                             code="no_such_seat", field="seat", seat=seat)
    bet_id = spec.get("id") or _next_id(used)
    if not isinstance(bet_id, str) or len(bet_id) > 64:
        raise InvalidCommand("a bet id is a string of at most 64 characters", field="id")
    if bet_id in used:
        raise InvalidCommand(f"bet id {bet_id!r} is already used in this round", field="id")
    amount = parse_amount(spec.get("amount"), field="amount")
    player = spec.get("player") or f"seat {seat}"
    if not isinstance(player, str) or len(player) > 100:
        raise InvalidCommand("player is a name or a colour of at most 100 characters",
                             field="player")
    if stage == "initial" and kind in DECISION_STAKES.get(table.game, ()):
        raise Conflict(f"a {kind} stake is taken only as a decision of the hand in play "
                       "(record the decision)", code="decision_only", field="type")
    if stage == "initial" and not whole and table.game == "blackjack" and spec.get("even_money"):
        raise Conflict("even money is a decision of the hand in play", code="decision_only")
    bet = {k: v for k, v in spec.items() if k not in _PLATFORM_KEYS}
    bet |= {"id": bet_id, "type": kind, "amount": fmt(amount)}
    seated = SEATED_TYPES.get(table.game, frozenset())
    if table.game in SEATED_TYPES and (seated is None or kind in seated):
        bet["seat"] = seat
    try:
        engine.check_bet(table.game, options, bet)
    except RoundError as error:
        raise engine_error(error, field="bets") from None
    base = spec.get("base")
    if base is not None and not isinstance(base, str):
        raise InvalidCommand("base names the bet that odds back, by its id", field="base")
    return BetView(bet_id=bet_id, seat=seat, player=player, bet_type=kind, amount=amount,
                   bet=bet, stage=stage, base=base)


def _refuse(message: str, article: str = TABLE_LIMITS, **extra: Any) -> InvalidCommand:
    return InvalidCommand(message, code="over_limit", article=article, **extra)


def _check_limits(table: Table, options: dict[str, Any], bet: BetView, others: list[BetView]
                  ) -> None:
    """The table's limits for one new bet, the others of the round beside it."""
    game, kind, amount = table.game, bet.bet_type, bet.amount
    group = group_of(game, options, bet.bet)
    if group is None or group not in table.limits:
        raise InvalidCommand(f"{kind} bets are not taken at table {table.code}",
                             code="bet_not_offered")
    low, high = Decimal(table.limits[group]["min"]), Decimal(table.limits[group]["max"])
    if game == "banca_francesa" and kind in ("small_line", "big_line"):
        low, high = low * 2, high * 2  # n.º 11: twice the minimum, twice the maximum
    if amount < low:
        raise _refuse(f"{kind} {amount} is below the table minimum {low} for {group}",
                      bet=bet.bet_id, minimum=str(low))
    if amount > high:
        raise _refuse(f"{kind} {amount} is over the table maximum {high} for {group}",
                      bet=bet.bet_id, maximum=str(high))
    same_player = [o for o in others if o.player == bet.player]
    if game == "blackjack":
        if amount % low:
            raise _refuse(f"a blackjack stake is the minimum {low} or a multiple of it",
                          "Portaria 217/2007, blackjack, n.º 14", bet=bet.bet_id)
        on_seat = [o for o in others if o.seat == bet.seat and o.bet_type in ("main", "back")]
        if kind == "main" and any(o.bet_type == "main" for o in on_seat):
            raise Conflict(f"seat {bet.seat} already has its holder's stake (a second player "
                           "bets there as a back bet)", code="seat_taken")
        if kind == "back" and not any(o.bet_type == "main" for o in on_seat):
            raise Conflict(f"seat {bet.seat} has no holder's stake to back", code="no_holder")
        total = sum((o.amount for o in on_seat), amount)
        if total > high:
            raise _refuse(f"the stakes on seat {bet.seat} would be {total}, over the table "
                          f"maximum {high}", "Portaria 217/2007, blackjack, n.º 15",
                          bet=bet.bet_id)
    elif game == "stud_poker":
        if any(o.seat == bet.seat and o.bet_type == "ante" for o in others):
            raise Conflict(f"box {bet.seat} already has an ante (one box per player, n.º 5)",
                           code="seat_taken")
    elif game == "craps":
        if kind in ("place", "lay") and amount % low:
            raise _refuse(f"{kind} bets are multiples of the minimum {low}",
                          "Portaria 217/2007, craps, n.º 12", bet=bet.bet_id)
        if kind == "odds":
            _check_odds(bet, others)
    elif game in ("american_roulette", "french_roulette"):
        if kind == "series" and amount % low:
            raise _refuse(f"a series is played in whole units of {low}",
                          "Portaria 217/2007, roleta americana, n.º 32 c)", bet=bet.bet_id)
        if kind in ("straight", "neighbours"):
            _check_straight_per_player(table, bet, same_player)
    elif game == "punto_banco_macau" and kind in ("player", "banker"):
        other_side = "banker" if kind == "player" else "player"
        mine = sum((o.amount for o in same_player if o.bet_type == kind), amount)
        theirs = sum((o.amount for o in same_player if o.bet_type == other_side), Decimal(0))
        minimum = Decimal(table.limits["player_banker"]["min"])
        if theirs and abs(mine - theirs) < minimum:
            raise _refuse(f"{bet.player} bets on both player and banker: the difference must be "
                          f"at least the table minimum {minimum}",
                          "Portaria 217/2007, bacará ponto e banca/Macau, n.º 11", bet=bet.bet_id)


def _check_odds(bet: BetView, others: list[BetView]) -> None:
    """n.º 11.1: odds back a line or come bet, for no more than that bet."""
    if bet.base is None:
        raise InvalidCommand("odds back a line or come bet: name it in base", field="base",
                             article="Portaria 217/2007, craps, n.º 11.1")
    base = next((o for o in others if o.bet_id == bet.base), None)
    if base is None or base.bet_type != bet.bet.get("on"):
        raise InvalidCommand(f"odds on {bet.bet.get('on')} need a {bet.bet.get('on')} bet to back; "
                             f"{bet.base!r} is not one", field="base",
                             article="Portaria 217/2007, craps, n.º 11.1")
    if base.bet_type in ("come", "dont_come") and base.bet.get("point") != bet.bet.get("point"):
        raise InvalidCommand("odds on a come bet ride on that bet's point", field="point")
    backed = sum((o.amount for o in others if o.bet_type == "odds" and o.base == base.bet_id),
                 bet.amount)
    if backed > base.amount:
        raise _refuse(f"odds of {backed} on a {base.amount} {base.bet_type} bet: odds may not "
                      "exceed the bet they back", "Portaria 217/2007, craps, n.º 11.1",
                      bet=bet.bet_id)


def _check_straight_per_player(table: Table, bet: BetView, mine: list[BetView]) -> None:
    """n.º 32 d): a player's neighbours and straight bets on any number stay within the straight
    maximum."""
    from games.engine.roulette import neighbours_of

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
    worst = max(per_number.items(), key=lambda kv: kv[1], default=None)
    if worst is not None and worst[1] > high:
        raise _refuse(f"{bet.player} would have {worst[1].quantize(Decimal('0.01'))} on number "
                      f"{worst[0]} in straight and neighbours bets, over the straight maximum "
                      f"{high}", "Portaria 217/2007, roleta americana, n.º 32 d)", bet=bet.bet_id)


# --- settlement ---------------------------------------------------------------------------------


def _engine_round(game: str, options: dict[str, Any], outcome: dict[str, Any],
                  bets: Iterable[BetView], hands: dict[str, Any]) -> dict[str, Any]:
    engine_bets = []
    for b in bets:
        item = b.bet
        if b.hand_key is not None:
            item = dict(item, hand=play.hand_number(hands, b.seat, b.hand_key))
        engine_bets.append(item)
    return {"game": game, "options": options, "outcome": outcome, "bets": engine_bets}


def _settle(game: str, options: dict[str, Any], outcome: dict[str, Any], bets: list[BetView],
            hands: dict[str, Any]) -> dict[str, Any]:
    try:
        return engine.settle_or_raise(_engine_round(game, options, outcome, bets, hands))
    except RoundError as error:
        raise engine_error(error, field="outcome") from None


def _cents_down(amount: Decimal) -> Decimal:
    return amount.quantize(Decimal("0.01"), rounding=ROUND_FLOOR)


@dataclasses.dataclass
class Settlement:
    events: list[Event]
    result: Decimal
    prizes: Decimal
    handle: Decimal


def _settlement(table: Table, round_id: str, session_id: str, settled: dict[str, Any],
                bets: list[BetView], *, corrects: dict[str, int | None] | None = None,
                result_delta_from: Decimal | None = None) -> Settlement:
    lines = settled["bets"]
    cap = table.max_prize_per_coup
    total_win = sum((Decimal(line["win"]) for line in lines), Decimal(0))
    scale = cap / total_win if cap is not None and total_win > cap else None
    carry_status = CARRY_STATUS.get(table.game)
    events: list[Event] = []
    result = prizes = handle = Decimal("0.00")
    pending: list[dict[str, Any]] = []
    stakes: dict[str, list[Decimal]] = {}
    for bet, line in zip(bets, lines, strict=True):
        status = line["status"]
        stake, win, returned = (Decimal(line["stake"]), Decimal(line["win"]),
                                Decimal(line["returned"]))
        capped_win = None
        if scale is not None and win > 0:
            capped_win, win = win, _cents_down(win * scale)
            returned = returned - capped_win + win
        carried = bet.carried_from is not None
        if not carried:
            handle += stake
            key = edge_key(table.game, bet.bet, table.options)
            acc = stakes.setdefault(key, [Decimal(0), Decimal(0)])
            acc[0] += stake
            acc[1] += stake * stake
        point = line.get("point")
        if status == carry_status:
            follow = dict(bet.bet)
            if bet.bet_type in ("come", "dont_come") and point is not None:
                follow["point"] = point
            pending.append({"bet_id": bet.bet_id, "seat": bet.seat, "player": bet.player,
                            "bet": follow, "amount": str(bet.amount), "base": bet.base,
                            "from_round_id": round_id})
        else:
            result += stake - returned
        prizes += win
        events.append(BetSettled(
            round_id=round_id, bet_id=bet.bet_id, seat=bet.seat, player=bet.player,
            bet_type=bet.bet_type, status=status, stake=stake, win=win, returned=returned,
            carried=carried, point=point,
            corrects=(corrects or {}).get(bet.bet_id), capped_win=capped_win,
        ))
    events.append(RoundSettled(
        round_id=round_id, session_id=session_id,
        handle=handle if corrects is None else Decimal("0.00"),
        result=result, prizes=prizes, pending=pending,
        point_after=settled["outcome"].get("point_after") if table.game == "craps" else None,
        stakes={k: [str(v[0]), str(v[1])] for k, v in sorted(stakes.items())}
        if corrects is None else {},
        correction=corrects is not None,
        result_delta=None if result_delta_from is None else result - result_delta_from,
    ))
    return Settlement(events, result, prizes, handle)


# --- outcome ------------------------------------------------------------------------------------


def _prepare_outcome(the_round: Round | None, game: str, outcome: object, point: int | None,
                     hands: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(outcome, dict):
        raise InvalidCommand("the outcome is an object in the game's own form", field="outcome")
    prepared = copy.deepcopy(outcome)
    if game == "craps":
        if "point" in prepared and prepared["point"] != point:
            raise InvalidCommand(f"the table point before this roll is {point}, not "
                                 f"{prepared['point']}", code="invalid_outcome", field="outcome")
        prepared["point"] = point
    elif game == "blackjack" and hands.get("seats"):
        seats = play.outcome_seats(hands)
        if "seats" in prepared and prepared["seats"] != seats:
            raise InvalidCommand("the hands differ from those recorded as they were played",
                                 code="invalid_outcome", field="outcome")
        prepared["seats"] = seats
        dealer = prepared.get("dealer")
        if (isinstance(dealer, dict) and isinstance(dealer.get("cards"), list)
                and dealer["cards"] and dealer["cards"][0] != hands["upcard"]):
            raise InvalidCommand(f"the bank's up card was {hands['upcard']}",
                                 code="invalid_outcome", field="outcome")
    elif game == "stud_poker" and hands.get("decisions"):
        recorded = hands["decisions"]
        outcome_seats = prepared.get("seats")
        if isinstance(outcome_seats, list):
            for seat in outcome_seats:
                if isinstance(seat, dict) and str(seat.get("seat")) in recorded:
                    decision = recorded[str(seat["seat"])]
                    if seat.setdefault("decision", decision) != decision:
                        raise InvalidCommand(f"box {seat['seat']} decided {decision}",
                                             code="invalid_outcome", field="outcome")
    return prepared


def _undecided_boxes(bets: list[BetView], hands: dict[str, Any]) -> list[int]:
    decided = hands.get("decisions", {})
    return sorted(b.seat for b in bets if b.bet_type == "ante" and str(b.seat) not in decided)


# --- the commands -------------------------------------------------------------------------------


def _open_events(table: Table, session: TableSession, round_id: str,
                 specs: Sequence[dict[str, Any]], options: dict[str, Any], *,
                 whole: bool = False) -> tuple[list[Event], list[BetView]]:
    """``options``: the round's (``jackpot_bets.round_options``: the table's, with the jackpot
    configuration in force in the pool the table feeds)."""
    if session.current_round_id is not None:
        raise Conflict(f"round {session.current_round_id} is still in progress at table "
                       f"{table.code}", code="round_in_progress")
    carried = [BetView.carried(p) for p in session.pending_bets]
    new = _new_bets(table, options, specs, carried, whole=whole)
    events: list[Event] = [RoundOpened(
        round_id=round_id, session_id=str(session.session_id), casino=table.casino_id,
        table=table.code, game=table.game, options=options, number=session.rounds + 1,
        point=session.craps_point if table.game == "craps" else None)]
    bets = carried + new
    events += [b.placed(round_id) for b in bets]
    return events, bets


@pit_command("round_open", reads=session_reads)
def round_open(*, session_id: str, bets: Sequence[dict[str, Any]] = (), metadata: Metadata,
               round_id: str | None = None) -> Result:
    """Open a round for bets, with the bets placed so far; bets still working carry into it."""
    session, table = session_and_table(session_id)
    check_casino(metadata, session.casino_id)
    new_id = round_id or str(uuid.uuid4())

    def handler() -> Result:
        options, _pool = jp.round_options(table)
        events, placed = _open_events(table, session, new_id, bets, options)
        answer: Result = {"round_id": new_id, "number": session.rounds + 1,
                          "version": len(events), "bets": [b.bet_id for b in placed]}
        store.append(f"round/{new_id}", events, expected_version=0, metadata=metadata,
                     answer=answer)
        return answer

    return handler()


def _round_for_command(round_id: str, metadata: Metadata) -> tuple[Round, Table]:
    """The round, locked, and its table (see ``_round_only``)."""
    the_round, table = round_and_table(round_id)
    _check_round(the_round, metadata)
    return the_round, table


def _round_only(round_id: str, metadata: Metadata) -> Round:
    """The round, locked. A round still in play has an open session (a session does not close
    with a round in progress); a settled or void one is checked where it matters."""
    the_round = round_get(round_id, lock=True)
    _check_round(the_round, metadata)
    return the_round


def _check_round(the_round: Round, metadata: Metadata) -> None:
    check_casino(metadata, the_round.casino_id)
    if the_round.status in (RoundStatus.SETTLED, RoundStatus.VOIDED):
        session_get(str(the_round.session_id))  # refuses a closed session


def _refuse_state(the_round: Round, *allowed: str) -> None:
    if the_round.status in allowed:
        return
    messages = {
        RoundStatus.BETTING: ("betting_open", "bets are still being taken: call no more bets "
                                              "first"),
        RoundStatus.CLOSED: ("no_outcome", "the round has no outcome yet"),
        RoundStatus.OUTCOME: ("outcome_recorded", "the outcome is recorded: settle the round, "
                                                  "or void it"),
        RoundStatus.SETTLED: ("already_settled", "the round is already settled (a mistake is "
                                                 "put right by a correction)"),
        RoundStatus.VOIDED: ("round_voided", "the round is void"),
    }
    code, message = messages[RoundStatus(the_round.status)]
    if RoundStatus.BETTING in allowed and the_round.status == RoundStatus.CLOSED:
        code, message = "betting_closed", "no more bets: betting is closed for this round"
    raise Conflict(message, code=code, round=str(the_round.round_id), status=the_round.status)


@pit_command("bet_place", reads=round_reads)
def bet_place(*, round_id: str, bets: Sequence[dict[str, Any]], metadata: Metadata) -> Result:
    """Place bets while betting is open (seat, player, type, amount, the type's fields)."""
    the_round, table = _round_for_command(round_id, metadata)

    def handler() -> Result:
        _refuse_state(the_round, RoundStatus.BETTING)
        existing = list(Bet.objects.filter(round_id=the_round.round_id).order_by("id"))
        views = [BetView.of(b) for b in existing if not b.withdrawn]
        used = {b.bet_id for b in existing}
        new = _new_bets(table, the_round.options, bets,
                        views + [BetView(bet_id=u, seat=0, player="", bet_type="", amount=Decimal(0),
                                         bet={}) for u in used - {v.bet_id for v in views}])
        store.append(the_round.stream, [b.placed(str(the_round.round_id)) for b in new],
                     expected_version=the_round.version, metadata=metadata)
        return {"round_id": str(the_round.round_id), "bets": [b.bet_id for b in new],
                "version": the_round.version + len(new)}

    return handler()


@pit_command("jackpot_bet_place", reads=round_reads)
def jackpot_bet_place(*, round_id: str, bets: Sequence[dict[str, Any]], metadata: Metadata
                      ) -> Result:
    """Jackpot chips (apostas no acumulado), before the deal: ``{seat, player?, amount, id?}``
    each, one chip of exactly the pool's bet per player and coup, by a player with a main-game
    bet on that seat (the seat holder when ``player`` is left out). Recorded on the round
    (``JackpotBetPlaced``), decided by the pool's coup when the round settles."""
    the_round, table = _round_for_command(round_id, metadata)

    def handler() -> Result:
        if the_round.status != RoundStatus.BETTING:
            raise jp.too_late(table.game, the_round.status)
        pool_id = jp.round_pool(the_round)
        rid = str(the_round.round_id)
        rows = Bet.objects.filter(round_id=the_round.round_id)
        placed = list(JackpotBet.objects.filter(round_id=the_round.round_id))
        events = jp.new_jackpot_bets(
            game=table.game, seats=table.seats, options=the_round.options, round_id=rid,
            pool_id=pool_id, specs=bets,
            main_bets=[(b.seat, b.player, b.bet_type) for b in rows if not b.withdrawn],
            placed=[(j.seat, j.player) for j in placed],
            used_ids={b.bet_id for b in rows} | {j.bet_id for j in placed})
        store.append(the_round.stream, events, expected_version=the_round.version,
                     metadata=metadata)
        return {"round_id": rid, "pool_id": pool_id, "jackpot_bets": [e.bet_id for e in events],
                "version": the_round.version + len(events)}

    return handler()


@pit_command("bet_withdraw", reads=round_reads)
def bet_withdraw(*, round_id: str, bet_id: str, reason: str = "", metadata: Metadata) -> Result:
    """Take down a bet carried from an earlier round, where the rules let a player do so."""
    the_round, table = _round_for_command(round_id, metadata)
    _refuse_state(the_round, RoundStatus.BETTING)
    bet = Bet.objects.filter(round_id=the_round.round_id, bet_id=bet_id, withdrawn=False).first()
    if bet is None:
        raise InvalidCommand(f"there is no bet {bet_id!r} in this round", field="bet_id")
    allowed = WITHDRAWABLE.get(table.game, frozenset())
    if bet.carried_from is None:
        raise Conflict("only a bet left working by an earlier round is taken down here",
                       code="not_withdrawable")
    if allowed is not None and bet.bet_type not in allowed:
        raise Conflict(f"a {bet.bet_type} bet cannot be taken down once its point is set "
                       "(Portaria 217/2007, craps, n.º 10.9)", code="not_withdrawable")
    store.append(the_round.stream, [BetWithdrawn(round_id=str(the_round.round_id), bet_id=bet_id,
                                                 reason=reason)],
                 expected_version=the_round.version, metadata=metadata)
    return {"round_id": str(the_round.round_id), "bet_id": bet_id, "withdrawn": True}


@pit_command("round_close_betting", reads=locked_round_reads)
def round_close_betting(*, round_id: str, metadata: Metadata) -> Result:
    """«Jogo feito. Nada mais.»: no initial bet is taken after this."""
    the_round = _round_only(round_id, metadata)

    def handler() -> Result:
        _refuse_state(the_round, RoundStatus.BETTING)
        answer: Result = {"round_id": str(the_round.round_id), "status": RoundStatus.CLOSED,
                          "version": the_round.version + 1}
        store.append(the_round.stream, [BettingClosed(round_id=str(the_round.round_id))],
                     expected_version=the_round.version, metadata=metadata, answer=answer)
        return answer

    return handler()


def _check_cards(cards: object, count: int | None, field: str) -> list[str]:
    if not isinstance(cards, list) or (count is not None and len(cards) != count) or not all(
            isinstance(c, str) and _CARD.match(c) for c in cards):
        want = f"{count} card(s)" if count is not None else "cards"
        raise InvalidCommand(f"{field}: {want} such as \"AS\" or \"TD\"", code="invalid_outcome",
                             field=field)
    return list(cards)


@pit_command("deal_record")
def deal_record(*, round_id: str, upcard: str, seats: dict[str, list[str]], metadata: Metadata
                ) -> Result:
    """Blackjack: the bank's up card and two cards to each seat with a stake (n.º 17)."""
    the_round = _round_only(round_id, metadata)
    if the_round.game != "blackjack":
        raise InvalidCommand("the deal is recorded card by card at blackjack only")
    _refuse_state(the_round, RoundStatus.CLOSED)
    if the_round.play.get("seats"):
        raise Conflict("the deal is already recorded", code="already_dealt")
    _check_cards([upcard], 1, "upcard")
    if not isinstance(seats, dict):
        raise InvalidCommand("seats map each seat to its two cards", field="seats")
    staked = {str(b.seat) for b in _bets_of(the_round.round_id) if b.bet_type == "main"}
    dealt = {str(k) for k in seats}
    if dealt != staked:
        raise InvalidCommand(f"deal to the seats with a stake: {', '.join(sorted(staked))}",
                             field="seats")
    hands = {str(k): _check_cards(v, 2, f"seat {k}") for k, v in seats.items()}
    store.append(the_round.stream,
                 [CardsDealt(round_id=str(the_round.round_id), upcard=upcard, seats=hands)],
                 expected_version=the_round.version, metadata=metadata)
    return {"round_id": str(the_round.round_id), "version": the_round.version + 1}


def _stake_on_hand(bets: list[BetView], owner: BetView, key: str, seat: int) -> BetView | None:
    """The stake ``owner`` (a main or back bet) has on the hand ``key``."""
    if key == str(seat):
        return owner
    return next((b for b in bets if b.bet_type == "split" and b.bet.get("bet") == owner.bet_id
                 and b.hand_key == key), None)


@pit_command("decision_record", reads=round_reads)
def decision_record(
    *,
    round_id: str,
    seat: int,
    decision: str,
    hand: int = 1,
    cards: Sequence[str] = (),
    bet_id: str | None = None,
    amount: object = None,
    followers: Sequence[str] = (),
    metadata: Metadata,
) -> Result:
    """A decision of the hand in play, with the stake it takes, when the rules allow it.

    Blackjack (after the deal): ``hit`` and ``double`` with the card drawn, ``split`` with the
    second card of each hand, ``stand``, ``surrender``, ``insurance`` and ``even_money`` of one
    bet (``bet_id``); ``followers``: back bets that follow a split or a double (n.os 28, 30).
    Stud poker: ``call`` (the call stake, twice the ante) or ``fold``.
    """
    the_round, table = _round_for_command(round_id, metadata)
    _refuse_state(the_round, RoundStatus.CLOSED)
    rid = str(the_round.round_id)
    bets = _bets_of(the_round.round_id)
    used = {b.bet_id for b in bets}
    card_list = list(cards)
    new: list[BetView] = []
    if table.game == "stud_poker":
        if decision not in ("call", "fold"):
            raise InvalidCommand("at stud poker a box calls or folds (n.º 17)", field="decision")
        ante = next((b for b in bets if b.bet_type == "ante" and b.seat == seat), None)
        if ante is None:
            raise InvalidCommand(f"box {seat} has no ante", code="no_such_seat", field="seat")
        if str(seat) in the_round.play.get("decisions", {}):
            raise Conflict(f"box {seat} already decided (the decision is irreversible, n.º 17)",
                           code="already_decided")
        if decision == "call":  # n.º 17: the call is twice the ante
            call_id = _next_id(used)
            new.append(BetView(bet_id=call_id, seat=seat, player=ante.player,
                               bet_type="call", amount=ante.amount * 2, stage="decision",
                               bet={"id": call_id, "type": "call", "seat": seat,
                                    "amount": fmt(ante.amount * 2)}))
        hand = 1
    elif table.game == "blackjack":
        new = _blackjack_decision(the_round, bets, used, seat, hand, decision, card_list, bet_id,
                                  amount, followers)
    else:
        raise InvalidCommand(f"{table.game} has no decisions of the hand", field="decision")
    events: list[Event] = [DecisionRecorded(round_id=rid, seat=seat, hand=hand, decision=decision,
                                            cards=card_list, bet_id=bet_id)]
    events += [b.placed(rid) for b in new]
    store.append(the_round.stream, events, expected_version=the_round.version, metadata=metadata)
    return {"round_id": rid, "decision": decision, "bets": [b.bet_id for b in new],
            "version": the_round.version + len(events)}


def _blackjack_decision(the_round: Round, bets: list[BetView], used: set[str], seat: int,
                        hand: int, decision: str, cards: list[str], bet_id: str | None,
                        amount: object, followers: Sequence[str]) -> list[BetView]:
    hands = the_round.play
    if not hands.get("seats"):
        raise Conflict("record the deal first", code="not_dealt")
    current = play.hand_of(hands, seat, hand)
    if current is None:
        raise InvalidCommand(f"seat {seat} has no hand {hand}", code="no_such_seat", field="hand")
    if current["done"] and decision not in ("insurance", "even_money"):
        raise Conflict(f"hand {hand} of seat {seat} is finished", code="hand_finished")
    if decision not in bj.DECISIONS:
        raise InvalidCommand(f"{decision!r} is not a blackjack decision", field="decision")
    allowed = bj.allowed_decisions({"cards": current["cards"], "split": current["split"],
                                    "double": current["double"]}, hands["upcard"])
    if decision not in allowed:
        raise Conflict(f"{decision} is not allowed on this hand now ({' '.join(current['cards'])}"
                       f" against {hands['upcard']}): allowed {', '.join(sorted(allowed)) or 'none'}",
                       code="decision_not_allowed", allowed=sorted(allowed))
    need = {"hit": 1, "double": 1, "split": 2}.get(decision, 0)
    _check_cards(cards, need, "cards")
    holder = next(b for b in bets if b.seat == seat and b.bet_type == "main")
    backs = {b.bet_id: b for b in bets if b.seat == seat and b.bet_type == "back"}
    for follower in followers:
        if follower not in backs:
            raise InvalidCommand(f"{follower!r} is not a back bet on seat {seat}",
                                 field="followers")
    new: list[BetView] = []

    def add(owner: BetView, kind: str, stake_amount: Decimal, fields: dict[str, Any],
            hand_key: str | None = None) -> None:
        new_id = _next_id(used)
        used.add(new_id)
        new.append(BetView(bet_id=new_id, seat=seat, player=owner.player, bet_type=kind,
                           amount=stake_amount, stage="decision", hand_key=hand_key,
                           bet={"id": new_id, "type": kind, "amount": fmt(stake_amount)} | fields))

    if decision == "split":
        after = play.apply_decision(hands, seat, hand, "split", cards)
        new_key = after["seats"][str(seat)][hand]["key"]
        for owner in [holder, *(backs[f] for f in followers)]:
            if _stake_on_hand(bets, owner, current["key"], seat) is None:
                raise InvalidCommand(f"{owner.bet_id} is not on this hand", field="followers")
            add(owner, "split", owner.amount, {"bet": owner.bet_id, "hand": hand + 1}, new_key)
    elif decision == "double":
        for owner in [holder, *(backs[f] for f in followers)]:
            stake = _stake_on_hand(bets, owner, current["key"], seat)
            if stake is None:
                raise InvalidCommand(f"{owner.bet_id} has no stake on this hand",
                                     field="followers")
            add(owner, "double", stake.amount, {"bet": stake.bet_id})
    elif decision in ("insurance", "even_money"):
        owner_bet = backs.get(bet_id or "") or (holder if bet_id == holder.bet_id else None)
        if owner_bet is None:
            raise InvalidCommand(f"name the main or back bet of seat {seat} that takes "
                                 f"{decision}", field="bet_id")
        if any(b.bet.get("bet") == owner_bet.bet_id for b in bets if b.bet_type == "insurance") \
                or owner_bet.bet.get("even_money"):
            raise Conflict(f"{owner_bet.bet_id} already took insurance or even money",
                           code="already_decided")
        if decision == "insurance":
            if owner_bet.bet_type == "back" and not any(
                    b.bet_type == "insurance" and b.bet.get("bet") == holder.bet_id for b in bets):
                raise Conflict("a back bettor insures only when the seat holder insured "
                               "(Portaria 217/2007, blackjack, n.º 15)",
                               code="decision_not_allowed")
            half = _cents_down(owner_bet.amount / 2)
            value = half if amount is None else parse_amount(amount)
            if value > half:
                raise InvalidCommand(f"insurance is at most half the bet: {half} (n.º 33)",
                                     code="over_limit",
                                     article="Portaria 217/2007, blackjack, n.º 33")
            add(owner_bet, "insurance", value, {"bet": owner_bet.bet_id})
    return new


@pit_command("outcome_record", reads=round_reads)
def outcome_record(*, round_id: str, outcome: dict[str, Any], metadata: Metadata) -> Result:
    """Record what happened, validated by the rules engine against the round's bets."""
    the_round, table = _round_for_command(round_id, metadata)
    _refuse_state(the_round, RoundStatus.CLOSED)
    bets = _bets_of(the_round.round_id)
    if table.game == "stud_poker" and the_round.play.get("decisions"):
        undecided = _undecided_boxes(bets, the_round.play)
        if undecided:
            raise Conflict(f"boxes {undecided} have not called or folded", code="undecided")
    prepared = _prepare_outcome(the_round, table.game, outcome, the_round.point, the_round.play)
    _settle(table.game, the_round.options, prepared, bets, the_round.play)
    answer: Result = {"round_id": str(the_round.round_id), "status": RoundStatus.OUTCOME,
                      "version": the_round.version + 1}
    store.append(the_round.stream,
                 [OutcomeRecorded(round_id=str(the_round.round_id), outcome=prepared)],
                 expected_version=the_round.version, metadata=metadata, answer=answer)
    return answer


@pit_command("round_settle", reads=round_reads)
def round_settle(*, round_id: str, metadata: Metadata) -> Result:
    """Settle the round from the rules engine: one ``BetSettled`` per bet."""
    the_round, table = _round_for_command(round_id, metadata)

    def handler() -> Result:
        _refuse_state(the_round, RoundStatus.OUTCOME)
        bets = _bets_of(the_round.round_id)
        assert the_round.outcome is not None
        settled = _settle(table.game, the_round.options, the_round.outcome, bets, the_round.play)
        plan = _settlement(table, str(the_round.round_id), str(the_round.session_id), settled,
                           bets)
        answer: Result = {"round_id": str(the_round.round_id), "result": str(plan.result),
                          "prizes": str(plan.prizes), "handle": str(plan.handle),
                          "version": the_round.version + len(plan.events)}
        chips = jp.round_jackpot_bets(the_round)  # the pool's coup decides them, not the append
        store.append(the_round.stream, plan.events, expected_version=the_round.version,
                     metadata=metadata, answer=None if chips else answer)
        if chips:  # the pool's coup, with the round (docs/jackpots.md § Integration)
            answer["jackpot"] = jp.coup_record(round_id=str(the_round.round_id),
                                               bets=jp.chip_specs(chips),
                                               pool_id=chips[0].pool_id, metadata=metadata)
        return answer

    return handler()


@pit_command("round_void")
def round_void(*, round_id: str, reason: str, metadata: Metadata) -> Result:
    """A void round (golpe nulo): nothing is settled; bets carried into it keep working.

    Jackpot chips: still on the layout (betting open) they go back to their players; collected
    («nada mais» called) they are in the pool, and the pool records a void coup: contributions,
    no prize (``docs/jackpots.md`` § Void rounds)."""
    the_round = _round_only(round_id, metadata)
    if not reason.strip():
        raise InvalidCommand("say why the round is void", field="reason")

    def handler() -> Result:
        _refuse_state(the_round, RoundStatus.BETTING, RoundStatus.CLOSED, RoundStatus.OUTCOME)
        back = [{"bet_id": b.bet_id, "seat": b.seat, "player": b.player, "bet": b.bet,
                 "amount": str(b.amount), "base": b.base, "from_round_id": b.carried_from}
                for b in _bets_of(the_round.round_id) if b.carried_from]
        store.append(the_round.stream,
                     [RoundVoided(round_id=str(the_round.round_id),
                                  session_id=str(the_round.session_id), reason=reason.strip(),
                                  carried_back=back)],
                     expected_version=the_round.version, metadata=metadata)
        answer: Result = {"round_id": str(the_round.round_id), "status": RoundStatus.VOIDED}
        chips = jp.round_jackpot_bets(the_round)
        if chips and the_round.status != RoundStatus.BETTING:
            answer["jackpot"] = jp.coup_record(round_id=str(the_round.round_id),
                                               bets=jp.chip_specs(chips),
                                               pool_id=chips[0].pool_id, metadata=metadata)
        return answer

    return handler()


@pit_command("round_correct", reads=round_reads)
def round_correct(*, round_id: str, outcome: dict[str, Any], reason: str, metadata: Metadata
                  ) -> Result:
    """Correct a settled round's outcome and re-settle it, approved by a pit boss who is not the
    person who recorded the mistake (four eyes)."""
    the_round, table = _round_for_command(round_id, metadata)
    if metadata.role != Role.PIT_BOSS:
        raise NotAllowed("a correction is approved by a pit boss", code="not_allowed")
    if metadata.actor == the_round.outcome_by:
        raise NotAllowed(f"{metadata.actor} recorded the outcome being corrected: another pit "
                         "boss must approve the correction (four eyes)", code="four_eyes")
    if not reason.strip():
        raise InvalidCommand("say what the mistake was", field="reason")
    _refuse_state(the_round, RoundStatus.SETTLED)
    bets = _bets_of(the_round.round_id)
    rows = {b.bet_id: b.settled_version for b in Bet.objects.filter(round_id=the_round.round_id)}
    if table.game in CARRY_STATUS:
        later = Round.objects.filter(session_id=the_round.session_id,
                                     number__gt=the_round.number).exists()
        if later or any(b.carried_from for b in bets) or Bet.objects.filter(
                round_id=the_round.round_id, status=CARRY_STATUS[table.game]).exists():
            raise Conflict("this round's bets carried from roll to roll: it can be corrected only "
                           "while it is the last round and nothing carried into or out of it",
                           code="correction_unsupported")
    prepared = _prepare_outcome(the_round, table.game, outcome, the_round.point, the_round.play)
    settled = _settle(table.game, the_round.options, prepared, bets, the_round.play)
    _check_jackpot_cards_kept(the_round, table.game, prepared)
    plan = _settlement(table, str(the_round.round_id), str(the_round.session_id), settled, bets,
                       corrects=rows, result_delta_from=the_round.result)
    if any(isinstance(e, BetSettled) and e.status == CARRY_STATUS.get(table.game)
           for e in plan.events):
        raise Conflict("the corrected outcome leaves bets working: void the round instead",
                       code="correction_unsupported")
    events: list[Event] = [RoundCorrected(
        round_id=str(the_round.round_id), outcome=prepared,
        previous_outcome=the_round.outcome or {}, corrects=the_round.outcome_version or 0,
        mistake_by=the_round.outcome_by, reason=reason.strip())]
    events += plan.events
    store.append(the_round.stream, events, expected_version=the_round.version, metadata=metadata)
    return {"round_id": str(the_round.round_id), "result": str(plan.result),
            "previous_result": str(the_round.result), "version": the_round.version + len(events)}


def _check_jackpot_cards_kept(the_round: Round, game: str, outcome: dict[str, Any]) -> None:
    """A correction may not change the cards that decided a jackpot chip: the pool paid on
    them (prizes the cage may have paid). The jackpot's own correction is an approved meter
    correction (``jackpot_meter_correct``)."""
    if the_round.options.get("jackpot") is None:
        return
    seats = set(JackpotBet.objects.filter(round_id=the_round.round_id)
                .values_list("seat", flat=True))
    before = the_round.outcome or {}
    changed = sorted(seat for seat in seats if jp.jackpot_cards(game, before, seat)
                     != jp.jackpot_cards(game, outcome, seat))
    if changed:
        raise Conflict(f"the correction changes the cards that decided the jackpot chips of "
                       f"seats {changed}, which the pool has paid on: correct the rest of the "
                       "round only, and the jackpot by an approved meter correction",
                       code="jackpot_decided", seats=changed)


@pit_command("round_record", reads=whole_round_reads)
def round_record(*, session_id: str, bets: Sequence[dict[str, Any]], outcome: dict[str, Any],
                 metadata: Metadata, round_id: str | None = None,
                 jackpot_bets: Sequence[dict[str, Any]] = ()) -> Result:
    """A whole round in one command, as an electronic table sends it: open, bets, no more bets,
    outcome and settlement, in one append.

    ``jackpot_bets``: the jackpot chips placed before the deal (as ``jackpot_bet_place`` takes
    them; at blackjack a seat split more than once also gives its first cards in dealing order,
    ``cards``); the pool's coup is recorded right after the round's append."""
    session, table = session_and_table(session_id)
    check_casino(metadata, session.casino_id)
    new_id = round_id or str(uuid.uuid4())

    def handler() -> Result:
        options, pool_id = jp.round_options(table)
        initial = [b for b in bets if b.get("type") not in DECISION_STAKES.get(table.game, ())]
        later = [b for b in bets if b.get("type") in DECISION_STAKES.get(table.game, ())]
        events, placed = _open_events(table, session, new_id, initial, options, whole=True)
        if later:
            decided = _new_bets(table, options, later, placed, stage="decision", whole=True)
            events += [b.placed(new_id) for b in decided]
            placed += decided
        chips: list[JackpotBetPlaced] = []
        if jackpot_bets:
            if pool_id is None:
                raise Conflict(f"table {table.code} feeds no jackpot pool: there is no jackpot "
                               "to bet on", code="no_jackpot", table=table.code)
            chips = jp.new_jackpot_bets(
                game=table.game, seats=table.seats, options=options, round_id=new_id,
                pool_id=pool_id, specs=jackpot_bets,
                main_bets=[(b.seat, b.player, b.bet_type) for b in placed], placed=[],
                used_ids={b.bet_id for b in placed}, allow_cards=True)
            events += chips
        events.append(BettingClosed(round_id=new_id))
        point = session.craps_point if table.game == "craps" else None
        prepared = _prepare_outcome(None, table.game, outcome, point, {})
        settled = _settle(table.game, options, prepared, placed, {})
        events.append(OutcomeRecorded(round_id=new_id, outcome=prepared))
        plan = _settlement(table, new_id, str(session.session_id), settled, placed)
        events += plan.events
        answer: Result = {"round_id": new_id, "number": session.rounds + 1,
                          "result": str(plan.result), "prizes": str(plan.prizes),
                          "handle": str(plan.handle)}
        store.append(f"round/{new_id}", events, expected_version=0, metadata=metadata,
                     answer=None if chips else answer)
        if chips:  # the pool's coup, with the round (docs/jackpots.md § Integration)
            assert pool_id is not None
            given = [{"id": c.bet_id, "seat": c.seat, "player": c.player, "amount": fmt(c.amount)}
                     | ({"cards": spec["cards"]} if "cards" in spec else {})
                     for c, spec in zip(chips, jackpot_bets, strict=True)]
            answer["jackpot"] = jp.coup_record(round_id=new_id, bets=given, pool_id=pool_id,
                                               metadata=metadata)
        return answer

    return handler()
