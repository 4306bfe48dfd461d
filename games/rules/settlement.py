"""A round's settlement: the rules engine's, bet by bet, then the plan of what the round books.

The engine settles the round (``games.engine.settle_or_raise``); :func:`settlement` turns its
lines into the plan the service records as one ``BetSettled`` per bet and a ``RoundSettled``:

- the table's prize cap for one coup (stud poker n.º 15): when the wins add up to more than the
  cap, each win is scaled down to the cap's share, cents rounded down, and the engine's win kept
  as ``capped_win``;
- bets left undecided (``CARRY_STATUS``: a pending craps bet, a banca francesa push) carry to the
  next round, at a come bet's new point; they count in neither the result nor the handle;
- the handle is the new stakes (not those carried in), and the hold check's sums of stakes and
  of their squares go by edge key (``games.hold.edge_key``);
- a correction (``corrects``: bet id -> the version of the settlement it replaces) books no
  handle and no stakes, says how the result moved, and may not leave bets working.

Pure: the table travels as ``TableRules``, the bets as ``BetView``; a refusal is a ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from games import engine, play
from games.engine.errors import RoundError
from games.hold import edge_key
from games.rules.bets import CARRY_STATUS, BetView, TableRules
from games.rules.errors import conflict, from_engine
from games.rules.money import cents_down


def engine_round(game: str, options: dict[str, Any], outcome: dict[str, Any],
                 bets: Iterable[BetView], hands: play.Play) -> dict[str, Any]:
    """The round as the rules engine reads it; a split stake gets its hand's number now."""
    engine_bets = []
    for b in bets:
        item = b.bet
        if b.hand_key is not None:
            item = dict(item, hand=play.hand_number(hands, b.seat, b.hand_key))
        engine_bets.append(item)
    return {"game": game, "options": options, "outcome": outcome, "bets": engine_bets}


def settle(game: str, options: dict[str, Any], outcome: dict[str, Any], bets: list[BetView],
           hands: play.Play) -> dict[str, Any]:
    """The engine's settlement (``{"game", "outcome", "bets"}``, one line per bet in order)."""
    try:
        return engine.settle_or_raise(engine_round(game, options, outcome, bets, hands))
    except RoundError as error:
        raise from_engine(error, field="outcome") from None


@dataclass(frozen=True)
class SettledBet:
    """One bet's settlement, as ``BetSettled`` records it."""

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


@dataclass(frozen=True)
class Settlement:
    """What a round's settlement books (``RoundSettled``'s figures, and one line per bet)."""

    bets: list[SettledBet]
    result: Decimal
    prizes: Decimal
    handle: Decimal
    pending: list[dict[str, Any]] = field(default_factory=list)
    point_after: int | None = None
    stakes: dict[str, list[str]] = field(default_factory=dict)
    correction: bool = False
    result_delta: Decimal | None = None


def settlement(table: TableRules, round_id: str, settled: dict[str, Any], bets: list[BetView],
               *, corrects: dict[str, int | None] | None = None,
               result_delta_from: Decimal | None = None) -> Settlement:
    """The plan of a settled round: ``settled`` is the engine's answer for ``bets`` (in order);
    ``corrects`` and ``result_delta_from`` (the result being corrected) for a correction."""
    lines = settled["bets"]
    cap = table.max_prize_per_coup
    total_win = sum((Decimal(line["win"]) for line in lines), Decimal(0))
    scale = cap / total_win if cap is not None and total_win > cap else None
    carry_status = CARRY_STATUS.get(table.game)
    settled_bets: list[SettledBet] = []
    result = prizes = handle = Decimal("0.00")
    pending: list[dict[str, Any]] = []
    stakes: dict[str, list[Decimal]] = {}
    for bet, line in zip(bets, lines, strict=True):
        status = line["status"]
        stake, win, returned = (Decimal(line["stake"]), Decimal(line["win"]),
                                Decimal(line["returned"]))
        capped_win = None
        if scale is not None and win > 0:
            capped_win, win = win, cents_down(win * scale)
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
        settled_bets.append(SettledBet(
            bet_id=bet.bet_id, seat=bet.seat, player=bet.player, bet_type=bet.bet_type,
            status=status, stake=stake, win=win, returned=returned, carried=carried, point=point,
            corrects=(corrects or {}).get(bet.bet_id), capped_win=capped_win,
        ))
    if corrects is not None and any(b.status == carry_status for b in settled_bets):
        raise conflict("the corrected outcome leaves bets working: void the round instead",
                       code="correction_unsupported")
    return Settlement(
        bets=settled_bets, result=result, prizes=prizes,
        handle=handle if corrects is None else Decimal("0.00"),
        pending=pending,
        point_after=settled["outcome"].get("point_after") if table.game == "craps" else None,
        stakes={k: [str(v[0]), str(v[1])] for k, v in sorted(stakes.items())}
        if corrects is None else {},
        correction=corrects is not None,
        result_delta=None if result_delta_from is None else result - result_delta_from,
    )
