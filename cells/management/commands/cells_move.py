"""``manage.py cells_move``: in the target cell, carry a casino's chain from another cell."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cells.lag import is_store
from cells.move import MoveRefused, move_casino


class Command(BaseCommand):
    help = ("Move a casino into this cell from another (docs/cells.md, § Moving a casino): the "
            "source records no more of its events; its chain is carried whole and verified.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--casino", required=True)
        parser.add_argument("--source", required=True,
                            help="the source cell's database, as libpq key words or a URL")
        parser.add_argument("--cell", required=True, help="this cell's name (the source records "
                                                          "where the casino went)")

    def handle(self, *args: Any, **options: Any) -> None:
        if is_store():
            raise CommandError("this database is a regulator's store, not a cell")
        try:
            moved = move_casino(options["casino"], options["source"], options["cell"])
        except MoveRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(f"{moved.casino}: {moved.events} events carried ("
                          f"{moved.command_records} command records, {moved.sealed_files} "
                          f"sealed files); last hash {moved.last_hash}")
