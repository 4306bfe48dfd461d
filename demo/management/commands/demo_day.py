"""``python manage.py demo_day``: a realistic, reproducible gaming day across every game."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from casino.models import Casino
from demo.day import DEMO_TABLES, DEMO_VARIANCE_WHY, play_day
from demo.days import play_days
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
        parser.add_argument("--days", type=int, default=1, choices=(1, 3),
                            help="1: one day today, every table and cage closed; 3: the day "
                                 "before yesterday closed and sealed, yesterday closed out "
                                 "(ready to close), today open and playing (demo.days)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and TableSession.objects.exists():
            self.stdout.write("demo_day: sessions exist already; nothing to do")
            return
        missing = [c for c in DEMO_TABLES if not Casino.objects.filter(code=c).exists()]
        if missing:
            if not settings.DEBUG:
                raise CommandError(f"the demo casinos {missing} are missing: run seed_demo")
            call_command("seed_demo", stdout=self.stdout)
        if options["days"] > 1 and TableSession.objects.exists():
            raise CommandError("the three demo days are played on a database with no table "
                               "session yet (they end today, each recorded inside its day): "
                               "python3 dev.py run --fresh starts over")
        tables, rounds = options["tables"], options["rounds_per_table"]
        if tables < 1 or rounds < 1:
            raise CommandError("play at least one round at one table")
        days = options["days"]
        with tqdm(total=tables * rounds * days,
                                       desc=f"demo gaming days ({days})", unit="round",
                                       disable=options.get("verbosity", 1) == 0) as bar:
            if days == 1:
                sessions = play_day(tables=tables, rounds=rounds, seed=options["seed"],
                                    tick=lambda: bar.update(1))
            else:
                played = play_days(rounds=rounds, seed=options["seed"], days=days,
                                   tables=tables, tick=lambda: bar.update(1))
                sessions = [s for p in played for s in p.sessions]
                for p in played:
                    self.stdout.write(f"{p.casino} gaming day {p.day}: {DAY_STATE[p.state]}")
        self.stdout.write(LEGEND)
        for s in sessions:
            if s.status != "closed":
                continue  # today's, still playing
            self.stdout.write(
                f"{s.casino_id + '/' + s.table:<15} {s.game:<18} rounds {s.rounds - s.rounds_voided:>4}"
                f"  handle {s.handle:>12}  drop {s.drop:>10}  win {s.table_win:>10}"
                f"  rounds' result {s.round_result:>10}{variance_note(s)}")
        short = sorted({abs(s.variance) for s in sessions if s.variance})
        if short:
            why = DEMO_VARIANCE_WHY.format(amount=" or ".join(str(v) for v in short))
            self.stdout.write(f"variance: {why} (the demo "
                              "follows the tray's value, not its chips); a pit boss explained "
                              "it and another approved it, as a real one would be.")


DAY_STATE = {
    "sealed": "played, every table and cage closed, then closed and sealed by the accountant",
    "closed out": "played, every table and cage closed and counted: ready for the accountant "
                  "to close and seal (the desk's Close page)",
    "open": "open and playing (tables and the cage's shifts open), with work waiting for each "
            "person",
}

LEGEND = """Each table's session, in its casino's currency:
  rounds          rounds played, voided ones left out (the first two tables add a void and a
                  corrected round; craps plays on until its last pass bets are decided)
  handle          every stake bet
  drop            cash changed for chips at the table, as the count room counted the drop box
  win             from the chips: drop + closing count - opening - fills + credits
  rounds' result  from the rounds: stakes lost - prizes paid (equal to win when the count is right)"""


def variance_note(s: TableSession) -> str:
    """What the line says when win and rounds' result differ: a variance, and why."""
    if not s.variance:
        return ""
    approved = " approved" if s.variance_approval_id else ""
    return f"  variance {s.variance}{approved}: the demo's count (see below)"
