"""``python manage.py cell_day --casino lisboa``: a demo day of one cell's casinos only."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.cells import close_day, play_cell_day
from games.models import TableSession


class Command(BaseCommand):
    help = ("Play a demo gaming day at this cell's casinos only (registered if missing), then "
            "close and seal each casino's day (docs/cells.md).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--casino", action="append", required=True)
        parser.add_argument("--tables", type=int, default=2)
        parser.add_argument("--rounds-per-table", type=int, default=5)
        parser.add_argument("--seed", type=int, default=2007)
        parser.add_argument("--no-close", action="store_true", help="play, leave the day open")
        parser.add_argument("--close-only", action="store_true",
                            help="close and seal the day played already, play nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["close_only"]:
            for casino in options["casino"]:
                day = (TableSession.objects.filter(casino_id=casino).order_by("-gaming_day")
                       .values_list("gaming_day", flat=True).first())
                if day is None:
                    raise CommandError(f"{casino} played no day to close")
                close_day(casino, day)
                self.stdout.write(f"{casino}: {day} closed and sealed")
            return
        played = play_cell_day(options["casino"], tables=options["tables"],
                               rounds=options["rounds_per_table"], seed=options["seed"],
                               close=not options["no_close"])
        for s in played:
            self.stdout.write(f"{s.casino_id}/{s.table} {s.game} drop {s.drop} win {s.table_win}")
