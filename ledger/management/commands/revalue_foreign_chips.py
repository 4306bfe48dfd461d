from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.context import system_metadata
from casino.errors import DomainError
from eventstore.answers import as_data
from ledger.chip_revaluation import foreign_chips_revalue
from ledger.selectors import casino_for_command


class Command(BaseCommand):
    help = ("Revalue each foreign currency's chips in players' hands at the middle rate in "
            "force (run at the end of the gaming day: its closing rate); once a gaming day per "
            "currency (docs/currencies.md).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--casino", help="casino code (default: the only casino)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            casino = casino_for_command(options["casino"])
            result = foreign_chips_revalue(
                metadata=system_metadata(casino.code, job="revalue_foreign_chips"))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(json.dumps(as_data(result)))
