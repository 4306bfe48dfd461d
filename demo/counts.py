"""The demo's closing count of a tray, in the chips it really holds (issue 34).

The demo follows each tray's value round by round, not its pieces. Counting that value largest
chip first claimed pieces no table was ever given (the demo day's players "held" -134 chips of
5,000.00 in Lisbon and -44 of 10,000 in Macau). A count here takes, largest first, no more
pieces of a denomination than the tray holds by the casino's own figures (its float, fills and
credits: ``cage.circulation``) and those the players hold (the chips in circulation, where the
house's winnings come from); a value those pieces cannot make exactly is left out, as before (a
table variance the demo explains).
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from cage.selectors import circulation_state


def tray_count(casino: str, table: str, chip_set: str, value: Decimal,
               denominations: list[Decimal]) -> dict[str, int]:
    """Pieces by denomination making ``value`` (or as near below it as they can), largest
    first, within what the tray and the players hold of each."""
    state = circulation_state(casino=casino)
    tray = state.trays.get(table, Counter())
    players = {(row.chip_set, row.denomination): max(row.in_circulation, 0)
               for row in state.figure().rows}
    out: dict[str, int] = {}
    rest = max(value, Decimal(0))
    for d in sorted(denominations, reverse=True):
        key = (chip_set, Decimal(d))
        available = tray.get(key, 0) + players.get(key, 0)
        pieces = min(int(rest // d), available)
        if pieces > 0:
            out[str(d)] = pieces
            rest -= d * pieces
    return out
