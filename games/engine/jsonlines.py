"""JSON Lines in, JSON Lines out (``docs/settlement.md`` § The command; pure, standard library).

Shared by ``manage.py settle`` and ``manage.py settle_jackpot``: one request per input line
(UTF-8), one result per output line in the same order; blank lines are skipped and get no output
line; a line that is not JSON (``NaN`` and ``Infinity`` included) is ``malformed``; a rejected
line gets its error object and the run goes on.

JSON numbers with a fraction or exponent are read as ``Decimal`` (never float), so ``17.0`` is not
taken for the integer 17 and an amount written as a number stays "not a string" (``malformed``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from games.engine.errors import malformed

_FLUSH_EVERY = 512  # output lines per write


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_decode = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constants).decode
_encode = json.JSONEncoder(separators=(",", ":")).encode  # ASCII output: any string survives


def process_lines(
    lines: Iterable[bytes],
    write: Callable[[bytes], object],
    answer: Callable[[Any], dict[str, Any]],
) -> int:
    """Answer every non-blank line with ``answer(request)``; ``write`` gets the output.

    Returns how many lines were rejected (their result holds ``"error"``).
    """
    rejected = 0
    out: list[str] = []
    for raw in lines:
        if not raw.strip():
            continue
        try:
            request = _decode(raw.decode("utf-8"))
        except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, NaN / Infinity
            result: dict[str, Any] = malformed("the line is not JSON: {error}",
                                               params={"error": error}).as_dict()
        else:
            result = answer(request)
        if "error" in result:
            rejected += 1
        out.append(_encode(result))
        if len(out) >= _FLUSH_EVERY:
            out.append("")
            write("\n".join(out).encode("ascii"))
            out.clear()
    if out:
        out.append("")
        write("\n".join(out).encode("ascii"))
    return rejected
