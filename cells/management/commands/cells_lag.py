"""``manage.py cells_lag``: in a regulator's store, how far behind each casino is."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from cells.lag import store_lag


class Command(BaseCommand):
    help = "Each casino's replication lag (p50/p99 of the last hour), follower backlog, alarms."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{'casino':<12}{'received':>10}{'applied':>10}{'behind':>8}"
                          f"{'lag p50 s':>11}{'lag p99 s':>11}  alarms")
        for row in store_lag():
            self.stdout.write(
                f"{row.casino:<12}{row.received:>10}{row.applied:>10}{row.behind:>8}"
                f"{row.lag_p50:>11}{row.lag_p99:>11}  {row.alarms or '-'}"
                + (f"  STOPPED: {row.stopped}" if row.stopped else ""))
