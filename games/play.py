"""The hands of a card game as they are played: pure state transitions (no Django).

Blackjack: the deal gives the bank its up card and each seat two cards; each decision then
changes one hand. The state is a JSON-able dict kept on the round's projection and rebuilt from
``CardsDealt`` / ``DecisionRecorded``; the service asks the rules engine
(``games.engine.blackjack.allowed_decisions``) whether a decision is allowed before recording it.

Each hand has a stable ``key`` (``"1"``, ``"1b"`` ...) because a split puts the new hand right
after the one it came from, which renumbers the hands after it (the engine numbers hands in the
order they were played); split stakes point at the key and get their number when the round is
settled.

Stud poker: ``decisions`` maps a seat to ``call`` or ``fold``.
"""

from __future__ import annotations

from typing import Any

Play = dict[str, Any]


def _copied(value: Any) -> Any:
    """A deep copy of JSON-able ``value`` (dicts, lists, plain values): what ``copy.deepcopy``
    gives for the state, without its memo and dispatch (a rebuild copies it once per
    decision)."""
    if type(value) is dict:
        return {k: _copied(v) for k, v in value.items()}
    if type(value) is list:
        return [_copied(v) for v in value]
    return value


def deal(upcard: str, seats: dict[str, list[str]]) -> Play:
    return {
        "upcard": upcard,
        "seats": {
            seat: [{"key": seat, "cards": list(cards), "split": False, "double": False,
                    "surrender": False, "done": False}]
            for seat, cards in sorted(seats.items(), key=lambda kv: int(kv[0]))
        },
        "decisions": {},
    }


def hand_of(play: Play, seat: int, hand: int) -> dict[str, Any] | None:
    hands: list[dict[str, Any]] | None = play.get("seats", {}).get(str(seat))
    if not hands or not 1 <= hand <= len(hands):
        return None
    found: dict[str, Any] = hands[hand - 1]
    return found


def apply_decision(play: Play, seat: int, hand: int, decision: str, cards: list[str]) -> Play:
    """The state after ``decision`` on ``hand`` (1-based, in play order) of ``seat``."""
    state: Play = _copied(play)
    if decision in ("call", "fold"):  # stud poker: no deal recorded, one decision per seat
        state.setdefault("decisions", {})[str(seat)] = decision
        return state
    hands = state["seats"][str(seat)]
    current = hands[hand - 1]
    if decision == "hit":
        current["cards"].append(cards[0])
    elif decision == "stand":
        current["done"] = True
    elif decision == "double":
        current["double"] = True
        current["cards"].append(cards[0])
        current["done"] = True
    elif decision == "surrender":
        current["surrender"] = True
        current["done"] = True
    elif decision == "split":
        first, second = current["cards"][0], current["cards"][1]
        current["cards"] = [first, cards[0]]
        current["split"] = True
        new: dict[str, Any] = {"key": f"{current['key']}.{sum(1 for h in hands if h['split'])}",
               "cards": [second, cards[1]], "split": True, "double": False,
               "surrender": False, "done": False}
        hands.insert(hand, new)
        if first[0] == "A":  # n.º 26: split aces take one card each
            current["done"] = current["cards"][1][0] != "A"
            new["done"] = new["cards"][1][0] != "A"
    state.setdefault("decisions", {}).setdefault(str(seat), []).append(
        {"hand": hand, "decision": decision, "cards": list(cards)}
    )
    return state


def hand_number(play: Play, seat: int, key: str) -> int | None:
    for index, hand in enumerate(play.get("seats", {}).get(str(seat), []), start=1):
        if hand["key"] == key:
            return index
    return None


def outcome_seats(play: Play) -> list[dict[str, Any]]:
    """The ``seats`` of a blackjack outcome, from the hands as they were played."""
    return [
        {"seat": int(seat),
         "hands": [{"cards": h["cards"], "double": h["double"], "surrender": h["surrender"]}
                   for h in hands]}
        for seat, hands in sorted(play.get("seats", {}).items(), key=lambda kv: int(kv[0]))
    ]
