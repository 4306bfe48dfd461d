from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.context import system_metadata
from casino.errors import DomainError
from eventstore.answers import as_data
from ledger.management.commands._common import day, on
from ledger.selectors import casino_for_command
from reporting.closes import gaming_day_close


class Command(BaseCommand):
    help = ("Close a casino's gaming day whole: every session and shift closed, chips in "
            "circulation recorded, the day reconciled (or each difference with an approved "
            "exception), its figures fixed and its ledger period closed. Refused, saying what is "
            "missing, otherwise; closing a closed day changes nothing.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", required=True, type=day, help="gaming day, YYYY-MM-DD")
        parser.add_argument("--casino", help="casino code (default: the only casino)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            casino = casino_for_command(options["casino"])
            result = gaming_day_close(casino=casino.code, gaming_day=on(options["day"], casino),
                                      metadata=system_metadata(casino.code, job="close_day"))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(json.dumps(as_data(result), indent=2))
