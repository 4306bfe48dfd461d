"""A player at a table is a label, never a name (issue 35, finding 4; ``docs/patrons.md``, §
Players at a table). Pure: no Django.

An event is immutable and leaves in the regulator's archive: a name in it could never be
crypto-shredded. So the pit names a player by

* their seat: ``seat-3``;
* a pseudonymous label the pit hands out for the night (a back bettor, a colour chips player):
  ``P-`` and 4 to 16 hexadecimal digits, ``P-7f3a``; it names nobody;
* an identified patron: ``patron-<the patron's id>``, whose identity only the compliance vault
  (``compliance.vault``) holds, encrypted, shredded on request;

or not at all (""). Anything else (a name) is refused at the door (``edge.bounds``: a 400
naming the field). Events recorded before this rule named players in free text: they cannot be
rewritten (their hashes chain them), so ``pseudonymised`` is their upcaster: read, served and
folded into projections, such a name becomes its seat's label.
"""

from __future__ import annotations

import re
from typing import Any

PLAYER_LABEL = re.compile(
    r"seat-[1-9][0-9]?|P-[0-9a-fA-F]{4,16}"
    r"|patron-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
LABEL_HELP = ("a player is named by a label, never a name: seat-3, a pseudonym P-7f3a (4 to 16 "
              "hexadecimal digits) or patron-<patron id>")


def is_label(value: str) -> bool:
    """Whether ``value`` names a player without naming a person ("" too: nobody said)."""
    return value == "" or PLAYER_LABEL.fullmatch(value) is not None


def label_of(player: Any, seat: Any) -> str:
    """``player`` if it is a label, else the seat's label (or "" without a seat)."""
    if isinstance(player, str) and is_label(player):
        return player
    return f"seat-{seat}" if isinstance(seat, int) and not isinstance(seat, bool) and seat > 0 \
        else ""


def pseudonymised(data: dict[str, Any]) -> dict[str, Any]:
    """The upcaster of every event that named players in free text: each ``player`` anywhere in
    ``data`` (a bet's, a coup's seats...) replaced by its label (``label_of``)."""

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            out = {k: walk(v) for k, v in value.items()}
            if "player" in out:
                out["player"] = label_of(value["player"], value.get("seat"))
            return out
        if isinstance(value, list | tuple):
            return [walk(v) for v in value]
        return value

    return dict(walk(data))
