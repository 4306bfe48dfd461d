from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.errors import DomainError
from ledger.management.commands._common import day, on
from ledger.selectors import casino_for_command
from reporting.reconciliation import Report, reconcile


def table(report: Report) -> str:
    rows = [("", "area", "subject", "what", "platform", "ledger", "difference", "note")]
    for line in report.lines:
        rows.append(("ok" if line.ok else "XX", line.area, line.subject, line.what,
                     "" if line.platform is None else str(line.platform),
                     "" if line.ledger is None else str(line.ledger),
                     str(line.difference) if line.platform is not None
                     and line.ledger is not None else "", line.note))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    numeric = {4, 5, 6}
    out = []
    for r in rows:
        out.append("  ".join(c.rjust(w) if i in numeric else c.ljust(w)
                             for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip())
    verdict = ("everything reconciles" if report.ok else
               f"{len(report.failures)} line(s) differ or are unexplained")
    out.append(f"\n{report.casino} {report.gaming_day}: {verdict}")
    return "\n".join(out)


class Command(BaseCommand):
    help = ("Every reconciliation of a gaming day side by side with its difference: chips in "
            "circulation, each cage and shift, each table's win, each drop box, each jackpot "
            "pool, against the ledger; and what awaits approval. Exit status 1 when anything "
            "differs or is unexplained.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", required=True, type=day, help="gaming day, YYYY-MM-DD")
        parser.add_argument("--casino", help="casino code (default: the only casino)")
        parser.add_argument("--format", choices=("table", "json"), default="table")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            casino = casino_for_command(options["casino"])
            report = reconcile(casino=casino.code, gaming_day=on(options["day"], casino))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        if options["format"] == "json":
            self.stdout.write(json.dumps(report.as_dict(), indent=2))
        else:
            self.stdout.write(table(report))
        if not report.ok:
            sys.exit(1)
