"""Re-wrap every patron's data key under a new master key (docs/patrons.md § Master key
rotation): run with the new key as CASINO_PATRON_MASTER_KEY and the old one as
CASINO_PATRON_MASTER_KEY_PREVIOUS; when it reports nothing left under the old key, remove the
old key from the environment and destroy it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from compliance.services.keys import PREVIOUS, master_key_rotate


class Command(BaseCommand):
    help = "Re-wrap every patron data key under the current patron master key."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true",
                            help="count the data keys still wrapped by another key; change nothing")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        done = master_key_rotate(check=check)
        verb = "to re-wrap" if check else "re-wrapped"
        self.stdout.write(f"{done.rotated} data key(s) {verb} under master key {done.key_id}, "
                          f"{done.current} under it already, {done.shredded} shredded (untouched)")
        if not check:
            self.stdout.write(f"every live data key is under {done.key_id}: remove {PREVIOUS} "
                              "and destroy the old key")
