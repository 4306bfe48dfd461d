"""``manage.py cells_publish``: in a cell, publish its events to the regulators' stores."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from casino.jurisdictions import Jurisdiction
from cells.replication import publish


class Command(BaseCommand):
    help = ("Create (or set again) this cell's publication per jurisdiction: the event table, "
            "inserts only, the rows of the cell's casinos of that jurisdiction (docs/cells.md).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--jurisdiction", action="append", choices=Jurisdiction.values,
                            help="one jurisdiction (repeatable; default: every one)")
        parser.add_argument("--casino", action="append",
                            help="the cell's casinos of that jurisdiction (repeatable; default: "
                                 "those registered here); none: an empty publication")

    def handle(self, *args: Any, **options: Any) -> None:
        for jurisdiction in options["jurisdiction"] or Jurisdiction.values:
            name, casinos = publish(jurisdiction, options["casino"])
            self.stdout.write(f"{name}: {', '.join(casinos) or '(no casino of it here)'}")
