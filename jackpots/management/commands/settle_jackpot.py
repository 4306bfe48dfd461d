"""``python manage.py settle_jackpot``: a coup's jackpot payment, JSON Lines in and out.

``docs/jackpots.md`` § Paying a coup as data, with the conventions of ``settle``
(``docs/settlement.md`` § The command): one request per input line (UTF-8), one result per output
line in the same order; blank lines are skipped and get no output line; a line that cannot be
paid gets its error object on its own line and the run goes on; a line that is not JSON (``NaN``
and ``Infinity`` included) is ``malformed``. Exit status 0 when every line was paid, 2 when any
was rejected. Nothing else is written to stdout. The same pure code as the platform:
``jackpots.rules.pay_coup``.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.engine.jsonlines import process_lines
from jackpots.rules import pay_coup


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
        rejected = process_lines(sys.stdin.buffer, stdout.write, pay_coup)
        stdout.flush()
        if rejected:
            raise SystemExit(2)
