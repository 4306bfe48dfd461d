"""``manage.py cells_subscribe``: in a regulator's store, subscribe to a cell."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.jurisdictions import Jurisdiction
from cells.replication import subscribe, unsubscribe


class Command(BaseCommand):
    help = ("Subscribe this regulator's store to a cell's publication of its jurisdiction "
            "(copying what the cell holds, then following it); --drop to unsubscribe.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--cell", required=True, action="append",
                            help="NAME=CONNINFO: the cell's name and its database, as libpq key "
                                 "words ('host=… port=… user=… dbname=…'); repeatable. With "
                                 "--drop, the name only")
        parser.add_argument("--jurisdiction", choices=Jurisdiction.values)
        parser.add_argument("--drop", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["drop"]:
            for cell in options["cell"]:
                unsubscribe(cell)
                self.stdout.write(f"unsubscribed from {cell}")
            return
        if not options["jurisdiction"]:
            raise CommandError("--jurisdiction is needed to subscribe")
        for given in options["cell"]:
            cell, sep, conninfo = given.partition("=")
            if not sep or not cell or not conninfo:
                raise CommandError(f"--cell {given!r}: give NAME=CONNINFO")
            name = subscribe(cell, conninfo, options["jurisdiction"])
            self.stdout.write(f"{name}: following {cell}")
