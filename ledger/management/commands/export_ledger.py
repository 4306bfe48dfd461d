from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.errors import DomainError
from ledger import exports
from ledger.reports import trial_balance
from ledger.selectors import casino_for_command, period_bounds

from ._common import day, on


class Command(BaseCommand):
    help = ("Export the journal (or the trial balance) of a period of gaming days as CSV or "
            "XLSX, in constant memory. Without --output, CSV goes to standard output.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="day_from", required=True, type=day)
        parser.add_argument("--to", dest="day_to", required=True, type=day)
        parser.add_argument("--format", choices=["csv", "xlsx"], required=True)
        parser.add_argument("--output", help="file to write (required for xlsx)")
        parser.add_argument("--report", choices=["journal", "trial-balance"], default="journal")
        parser.add_argument("--casino", help="casino code (default: the only casino)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            casino = casino_for_command(options["casino"])
            day_from, day_to = period_bounds(on(options["day_from"], casino),
                                             on(options["day_to"], casino))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        fmt, output, report = options["format"], options["output"], options["report"]
        if fmt == "xlsx" and not output:
            raise CommandError("an XLSX export needs --output FILE")
        if report == "trial-balance":
            tb = trial_balance(casino=casino.code, day_from=day_from, day_to=day_to)
            if fmt == "xlsx":
                exports.trial_balance_xlsx(tb, output)
                return
            blocks = exports.trial_balance_csv(tb)
        elif fmt == "xlsx":
            lines = exports.journal_xlsx(casino=casino.code, day_from=day_from, day_to=day_to,
                                         path=output)
            self.stderr.write(f"{lines} journal lines written to {output}")
            return
        else:
            blocks = exports.journal_csv(casino=casino.code, day_from=day_from, day_to=day_to)
        if output:
            with open(output, "wb") as handle:
                for block in blocks:
                    handle.write(block)
        else:
            out = sys.stdout.buffer
            for block in blocks:
                out.write(block)
            out.flush()
