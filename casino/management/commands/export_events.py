from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from eventstore import read_all, read_chain


class Command(BaseCommand):
    help = ("Write the events as JSON Lines (one event a line, with its hashes), in position "
            "order. An event carried here with its casino from another cell is written at the "
            "position its hash covers, where it was appended, with its place here beside it "
            "(cell_position: docs/event-hash.md).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from-position", type=int, default=1, metavar="N",
                            help="first position to export (default 1)")
        parser.add_argument("--casino", metavar="C",
                            help="one casino's chain only (from its first event, or from "
                                 "--from-position), which verifies without any other casino's")
        parser.add_argument("--output", metavar="FILE", help="write here instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        out = open(options["output"], "w", encoding="utf-8") if options["output"] else sys.stdout  # noqa: SIM115
        count = 0
        try:
            start = max(options["from_position"], 1)
            events = (read_all(after=start - 1) if not options["casino"] else
                      (e for e in read_chain(options["casino"]) if e.position >= start))
            for event in events:
                out.write(json.dumps(event.as_export(), ensure_ascii=False, sort_keys=True))
                out.write("\n")
                count += 1
        finally:
            if out is not sys.stdout:
                out.close()
        self.stderr.write(f"exported {count} events")
