"""One coup of a pool: contributions, hits and reset, recorded in the round's settlement.

The table-operations code calls :func:`jackpot_coup_settle` inside the transaction that settles
a round with jackpot bets (``docs/jackpots.md`` § Integration with rounds). The payment is
decided by the pure rules (``jackpots.rules.coup``) from a request that is recorded as it was
given (``JackpotCoupSettled``), so anyone can recompute it with ``pay_coup`` or
``manage.py settle_jackpot``.

Concurrency: the pool's row is locked (``SELECT ... FOR UPDATE``) before its meter is read, so
two rounds of linked tables settling at once are paid one after the other, each from the meter
the other left; the append's expected stream version is the second line of defence. A round is
paid once per pool (idempotent by state, and a UNIQUE key on ``JackpotCoup``).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from casino.errors import Conflict, InvalidCommand
from casino.money import fmt, parse_amount
from eventstore import store
from eventstore.commands import command
from eventstore.events import Event
from eventstore.records import Metadata
from eventstore.store import ConcurrencyError
from games.models import Bet, Round
from jackpots import rules
from jackpots.answers import CoupPrize, CoupSettleAnswer
from jackpots.events import JackpotContributed, JackpotCoupSettled, JackpotHit, JackpotReset
from jackpots.models import JackpotConfigVersion, JackpotCoup, JackpotPool, JackpotPrize

from ._common import (
    MAIN_BET_ARTICLE,
    ONE_CHIP_ARTICLE,
    concurrent,
    pool_for_update,
    rules_error,
)

ZERO = Decimal("0.00")
#: The main-game bets that entitle a player to a jackpot chip on their seat (BJ n.º 45, SP n.º 16).
MAIN_BET_TYPES = {"blackjack": ("main", "back"), "stud_poker": ("ante",)}


def _config_for_round(pool: JackpotPool, round_id: str,
                      opened_at: dt.datetime | None) -> JackpotConfigVersion:
    """The configuration in force when the round opened (a change never applies to a round
    already open). ``opened_at`` defaults to the pit's record of the round; a round the pit does
    not know is paid with the configuration in force now."""
    if opened_at is None:
        opened_at = _round_opened_at(round_id)
    versions = JackpotConfigVersion.objects.filter(casino_id=pool.casino_id, pool_id=pool.pool_id)
    if opened_at is not None:
        versions = versions.filter(effective_at__lte=opened_at)
    found = versions.order_by("-version").first()
    if found is None:
        raise Conflict("round {round_id} opened before pool {pool_id} existed",
                       params={"round_id": round_id, "pool_id": pool.pool_id},
                       code="pool_not_in_force", round=round_id)
    return found


def _round_opened_at(round_id: str) -> dt.datetime | None:
    try:
        key = uuid.UUID(round_id)
    except ValueError:
        return None
    opened: dt.datetime | None = (Round.objects.filter(round_id=key)
                                  .values_list("opened_at", flat=True).first())
    return opened


def _main_bets(round_id: str, game: str) -> dict[int, set[str]] | None:
    """Seat -> players with a main-game bet there, when the pit knows the round (else None)."""

    try:
        key = uuid.UUID(round_id)
    except ValueError:
        return None
    if not Round.objects.filter(round_id=key).exists():
        return None
    seats: dict[int, set[str]] = {}
    for seat, player in Bet.objects.filter(round_id=key, withdrawn=False,
                                           bet_type__in=MAIN_BET_TYPES[game]
                                           ).values_list("seat", "player"):
        seats.setdefault(seat, set()).add(player)
    return seats


def _check_bets(pool: JackpotPool, round_id: str, bets: Sequence[dict[str, Any]], *,
                void: bool = False) -> list[dict[str, Any]]:
    """The coup's jackpot bets as given by the table: shape, one chip per player and coup
    (BJ n.º 47), a main-game bet on the seat (BJ n.º 45, SP n.º 16). The bet amounts and the
    cards are checked by the pure rules."""
    if not isinstance(bets, list | tuple) or not bets:
        raise InvalidCommand("a coup of the jackpot has one jackpot bet or more", field="bets")
    main = _main_bets(round_id, pool.game)
    checked: list[dict[str, Any]] = []
    players: set[str] = set()
    seats_used: dict[int, int] = {}
    ids: set[str] = set()
    for index, bet in enumerate(bets):
        if not isinstance(bet, dict):
            raise InvalidCommand("jackpot bet {index} is not an object",
                                 params={"index": index + 1}, field="bets")
        seat = bet.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 7:
            raise InvalidCommand("each jackpot bet names its seat (1 to 7)", field="seat")
        player = bet.get("player") or f"seat-{seat}"
        if not isinstance(player, str) or len(player) > 100:
            raise InvalidCommand("player is a name of at most 100 characters", field="player")
        if player in players or (pool.game == "stud_poker" and seat in seats_used):
            raise InvalidCommand(
                "{player} has a jackpot chip already in this coup: one chip per player and coup "
                "({one_chip_article})",
                params={"player": player, "one_chip_article": ONE_CHIP_ARTICLE[pool.game]}, code="one_chip_per_player", field="bets",
                article=ONE_CHIP_ARTICLE[pool.game], seat=seat)
        if main is not None and (seat not in main or (bet.get("player") and player not in main[seat])):
            raise InvalidCommand(
                "{player} has no bet in the main game on seat {seat}: only a player who bet the "
                "main game may bet the jackpot ({main_bet_article})",
                params={"player": player, "seat": seat, "main_bet_article": MAIN_BET_ARTICLE[pool.game]},
                code="no_main_bet", field="bets", article=MAIN_BET_ARTICLE[pool.game], seat=seat)
        players.add(player)
        seats_used[seat] = seats_used.get(seat, 0) + 1
        bet_id = bet.get("id") or (f"seat{seat}" if seats_used[seat] == 1
                                   else f"seat{seat}.{seats_used[seat]}")
        if not isinstance(bet_id, str) or len(bet_id) > 64 or bet_id in ids:
            raise InvalidCommand("jackpot bet id {bet_id!r} is not a new id of at most 64 "
                                 "characters", params={"bet_id": bet_id}, field="id")
        ids.add(bet_id)
        amount = bet.get("amount")
        if isinstance(amount, Decimal | int) and not isinstance(amount, bool):
            amount = fmt(parse_amount(amount, field="amount"))  # the pit's Decimal; no float
        item: dict[str, Any] = {"id": bet_id, "amount": amount}
        if not void or bet.get("cards") is not None:
            item["cards"] = bet.get("cards")
        if pool.game == "stud_poker":
            item["folded"] = bet.get("folded", False)
        elif bet.get("folded"):
            raise InvalidCommand("only a stud poker hand can fold", field="folded")
        checked.append({"request": item, "seat": seat, "player": player})
    return checked


def _answer(pool: JackpotPool, coup: JackpotCoup) -> CoupSettleAnswer:
    prizes = JackpotPrize.objects.filter(casino_id=pool.casino_id, pool_id=pool.pool_id,
                                         round_id=coup.round_id).order_by("position")
    return CoupSettleAnswer(
        pool_id=pool.pool_id, round_id=coup.round_id, table=coup.table,
        config_version=coup.config_version, result=coup.result,
        prizes=[CoupPrize(prize_id=p.prize_id, bet_id=p.bet_id, seat=p.seat, player=p.player,
                          combination=p.combination, amount=fmt(p.amount))
                for p in prizes])


@command("jackpot_coup_settle")
def jackpot_coup_settle(
    *,
    pool_id: str,
    round_id: str,
    table: str,
    bets: Sequence[dict[str, Any]],
    metadata: Metadata,
    opened_at: dt.datetime | None = None,
    void: bool = False,
) -> CoupSettleAnswer:
    """Record one coup of pool ``pool_id`` at ``table``: the contributions of its jackpot bets, the
    prizes they won and the reset after a top prize, in the caller's transaction (the round's
    settlement).

    ``bets``: one per jackpot chip, ``{"seat", "player", "amount", "cards", "folded"?, "id"?}``;
    ``cards`` are the seat's first two to four cards in dealing order (blackjack, split pairs
    included) or the player's five (stud poker); ``folded`` is stud poker's. Paid whatever the
    main bet did and whether or not the bank qualified (BJ n.º 43, SP n.º 9).

    ``void``: the round was annulled (golpe nulo) after its jackpot chips were collected: they
    stay in the pool (BJ n.os 41, 48; SP n.os 4, 16), the bets carry no cards and win nothing
    (``pay_coup``'s ``void`` extension; ``docs/jackpots.md`` § Void rounds).

    Returns the recorded answer: the ``pay_coup`` result and the prizes awarded (their ids are
    what the cage pays, ``jackpot_prize_pay``). Settling a round twice returns the first answer.
    """
    casino = metadata.casino
    round_key = str(round_id)
    pool = pool_for_update(casino, pool_id)  # serialises the coups of the pool
    done = JackpotCoup.objects.filter(casino_id=casino, pool_id=pool_id,
                                      round_id=round_key).first()
    if done is not None:
        return _answer(pool, done)
    version = _config_for_round(pool, round_key, opened_at)
    config = version.config
    if table not in config["tables"]:
        raise Conflict("table {table} did not feed pool {pool_id} when round {round_key} opened",
                       params={"table": table, "pool_id": pool_id, "round_key": round_key},
                       code="table_not_in_pool", table=table)
    given = _check_bets(pool, round_key, bets, void=void)
    request: dict[str, Any] = {"game": pool.game, "jackpot": config["jackpot"],
                               "pool": fmt(pool.amount), "bets": [g["request"] for g in given]}
    if config.get("cap") is not None:
        request["cap"] = config["cap"]
    if void:
        request["void"] = True
    try:
        coup = rules.coup(request)
    except rules.RoundError as error:
        raise rules_error(error, field="bets") from None

    reserve_percent = Decimal(config.get("reserve_percent") or "0")
    lines: list[dict[str, Any]] = []
    to_reserve = ZERO
    for g, bet, increment, diverted in zip(given, coup.bets, coup.increments, coup.diverted,
                                           strict=True):
        share = rules.reserve_share(bet.amount, reserve_percent) + diverted
        to_reserve += share
        lines.append({"bet_id": bet.id, "seat": g["seat"], "player": g["player"],
                      "amount": fmt(bet.amount), "to_pool": fmt(increment - diverted),
                      "to_reserve": fmt(share), "diverted": fmt(diverted)})
    staked = sum((bet.amount for bet in coup.bets), ZERO)
    reserve = pool.reserve + to_reserve
    events: list[Event] = [JackpotContributed(
        pool_id=pool_id, round_id=round_key, table=table, config_version=version.version,
        bets=tuple(lines), amount=staked, to_pool=coup.to_pool, to_reserve=to_reserve,
        diverted=coup.diverted_total, retained=staked - coup.to_pool - to_reserve,
        pool_after=coup.pool_at_payment, reserve_after=reserve)]

    who = {g["request"]["id"]: g for g in given}
    meter = coup.pool_at_payment
    for payment in coup.payments:  # lowest-ranked combination first (JP-3)
        for bet_id in payment.winners:
            if payment.each == 0:
                continue  # nothing left to pay: the combination shows in the result only
            events.append(JackpotHit(
                pool_id=pool_id, prize_id=str(uuid.uuid4()), round_id=round_key, table=table,
                bet_id=bet_id, seat=who[bet_id]["seat"], player=who[bet_id]["player"],
                combination=payment.combination, top=payment.top, amount=payment.each,
                nominal=payment.nominal, winners=len(payment.winners), pool_before=meter,
                pool_after=meter - payment.each))
            meter -= payment.each
    if coup.jackpot_won:  # rule 5: restart at the start value, funded from the reserve first
        from_reserve = min(reserve, coup.restart)
        reserve -= from_reserve
        events.append(JackpotReset(
            pool_id=pool_id, round_id=round_key, table=table, start=coup.restart,
            leftover=coup.leftover, from_reserve=from_reserve,
            from_casino=coup.restart - from_reserve, pool_after=coup.pool_after,
            reserve_after=reserve))
        meter += coup.restart
    assert meter == coup.pool_after, (meter, coup.pool_after)
    events.append(JackpotCoupSettled(
        pool_id=pool_id, round_id=round_key, table=table, config_version=version.version,
        request=request, result=coup.result(),
        seats={g["request"]["id"]: {"seat": g["seat"], "player": g["player"]} for g in given}))
    try:
        store.append(pool.stream, events, expected_version=pool.version, metadata=metadata)
    except ConcurrencyError as exc:
        raise concurrent(exc) from None
    pool.refresh_from_db()
    recorded = JackpotCoup.objects.get(casino_id=casino, pool_id=pool_id, round_id=round_key)
    return _answer(pool, recorded)
