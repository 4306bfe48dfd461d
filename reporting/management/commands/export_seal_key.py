"""Write a casino's public seal key (PEM) for the regulator: ``tools/verify_events.py`` checks
seals with it (docs/event-hash.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.errors import DomainError
from reporting.seals import seal_public_key


class Command(BaseCommand):
    help = "Write a casino's public seal key (Ed25519, PEM) to stdout or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--casino", required=True, help="the casino's code")
        parser.add_argument("--output", metavar="FILE", help="write here instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            published = seal_public_key(options["casino"])
        except DomainError as error:
            raise CommandError(error.message) from None
        if options["output"]:
            Path(options["output"]).write_text(published.public_key, encoding="ascii")
        else:
            self.stdout.write(published.public_key, ending="")
        self.stderr.write(f"public seal key of {published.casino}: {published.key_id}")
