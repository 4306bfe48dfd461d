"""The pit's door for ``casino.players``' rule: a player a command names is a label (a seat, a
pseudonym, a patron), refused (400, ``player``) when it is a name (issue 35)."""

from __future__ import annotations

from typing import Any

from casino.errors import InvalidCommand
from casino.players import LABEL_HELP, is_label


def player_checked(player: Any) -> str:
    """``player`` if it is a label ("" included); a name is refused."""
    if not isinstance(player, str) or not is_label(player.strip()):
        raise InvalidCommand(LABEL_HELP, code="player_not_a_label", field="player")
    return player.strip()
