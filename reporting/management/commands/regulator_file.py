from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.errors import DomainError
from ledger.management.commands._common import day, on
from ledger.selectors import casino_for_command
from reporting.regulator_file import regulator_file


class Command(BaseCommand):
    help = ("Write the daily regulator file (XML, reporting/xsd/regulator-day-1.xsd) of a closed "
            "and sealed gaming day (docs/regulator-file.md).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", required=True, type=day, help="gaming day, YYYY-MM-DD")
        parser.add_argument("--casino", help="casino code (default: the only casino)")
        parser.add_argument("--output", metavar="FILE", help="write here instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            casino = casino_for_command(options["casino"])
            content = regulator_file(casino.code, on(options["day"], casino))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        if options["output"]:
            Path(options["output"]).write_bytes(content)
        else:
            sys.stdout.buffer.write(content)
