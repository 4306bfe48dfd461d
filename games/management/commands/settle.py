"""``python manage.py settle``: JSON Lines in, JSON Lines out, through the same engine.

``docs/settlement.md`` § The command: one round per input line (UTF-8), one result per output line
in the same order; blank lines are skipped and get no output line; a line that cannot be settled
gets its error object and the run goes on; a line that is not JSON (``NaN`` and ``Infinity``
included) is ``malformed``. Exit status 0 when every line settled, 2 when any was rejected. Nothing
else is written to stdout.

JSON numbers with a fraction or exponent are read as ``Decimal`` (never float), so ``17.0`` is not
taken for the integer 17 and an amount written as a number stays "not a string" (``malformed``).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.engine import settle
from games.engine.jsonlines import process_lines


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
        rejected = process_lines(sys.stdin.buffer, stdout.write, settle)
        stdout.flush()
        if rejected:
            raise SystemExit(2)
