from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import eventstore
from casino.models import Casino


class Command(BaseCommand):
    help = (
        "Replay every event into empty projection tables (or one casino's events into its emptied "
        "rows, --casino). With --check, rebuild beside the live tables, on a snapshot, in a "
        "transaction that is rolled back, and report where the rebuilt state differs from live: "
        "commands and screens go on while it runs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="compare only; change nothing")
        parser.add_argument("--casino", help="only this casino's rows and events (default: all)")
        parser.add_argument("projection", nargs="*", help="only these projections (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        names = options["projection"] or None
        casino = options["casino"]
        if casino is not None and not Casino.objects.filter(code=casino).exists():
            raise CommandError(f"there is no casino {casino!r}")
        try:
            if options["check"]:
                differences = eventstore.check(names, casino=casino)
                if differences:
                    for d in differences:
                        self.stdout.write(f"{d.projection}: table {d.table} differs")
                        for row in d.only_live[:20]:
                            self.stdout.write(f"  only live:    {row}")
                        for row in d.only_rebuilt[:20]:
                            self.stdout.write(f"  only rebuilt: {row}")
                    raise CommandError(f"{len(differences)} table(s) differ from a rebuild")
                checked = ", ".join(p.name for p in eventstore.selected(names))
                self.stdout.write(f"OK: rebuilt state equals live state ({checked})")
            else:
                count = eventstore.rebuild(names, casino=casino)
                self.stdout.write(f"rebuilt from {count} events")
        except KeyError as exc:
            raise CommandError(str(exc)) from None
