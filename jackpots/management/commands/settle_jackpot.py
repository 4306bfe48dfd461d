"""``python manage.py settle_jackpot``: a coup's jackpot payment, JSON Lines in and out.

``spec/jackpots.md`` § Paying a coup as data, with the conventions of ``settle``
(``spec/settlement-contract.md``): one request per input line (UTF-8), one result per output
line in the same order; blank lines are skipped and get no output line; a line that cannot be
paid gets its error object on its own line and the run goes on; a line that is not JSON (``NaN``
and ``Infinity`` included) is ``malformed``. Exit status 0 when every line was paid, 2 when any
was rejected. Nothing else is written to stdout. The same pure code as the platform:
``jackpots.rules.pay_coup``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from django.core.management.base import BaseCommand

from games.engine.errors import malformed
from jackpots.rules import pay_coup

_FLUSH_EVERY = 512  # output lines per write


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# Numbers with a fraction are read as Decimal, never float: an amount written as a number is
# then still "not a string" for the rules.
_decode = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constants).decode
_encode = json.JSONEncoder(separators=(",", ":")).encode


def settle_jackpot_lines(lines: Iterable[bytes], write: Callable[[bytes], object]) -> int:
    """Pay every non-blank line of ``lines``; ``write`` gets the output; returns how many lines
    were rejected."""
    rejected = 0
    out: list[str] = []
    for raw in lines:
        if not raw.strip():
            continue
        try:
            request = _decode(raw.decode("utf-8"))
        except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, NaN / Infinity
            result: dict[str, Any] = malformed(f"the line is not JSON: {error}").as_dict()
        else:
            result = pay_coup(request)
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
        "Pay jackpot coups: JSON Lines on stdin (one pay_coup request per line), one result "
        "(or error) per line on stdout. Exit status 2 if any line was rejected."
    )
    # No database and no checks: nothing but results may reach stdout.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def handle(self, *args: Any, **options: Any) -> None:
        stdout = sys.stdout.buffer
        rejected = settle_jackpot_lines(sys.stdin.buffer, stdout.write)
        stdout.flush()
        if rejected:
            raise SystemExit(2)
