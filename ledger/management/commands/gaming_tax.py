"""``manage.py gaming_tax --casino C --month YYYY-MM [--format table|csv|json]``: a month's
gaming-tax return, made of its closed days (``docs/gaming-tax.md``)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.context import system_metadata
from casino.errors import DomainError
from ledger.tax_return_files import return_csv, sections
from ledger.taxes import gaming_tax_accrue, monthly_return


class Command(BaseCommand):
    help = "Print a casino's gaming-tax return for a month (its closed days)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--casino", required=True)
        parser.add_argument("--month", required=True, help="YYYY-MM")
        parser.add_argument("--format", choices=["table", "csv", "json"], default="table")
        parser.add_argument("--accrue", action="store_true",
                            help="book the finished month's return in the ledger (as the "
                                 "system: every day with activity must be closed)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["accrue"]:
                gaming_tax_accrue(casino=options["casino"], month=options["month"],
                                  metadata=system_metadata(options["casino"], job="gaming_tax"))
            the_return = monthly_return(options["casino"], options["month"])
        except DomainError as exc:
            raise CommandError(exc.message) from None
        fmt = options["format"]
        if fmt == "csv":
            for block in return_csv(the_return):
                self.stdout.write(block, ending="")
        elif fmt == "json":
            self.stdout.write(json.dumps(
                {name: [dict(zip(header, row, strict=True)) for row in rows]
                 for name, _title, header, rows in sections(the_return)}, indent=2))
        else:
            for name, title, header, rows in sections(the_return):
                if name == "parameter":
                    continue
                self.stdout.write(f"\n{title}")
                widths = [max([len(h), *(len(row[i]) for row in rows)])
                          for i, h in enumerate(header)]
                widths = [min(w, 48) for w in widths]
                self.stdout.write("  ".join(h.ljust(w) for h, w in zip(header, widths,
                                                                      strict=True)))
                for row in rows:
                    self.stdout.write("  ".join(c[:w].ljust(w) for c, w in zip(row, widths,
                                                                              strict=True)))
