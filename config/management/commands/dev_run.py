"""``python manage.py dev_run``: what ``python3 dev.py run`` runs inside the virtual environment.

The database (the embedded server when there is no ``DATABASE_URL``), the migrations, the demo
casinos and logins, the demo day (unless one was played already), then the web server, each
step saying what it did. ``dev.py`` prints the steps before (the environment) and the banner
after, once the server answers, and stops the embedded server when this process ends.
"""

from __future__ import annotations

import io
import os
import socket
import threading
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Count

STEPS = 7  # dev.py's two (virtual environment, packages) and these five


def step(number: int, what: str, detail: str, since: float | None = None) -> str:
    took = f" ({time.monotonic() - since:.1f} s)" if since is not None else ""
    return f"[{number}/{STEPS}] {what:<20} {detail}{took}"


class Command(BaseCommand):
    help = "The demo platform, step by step: database, migrations, demo data, web server."
    requires_system_checks: list[str] = []  # runserver checks, once the database is there

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("address", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--fresh", action="store_true",
                            help="start from an empty database (the embedded one only)")
        parser.add_argument("--rounds-per-table", type=int, default=30,
                            help="rounds at each table of the demo day, when it is played")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("dev_run serves the demo with well-known passwords: DEBUG only")
        self.database(fresh=options["fresh"])
        self.migrations()
        self.demo_data(options["rounds_per_table"])
        self.stdout.write(step(7, "web server", f"starting on http://{options['address']}/ "
                                                "(Django's development server)"))
        self.stdout.flush()
        threading.Thread(target=self.say_when_answering, args=(options["address"],),
                         daemon=True).start()
        call_command("runserver", options["address"], use_reloader=False)

    def say_when_answering(self, address: str, timeout: float = 120) -> None:
        """Step 7's seconds: from the server's start to its first answer."""
        since = time.monotonic()
        host, _, port = address.rpartition(":")
        while time.monotonic() - since < timeout:
            try:
                with socket.create_connection((host or "127.0.0.1", int(port)), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            return
        self.stdout.write(step(7, "web server", f"answering on http://{address}/", since))
        self.stdout.flush()

    def database(self, *, fresh: bool) -> None:
        since = time.monotonic()
        embedded = settings.DATABASES["default"]["ENGINE"] == "config.embedded_pg"
        if not embedded:
            if fresh:
                raise CommandError("--fresh empties only the embedded database; with "
                                   "DATABASE_URL set, drop and create that database yourself")
            url = os.environ.get("DATABASE_URL", "")
            shown = url.split("@")[-1] if "@" in url else url
            self.stdout.write(step(3, "database", f"PostgreSQL at {shown} (DATABASE_URL)", since))
            return
        from config.embedded_pg import server

        pgdata = server.pgdata_dir()
        found = server.state(pgdata)
        name = settings.DATABASES["default"]["NAME"]
        if fresh:
            server.drop_database(name)
        else:
            connection.ensure_connection()
        said = {
            "new": "a new cluster, created",
            "stopped": "started",
            "running": "already running (an earlier run that did not stop, or another "
                       "process): reused",
            "stale": "started (the lock file of a server that crashed was removed)",
        }[found]
        emptied = f"; database {name!r} emptied (--fresh)" if fresh else ""
        pid = server.postmaster_pid(pgdata)
        self.stdout.write(step(3, "database", f"embedded PostgreSQL in {pgdata} (pid {pid}): "
                                              f"{said}{emptied}", since))

    def migrations(self) -> None:
        since = time.monotonic()
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if plan:
            self.stdout.write(step(4, "migrations", f"applying {len(plan)} ..."))
            self.stdout.flush()
            call_command("migrate", interactive=False, verbosity=0)
            self.stdout.write(step(4, "migrations", f"{len(plan)} applied", since))
        else:
            self.stdout.write(step(4, "migrations", "up to date", since))

    def demo_data(self, rounds: int) -> None:
        from demo.management.commands.seed_demo import DEMO_CASINOS, DEMO_USERS
        from games.models import TableSession

        since = time.monotonic()
        call_command("seed_demo", stdout=io.StringIO())
        self.stdout.write(step(5, "demo casinos", ", ".join(c[0] for c in DEMO_CASINOS)
                               + f"; {len(DEMO_USERS) + 1} logins, password 'demo-' + name, see "
                                 "README.md, Demo logins", since))
        played = list(TableSession.objects.values("casino_id", "gaming_day")
                      .annotate(sessions=Count("session_id")).order_by("casino_id", "gaming_day"))
        if played:
            days = ", ".join(f"{p['casino_id']} {p['gaming_day']} "
                             f"({p['sessions']} table sessions)" for p in played)
            self.stdout.write(step(6, "demo days", f"already played, kept: {days}; "
                                   "--fresh starts over", since))
            return
        self.stdout.write(step(6, "demo days", f"playing three gaming days, {rounds} rounds at "
                                                "every table a day ..."))
        self.stdout.flush()
        since = time.monotonic()
        call_command("demo_day", rounds_per_table=rounds, days=3, stdout=self.stdout)
        self.stdout.write(step(6, "demo days", "played: the day before yesterday sealed, "
                                               "yesterday ready to close, today open", since))
