"""``manage.py import_meter_readings <casino> <file.csv>``: a slot system's export of meter
readings, recorded in batches through ``meter_readings_record`` (source ``file``).

Columns: ``machine,reading_id,read_at`` then every meter (``coin_in``, ``coin_out``,
``jackpots``, ``cancelled_credits``, ``bills_in``, ``tickets_in``, ``tickets_out``,
``progressive_contributions``, ``games_played``) and the bills by note (``bills.20.00``...).
Each refused reading is printed with its reason; a file imported twice records nothing twice."""

from __future__ import annotations

import csv
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.context import system_metadata
from casino.errors import DomainError
from machines.services.readings import meter_readings_record

BATCH = 2000
HEAD = ("machine", "reading_id", "read_at")


class Command(BaseCommand):
    help = "Import a slot system's CSV export of meter readings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("casino")
        parser.add_argument("file")

    def handle(self, *args: Any, **options: Any) -> None:
        casino = options["casino"]
        try:
            with open(options["file"], newline="", encoding="utf-8") as handle:
                rows = list(csv.DictReader(handle))
        except OSError as error:
            raise CommandError(f"cannot read {options['file']}: {error}") from None
        if not rows:
            raise CommandError("the file has no readings")
        missing = [c for c in HEAD if c not in rows[0]]
        if missing:
            raise CommandError(f"the file lacks the column {missing[0]!r}")
        readings = [{"machine": row["machine"], "reading_id": row["reading_id"],
                     "read_at": row["read_at"],
                     "meters": {k: v for k, v in row.items() if k not in HEAD and v != ""}}
                    for row in rows]
        totals = {"recorded": 0, "duplicates": 0, "refused": 0}
        for start in range(0, len(readings), BATCH):
            try:
                answer = meter_readings_record(
                    casino=casino, readings=readings[start:start + BATCH], source="file",
                    metadata=system_metadata(casino, job="meter-import"))
            except DomainError as error:
                raise CommandError(error.message) from None
            totals["recorded"] += answer.recorded
            totals["duplicates"] += answer.duplicates
            totals["refused"] += answer.refused
            for result in answer.results:
                if result.status == "refused":
                    self.stderr.write(f"{result.machine} {result.reading_id}: {result.reason}")
        self.stdout.write("recorded {recorded}, duplicates {duplicates}, refused {refused}"
                          .format(**totals))
