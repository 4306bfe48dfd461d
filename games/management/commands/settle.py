"""``python manage.py settle``: JSON Lines in, JSON Lines out, through the same engine.

``spec/settlement-contract.md``: one round per input line (UTF-8), one result per output line in
the same order; blank lines are skipped and get no output line; a line that cannot be settled gets
its error object and the run goes on; a line that is not JSON (``NaN`` and ``Infinity`` included)
is ``malformed``. Exit status 0 when every line settled, 2 when any was rejected. Nothing else is
written to stdout.

JSON numbers with a fraction or exponent are read as ``Decimal`` (never float), so ``17.0`` is not
taken for the integer 17 and an amount written as a number stays "not a string" (``malformed``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from django.core.management.base import BaseCommand

from games.engine import settle
from games.engine.errors import malformed

_FLUSH_EVERY = 512  # output lines per write


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_decode = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constants).decode
_encode = json.JSONEncoder(separators=(",", ":")).encode  # ASCII output: any string survives


def settle_lines(lines: Iterable[bytes], write: Callable[[bytes], object]) -> int:
    """Settle every non-blank line of ``lines``; ``write`` gets the output; returns how many
    lines were rejected."""
    rejected = 0
    out: list[str] = []
    for raw in lines:
        if not raw.strip():
            continue
        try:
            round_ = _decode(raw.decode("utf-8"))
        except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, NaN / Infinity
            result: dict[str, Any] = malformed(f"the line is not JSON: {error}").as_dict()
        else:
            result = settle(round_)
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


class Command(BaseCommand):
    help = (
        "Settle rounds: JSON Lines on stdin, one result (or error) per line on stdout. "
        "Exit status 2 if any line was rejected."
    )
    # No system checks and no migration check: this command touches no database, and nothing
    # but results may reach stdout.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def handle(self, *args: Any, **options: Any) -> None:
        stdout = sys.stdout.buffer
        rejected = settle_lines(sys.stdin.buffer, stdout.write)
        stdout.flush()
        if rejected:
            raise SystemExit(2)
