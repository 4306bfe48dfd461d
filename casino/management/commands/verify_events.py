from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.eventstore.verify import verify_chain


class Command(BaseCommand):
    help = "Recompute the event hash chain; fail naming the first position that does not fit."

    def handle(self, *args: Any, **options: Any) -> None:
        report = verify_chain()
        if not report.ok:
            raise CommandError(
                f"hash chain broken at position {report.bad_position}: {report.reason} "
                f"({report.checked} events before it verified)"
            )
        self.stdout.write(f"OK: {report.checked} events verified; last hash {report.last_hash}")
