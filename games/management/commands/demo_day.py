"""``python manage.py demo_day``: a realistic, reproducible gaming day across every game."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from casino.models import Casino
from games.demo import DEMO_TABLES, play_day
from games.models import TableSession


class Command(BaseCommand):
    help = ("Play a demo gaming day through the pit's services: sessions opened with floats, "
            "rounds with bets from several seats at every game, drops, fills, credits, a void, a "
            "correction, and the closes. Creates the demo casinos and tables when missing.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=sum(len(t) for t in DEMO_TABLES.values()),
                            help="how many tables (cycling over the games; default one per game)")
        parser.add_argument("--rounds-per-table", type=int, default=30)
        parser.add_argument("--seed", type=int, default=2007)
        parser.add_argument("--if-empty", action="store_true",
                            help="do nothing if any table session exists already")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and TableSession.objects.exists():
            self.stdout.write("demo_day: sessions exist already; nothing to do")
            return
        missing = [c for c in DEMO_TABLES if not Casino.objects.filter(code=c).exists()]
        if missing:
            if not settings.DEBUG:
                raise CommandError(f"the demo casinos {missing} are missing: run seed_demo")
            call_command("seed_demo", stdout=self.stdout)
        tables, rounds = options["tables"], options["rounds_per_table"]
        if tables < 1 or rounds < 1:
            raise CommandError("play at least one round at one table")
        with tqdm(total=tables * rounds, desc="demo gaming day", unit="round",
                  disable=options.get("verbosity", 1) == 0) as bar:
            sessions = play_day(tables=tables, rounds=rounds, seed=options["seed"],
                                tick=lambda: bar.update(1))
        for s in sessions:
            self.stdout.write(
                f"{s.casino_id}/{s.table:<8} {s.game:<18} rounds {s.rounds - s.rounds_voided:>4}"
                f"  handle {s.handle:>12}  drop {s.drop:>10}  win {s.table_win:>10}"
                f"  rounds' result {s.round_result:>10}")
