from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.context import system_metadata
from casino.errors import DomainError
from eventstore.answers import as_data
from ledger.selectors import casino_for_command
from ledger.services import period_close

from ._common import day, on


class Command(BaseCommand):
    help = ("Close a gaming day's ledger period: refused if the day is not over, an earlier day "
            "with postings is open, or the day's journal does not balance. Closing a closed day "
            "changes nothing.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", required=True, type=day, help="gaming day, YYYY-MM-DD")
        parser.add_argument("--casino", help="casino code (default: the only casino)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            casino = casino_for_command(options["casino"])
            result = period_close(casino=casino.code, day=on(options["day"], casino),
                                  metadata=system_metadata(casino.code, job="close_period"))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(json.dumps(as_data(result)))
