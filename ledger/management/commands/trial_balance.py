from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.errors import DomainError
from ledger import exports
from ledger.reports import trial_balance
from ledger.selectors import casino_for_command, period_bounds

from ._common import day, on


class Command(BaseCommand):
    help = "Print the trial balance of a period of gaming days (inclusive)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="day_from", required=True, type=day)
        parser.add_argument("--to", dest="day_to", required=True, type=day)
        parser.add_argument("--format", choices=["table", "csv", "json"], default="table")
        parser.add_argument("--casino", help="casino code (default: the only casino)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            casino = casino_for_command(options["casino"])
            day_from, day_to = period_bounds(on(options["day_from"], casino),
                                             on(options["day_to"], casino))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        report = trial_balance(casino=casino.code, day_from=day_from, day_to=day_to)
        fmt = options["format"]
        if fmt == "csv":
            for block in exports.trial_balance_csv(report):
                self.stdout.write(block.decode(), ending="")
        elif fmt == "json":
            self.stdout.write(json.dumps({
                "casino": report.casino, "currency": report.currency,
                "from": str(report.day_from), "to": str(report.day_to),
                "debit": str(report.debit), "credit": str(report.credit),
                "balanced": report.balanced,
                "accounts": [dict(zip(exports.TRIAL_BALANCE_COLUMNS, map(str, row), strict=True))
                             for row in exports.trial_balance_rows(report)],
            }, indent=2))
        else:
            self._table(report)
        if not report.balanced:
            sys.stderr.write("the trial balance does not balance\n")
            raise CommandError("unbalanced")

    def _table(self, report: Any) -> None:
        w = self.stdout.write
        w(f"Trial balance {report.casino} ({report.currency}) {report.day_from} to "
          f"{report.day_to}")
        header = f"{'account':<18} {'name':<52} {'opening':>14} {'debit':>14} {'credit':>14} " \
                 f"{'closing':>14}"
        w(header)
        w("-" * len(header))
        for r in report.rows:
            w(f"{r.code:<18} {r.name[:52]:<52} {r.opening:>14} {r.debit:>14} {r.credit:>14} "
              f"{r.closing:>14}")
        w("-" * len(header))
        w(f"{'total':<18} {'':<52} {'':>14} {report.debit:>14} {report.credit:>14} "
          f"{report.closing:>14}")
