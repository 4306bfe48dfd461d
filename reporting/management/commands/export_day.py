from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.errors import DomainError
from ledger.management.commands._common import day, on
from ledger.selectors import casino_for_command
from reporting.archives import archive_name, day_archive


class Command(BaseCommand):
    help = ("Write a sealed gaming day of a casino as one archive (its events with their "
            "hashes, results, seal, public key, regulator file, manifest), which "
            "tools/verify_events.py verifies alone (docs/event-hash.md).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", required=True, type=day, help="gaming day, YYYY-MM-DD")
        parser.add_argument("--casino", help="casino code (default: the only casino)")
        parser.add_argument("--output", metavar="FILE",
                            help="the zip to write (default: <casino>-<day>-archive.zip)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            casino = casino_for_command(options["casino"])
            path = Path(options["output"] or archive_name(casino.code, on(options["day"], casino)))
            partial = path.with_name(path.name + ".part")
            with partial.open("wb") as out:
                summary = day_archive(casino=casino.code, gaming_day=on(options["day"], casino), out=out)
        except DomainError as exc:
            if "partial" in locals():
                partial.unlink(missing_ok=True)
            raise CommandError(exc.message) from None
        partial.replace(path)
        self.stderr.write(f"{path}: {summary.events} events of {summary.casino} "
                          f"({summary.first_sequence}-{summary.last_sequence}), "
                          f"{len(summary.files)} files")
