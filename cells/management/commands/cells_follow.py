"""``manage.py cells_follow``: in a regulator's store, follow every casino's chain."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cells.follower import Followed, follow, follow_forever
from cells.lag import is_store


class Command(BaseCommand):
    help = ("Apply each casino's new events through the platform's projections, checking every "
            "link, hash and seal as they arrive (docs/cells.md). --once: one pass.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true")
        parser.add_argument("--interval", type=float, default=1.0)
        parser.add_argument("--casino", action="append",
                            help="follow these casinos only (repeatable): followers of different "
                                 "casinos run side by side")

    def handle(self, *args: Any, **options: Any) -> None:
        if not is_store():
            raise CommandError("this database is not a regulator's store (python manage.py "
                               "cells_subscribe makes one): its projections are live already")
        if options["once"]:
            self._report(follow(casinos=options["casino"]))
            return
        follow_forever(interval=options["interval"], casinos=options["casino"],
                       tick=self._report)

    def _report(self, done: list[Followed]) -> None:
        for f in done:
            if f.applied or f.alarm:
                self.stdout.write(f"{f.casino}: +{f.applied} to {f.last_sequence}"
                                  + (f"  ALARM: {f.alarm}" if f.alarm else ""))
        self.stdout.flush()
