"""Destroy the data keys of every patron of a casino whose retention period is over."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from casino.context import system_metadata
from casino.errors import Conflict
from compliance.models import Patron, PatronStatus
from compliance.services import patron_shred


class Command(BaseCommand):
    help = "Crypto-shred the personal data of patrons whose retention period is over."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--casino", required=True)

    def handle(self, *args: Any, casino: str, **options: Any) -> None:
        shredded = kept = 0
        for patron in Patron.objects.filter(casino=casino).exclude(
                status=PatronStatus.SHREDDED).order_by("registered_at"):
            try:
                patron_shred(patron_id=str(patron.patron_id),
                             metadata=system_metadata(casino, job="shred_patrons"))
                shredded += 1
            except Conflict as refused:
                if refused.code != "retention_not_over":
                    raise
                kept += 1
        self.stdout.write(f"{shredded} patron(s) shredded, {kept} kept (retention not over)")
