"""Round replay, for the regulator: settle a round again with the rules engine and compare.

The recorded settlements are read from the round's events (``BetSettled``, the latest one per bet
when a correction re-settled it); the engine's input is the round's bets, outcome and hands as
projected from those same events (the projections are themselves proved equal to a replay of the
events by ``rebuild_projections --check``). Each bet's status, stake and win must agree; a win the
table's prize cap reduced (stud poker n.º 15) is compared before the cap.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import eventstore
from games import engine
from games.models import RoundStatus
from games.rules.settlement import engine_round
from games.selectors import round_get
from games.services.rounds import _bets_of


def round_replay(*, round_id: str) -> dict[str, Any]:
    the_round = round_get(round_id=round_id)
    answer: dict[str, Any] = {"round_id": str(the_round.round_id), "game": the_round.game,
                              "status": the_round.status, "bets": []}
    if the_round.status != RoundStatus.SETTLED:
        answer.update(matches=None, reason="the round is not settled: nothing to replay")
        return answer
    recorded: dict[str, dict[str, Any]] = {}
    for event in eventstore.read_stream(f"round/{the_round.round_id}"):
        if event.event_type == "BetSettled":
            recorded[event.data["bet_id"]] = event.data
    outcome = the_round.settled_outcome or the_round.outcome or {}
    bets = _bets_of(the_round.round_id)
    result = engine.settle(engine_round(the_round.game, the_round.options, outcome, bets,
                                        the_round.play))
    if "error" in result:
        answer.update(matches=False, reason=f"the engine refuses the round: {result['error']}")
        return answer
    matches = len(recorded) == len(bets)
    for bet, line in zip(bets, result["bets"], strict=True):
        was = recorded.get(bet.bet_id)
        engine_line = {"status": line["status"], "stake": line["stake"], "win": line["win"]}
        recorded_line = None
        agrees = False
        if was is not None:
            win_before_cap = was["capped_win"] if was.get("capped_win") is not None else was["win"]
            recorded_line = {"status": was["status"], "stake": was["stake"],
                             "win": str(Decimal(win_before_cap).quantize(Decimal("0.01")))}
            agrees = (recorded_line["status"] == engine_line["status"]
                      and Decimal(recorded_line["stake"]) == Decimal(engine_line["stake"])
                      and Decimal(recorded_line["win"]) == Decimal(engine_line["win"]))
        matches = matches and agrees
        answer["bets"].append({"bet_id": bet.bet_id, "recorded": recorded_line,
                               "replayed": engine_line, "matches": agrees})
    answer["matches"] = matches
    return answer
