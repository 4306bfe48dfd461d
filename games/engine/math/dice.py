"""The three-dice games (``banca_francesa``, ``cussec``): exact over the 216 throws.

Every throw of three dice (6³ = 216 ordered outcomes, equally likely) is settled by the engine with
every bet of the game on it.

Banca francesa: a throw whose total decides no chance is a ``push`` for every bet (B1,
``docs/settlement.md`` § Interpretations), and a
push is a settlement with no loss, so the figure is per throw (the bet is settled on every throw).
The per-decision figure (pushes left out) is derived in ``docs/game-math.md``.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from games.engine.math.core import UNIT_TEXT, Distribution, Figure, net_units, settle_round

FACES = range(1, 7)

#: (figure key, bet fields) per game; selections whose figures are equal share a key.
BETS: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {
    "banca_francesa": [
        ({"type": kind}, {"type": kind})
        for kind in ("aces", "small", "big", "small_line", "big_line")
    ],
    "cussec": [
        ({"type": "small"}, {"type": "small"}),
        ({"type": "big"}, {"type": "big"}),
        *(({"type": "single"}, {"type": "single", "number": f}) for f in FACES),
        *(
            ({"type": "combination"}, {"type": "combination", "numbers": [a, b]})
            for a in FACES
            for b in FACES
            if a < b
        ),
        *(({"type": "double"}, {"type": "double", "number": f}) for f in FACES),
        *(({"type": "triple"}, {"type": "triple", "number": f}) for f in FACES),
        ({"type": "any_triple"}, {"type": "any_triple"}),
        *(({"type": "total", "total": t}, {"type": "total", "total": t}) for t in range(4, 18)),
    ],
}


def figures() -> list[Figure]:
    out: list[Figure] = []
    for game, selections in BETS.items():
        bets = [
            {"id": str(i), **fields, "amount": UNIT_TEXT}
            for i, (_, fields) in enumerate(selections)
        ]
        per_bet = [Distribution() for _ in bets]
        for dice in product(FACES, repeat=3):
            result = settle_round(game, {}, {"dice": list(dice)}, bets)
            for dist, line in zip(per_bet, result["bets"], strict=True):
                dist.add(net_units(line))
        seen: dict[str, Figure] = {}
        for (key, fields), dist in zip(selections, per_bet, strict=True):
            fig = dist.figure(game, {}, key)
            first = seen.setdefault(repr(sorted(key.items())), fig)
            if (first.house_edge, first.variance) != (fig.house_edge, fig.variance):
                raise AssertionError(f"{game}: {fields} has another figure than other {key}")
        out.extend(seen.values())
    return out
